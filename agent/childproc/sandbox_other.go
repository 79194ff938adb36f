//go:build !linux

package childproc

import (
	"os/exec"
	"runtime"
)

// SandboxStatus says whether children are confined, in a sentence for
// `agentdesk version` and Preferences → Advanced.
func SandboxStatus() (confined bool, text string) {
	return false, "commands, hooks and servers run unconfined: the sandbox uses Linux Landlock, which " + runtime.GOOS + " does not have"
}

// confinement is nothing where there is no sandbox.
type confinement struct{}

func confine(*exec.Cmd, Sandbox) (*confinement, error) { return nil, nil }

func (c *confinement) started(*exec.Cmd) error { return nil }
func (c *confinement) abort(*exec.Cmd)         {}
func (c *confinement) cleanup()                {}
