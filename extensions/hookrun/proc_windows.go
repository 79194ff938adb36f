package hookrun

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// processTree is a hook's job object: every process the hook starts joins
// it, so terminating the job ends the whole tree. Windows has no SIGTERM
// for a windowless child, so termination is immediate there.
//
// The process is assigned to the job right after it starts; os/exec
// cannot start it suspended, so a child spawned in that first instant
// escapes the job.
type processTree struct {
	cmd        *exec.Cmd
	job        windows.Handle
	terminated bool
}

func newProcessTree(cmd *exec.Cmd) *processTree {
	tree := &processTree{cmd: cmd}
	// A console program started from a GUI app would otherwise flash a
	// console window.
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: windows.CREATE_NO_WINDOW}
	cmd.Cancel = tree.terminate
	return tree
}

func (t *processTree) start() error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("create job object: %w", err)
	}
	t.job = job
	if err := t.cmd.Start(); err != nil {
		_ = windows.CloseHandle(job)
		return err
	}
	if err := t.assign(); err != nil {
		_ = t.cmd.Process.Kill()
		_ = t.cmd.Wait()
		_ = windows.CloseHandle(job)
		return err
	}
	return nil
}

func (t *processTree) assign() error {
	process, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(t.cmd.Process.Pid))
	if err != nil {
		return fmt.Errorf("open hook process: %w", err)
	}
	defer windows.CloseHandle(process)
	if err := windows.AssignProcessToJobObject(t.job, process); err != nil {
		return fmt.Errorf("assign hook to job object: %w", err)
	}
	return nil
}

// terminate is the Cmd.Cancel hook.
func (t *processTree) terminate() error {
	if err := windows.TerminateJobObject(t.job, 1); err != nil {
		return fmt.Errorf("terminate hook job: %w", err)
	}
	t.terminated = true
	return nil
}

func (t *processTree) wasTerminated() bool { return t.terminated }

// finish runs after Wait: a failed run's remaining processes are killed,
// and the job handle is released either way.
func (t *processTree) finish(killRemaining bool) {
	if killRemaining {
		_ = windows.TerminateJobObject(t.job, 1)
	}
	_ = windows.CloseHandle(t.job)
}

// exitSignal: Windows processes do not die of signals.
func exitSignal(*os.ProcessState) (string, bool) { return "", false }
