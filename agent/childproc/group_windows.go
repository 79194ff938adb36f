package childproc

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// group is a child's job object: every process the child starts joins
// it, so terminating the job ends the whole tree. Windows has no SIGTERM
// for a windowless child, so termination is immediate there.
//
// The process is assigned to the job right after it starts; os/exec
// cannot start it suspended, so a child spawned in that first instant
// escapes the job.
type group struct {
	cmd        *exec.Cmd
	job        windows.Handle
	mu         sync.Mutex
	terminated bool
	closed     bool
}

func newGroup(cmd *exec.Cmd) *group {
	g := &group{cmd: cmd}
	// A console program started from a GUI app would otherwise flash a
	// console window.
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: windows.CREATE_NO_WINDOW}
	cmd.Cancel = g.terminate
	return g
}

func (g *group) start() error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("create job object: %w", err)
	}
	g.job = job
	if err := g.cmd.Start(); err != nil {
		_ = windows.CloseHandle(job)
		return err
	}
	if err := g.assign(); err != nil {
		_ = g.cmd.Process.Kill()
		_ = g.cmd.Wait()
		_ = windows.CloseHandle(job)
		return err
	}
	return nil
}

func (g *group) assign() error {
	process, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(g.cmd.Process.Pid))
	if err != nil {
		return fmt.Errorf("open child process: %w", err)
	}
	defer windows.CloseHandle(process)
	if err := windows.AssignProcessToJobObject(g.job, process); err != nil {
		return fmt.Errorf("assign child to job object: %w", err)
	}
	return nil
}

// terminate is the Cmd.Cancel hook.
func (g *group) terminate() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return os.ErrProcessDone
	}
	if err := windows.TerminateJobObject(g.job, 1); err != nil {
		return fmt.Errorf("terminate job: %w", err)
	}
	g.terminated = true
	return nil
}

func (g *group) wasTerminated() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.terminated
}

// stop ends the job's remaining processes and releases it.
func (g *group) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		_ = windows.TerminateJobObject(g.job, 1)
	}
	g.closeLocked()
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime, ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses, TotalTerminatedProcesses     uint32
}

// alive reports whether any process of the job still runs.
func (g *group) alive() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	var info jobAccounting
	err := windows.QueryInformationJobObject(g.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err == nil && info.ActiveProcesses > 0
}

func (g *group) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closeLocked()
}

func (g *group) closeLocked() {
	if !g.closed {
		_ = windows.CloseHandle(g.job)
		g.closed = true
	}
}

// ExitSignal: Windows processes do not die of signals.
func ExitSignal(*os.ProcessState) (string, bool) { return "", false }
