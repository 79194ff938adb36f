//go:build unix && !linux

package childproc

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal has nothing to set: only Linux has a parent-death
// signal.
func setParentDeathSignal(*syscall.SysProcAttr) {}

func startCmd(cmd *exec.Cmd) error { return cmd.Start() }
