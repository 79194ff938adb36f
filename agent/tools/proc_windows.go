//go:build windows

package tools

import (
	"os"
	"os/exec"
)

// inOwnProcessGroup keeps exec's default cancellation on Windows, which
// kills the shell itself. Windows has no process groups to signal; stopping
// grandchildren too would need a job object.
func inOwnProcessGroup(*exec.Cmd) {}

// killProcessGroup has nothing to do on Windows; see inOwnProcessGroup.
func killProcessGroup(*os.Process) {}
