//go:build unix

package hookrun

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// groupPollInterval is how often a terminated group is checked for exit
// during the grace period.
const groupPollInterval = 10 * time.Millisecond

// processTree is a hook's process group: the hook is its leader, so
// signalling -pid reaches every process it started that did not leave the
// group on purpose.
type processTree struct {
	cmd *exec.Cmd
	// terminatedAt is when the context's SIGTERM reached the group. It is
	// written by os/exec's cancel goroutine, which Wait joins before it
	// returns, and read only after Wait.
	terminatedAt time.Time
}

func newProcessTree(cmd *exec.Cmd) *processTree {
	tree := &processTree{cmd: cmd}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = tree.terminate
	return tree
}

func (t *processTree) start() error { return t.cmd.Start() }

// terminate is the Cmd.Cancel hook: SIGTERM to the whole group. os/exec
// follows with SIGKILL to the leader after WaitDelay; finish does the same
// for the rest of the group.
func (t *processTree) terminate() error {
	if err := t.signal(unix.SIGTERM); err != nil {
		return err
	}
	t.terminatedAt = time.Now()
	return nil
}

func (t *processTree) wasTerminated() bool { return !t.terminatedAt.IsZero() }

// finish runs after Wait. After a failed run every process left in the
// group gets SIGTERM (unless it already had it), then SIGKILL once the
// grace period since that SIGTERM is over.
func (t *processTree) finish(killRemaining bool) {
	if !killRemaining || !t.groupAlive() {
		return
	}
	if !t.wasTerminated() {
		if t.terminate() != nil {
			return
		}
	}
	t.awaitGroupExit(t.terminatedAt.Add(KillGrace))
	_ = t.signal(unix.SIGKILL)
}

// awaitGroupExit returns when the group is gone or at deadline.
func (t *processTree) awaitGroupExit(deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	ticker := time.NewTicker(groupPollInterval)
	defer ticker.Stop()
	for t.groupAlive() {
		select {
		case <-timer.C:
			return
		case <-ticker.C:
		}
	}
}

// groupAlive reports whether any process of the group still exists. The
// group id cannot be reused while a member lives, so a stale id only ever
// finds nothing.
func (t *processTree) groupAlive() bool {
	return t.signal(0) == nil
}

func (t *processTree) signal(sig syscall.Signal) error {
	err := unix.Kill(-t.cmd.Process.Pid, sig)
	if errors.Is(err, unix.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// exitSignal names the signal that killed the process, if one did.
func exitSignal(state *os.ProcessState) (string, bool) {
	status, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !status.Signaled() {
		return "", false
	}
	return unix.SignalName(status.Signal()), true
}
