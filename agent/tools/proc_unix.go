//go:build unix

package tools

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// inOwnProcessGroup starts cmd as the leader of a new process group, so
// stopping it reaches every process it spawned, and makes cancellation
// send SIGTERM to that group.
func inOwnProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return signalGroup(cmd.Process, syscall.SIGTERM)
	}
}

// killProcessGroup kills whatever is left of the group once its leader
// has been waited for. The group ID cannot be reused while any member is
// alive, so this cannot reach an unrelated process group.
func killProcessGroup(p *os.Process) {
	_ = signalGroup(p, syscall.SIGKILL) // no such group: nothing was left
}

func signalGroup(p *os.Process, sig syscall.Signal) error {
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
