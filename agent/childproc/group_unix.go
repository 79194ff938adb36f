//go:build unix

package childproc

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// pollInterval is how often a terminated group is checked for exit
// during the grace period.
const pollInterval = 10 * time.Millisecond

// group is a child's process group: the child is its leader, so
// signalling -pid reaches every process it started that did not leave the
// group on purpose.
type group struct {
	cmd *exec.Cmd
	mu  sync.Mutex
	// terminatedAt is when SIGTERM reached the group. os/exec's cancel
	// goroutine may set it while the caller reads it, hence mu.
	terminatedAt time.Time
	// gone is set once the group was seen empty: from then on its id may
	// belong to an unrelated group and is never signalled again.
	gone bool
}

func newGroup(cmd *exec.Cmd) *group {
	g := &group{cmd: cmd}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
	cmd.Cancel = g.terminate
	return g
}

func (g *group) start() error { return startCmd(g.cmd) }

// terminate sends SIGTERM to the group once. It is the Cmd.Cancel hook:
// os/exec follows with SIGKILL to the leader after WaitDelay; stop does
// the same for the rest of the group.
func (g *group) terminate() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.terminatedAt.IsZero() {
		return nil
	}
	if err := g.signalLocked(unix.SIGTERM); err != nil {
		return err
	}
	g.terminatedAt = time.Now()
	return nil
}

func (g *group) wasTerminated() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.terminatedAt.IsZero()
}

func (g *group) stop() {
	if !g.alive() || g.terminate() != nil {
		return
	}
	g.mu.Lock()
	deadline := g.terminatedAt.Add(Grace)
	g.mu.Unlock()
	g.awaitExit(deadline)
	_ = g.signal(unix.SIGKILL)
}

// release has nothing to free: a process group is no handle.
func (g *group) release() {}

// awaitExit returns when the group is gone or at deadline.
func (g *group) awaitExit(deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	ticker := time.NewTicker(pollInterval)
	defer ticker.Stop()
	for g.alive() {
		select {
		case <-timer.C:
			return
		case <-ticker.C:
		}
	}
}

// alive reports whether any process of the group still exists.
func (g *group) alive() bool {
	return g.signal(0) == nil
}

func (g *group) signal(sig syscall.Signal) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.signalLocked(sig)
}

func (g *group) signalLocked(sig syscall.Signal) error {
	if g.gone {
		return os.ErrProcessDone
	}
	err := unix.Kill(-g.cmd.Process.Pid, sig)
	if errors.Is(err, unix.ESRCH) {
		g.gone = true
		return os.ErrProcessDone
	}
	return err
}

// ExitSignal names the signal that killed the process, if one did.
func ExitSignal(state *os.ProcessState) (string, bool) {
	status, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !status.Signaled() {
		return "", false
	}
	return unix.SignalName(status.Signal()), true
}
