package childproc

import (
	"os/exec"
	"runtime"
	"syscall"
)

// Children get SIGKILL when AgentDesk dies, even by SIGKILL (issue 32).
// The kernel sends a parent-death signal when the thread that forked the
// child ends, not the process, and Go may end threads; so every child is
// forked from one thread that is locked to its goroutine and never ends.
var spawns = make(chan spawn)

type spawn struct {
	cmd  *exec.Cmd
	done chan error
}

func init() {
	go func() {
		runtime.LockOSThread() // never unlocked: the thread lives as long as the process
		for s := range spawns {
			s.done <- s.cmd.Start()
		}
	}()
}

func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// startCmd starts cmd from the spawning thread.
func startCmd(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	spawns <- spawn{cmd: cmd, done: done}
	return <-done
}
