// Package childproc is AgentDesk's one supervisor for the processes it
// starts on someone else's behalf: run_command's shell, extension hooks
// and MCP servers. Each child is confined by a Landlock sandbox where the
// kernel has one (see Sandbox): the app builds the child's Landlock
// ruleset, and the child starts through a small re-exec (HelperName, or
// this very binary with ExecCommand) that enforces it on itself and then
// execs the child, so the app itself is never restricted. Each child leads its own process group (a job object on
// Windows), so stopping it reaches everything it spawned; its output goes
// to writers that never block (HeadTail, Head), so a chatty child cannot
// hang on a full pipe; and it is stopped as a whole group: SIGTERM, then
// SIGKILL after Grace.
//
// Callers keep their own policies: what to capture, how to word a
// timeout (from their context's Err or Cause, never from the exit
// status), and whether processes left behind by a successful run may
// live on.
package childproc

import (
	"context"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// HelperName is the small program (sandboxexec/sandbox-exec.c) installed
// next to the AgentDesk binary on Linux that enforces a child's Landlock
// ruleset and execs it: what ExecCommand does, without a Go runtime
// start or the GUI's libraries, so a confined start costs one small exec
// more than an unconfined one. Without it, children start through
// ExecCommand.
const HelperName = "agentdesk-sandbox"

// Grace is how long a terminated process group has between SIGTERM and
// SIGKILL. It is also how long Wait waits, once the context has ended or
// the child has exited, for output pipes a grandchild still holds open.
const Grace = time.Second

// Spec is one child process.
type Spec struct {
	// Path is the program to execute: absolute, or relative to Dir.
	// It is never looked up on a PATH here.
	Path string
	// Args is the argument vector including Args[0]; nil means {Path}.
	Args []string
	// Dir is the working directory.
	Dir string
	// Env is the complete environment; nil means an empty one, never this
	// process's.
	Env []string
	// Stdin is copied to the child; nil means an empty input.
	Stdin io.Reader
	// Stdout and Stderr receive the output; nil discards it. They must
	// never block (see HeadTail and Head).
	Stdout, Stderr io.Writer
	// Owner names whom the child runs for, such as an extension id: what
	// it leaves running, kept by a Linger, is ended by StopOwned(Owner).
	Owner string
	// Sandbox is what the child may touch; the zero value confines it to
	// reading (see Sandbox and SandboxStatus).
	Sandbox Sandbox
}

// Process is a started child and its process group.
type Process struct {
	cmd   *exec.Cmd
	group *group
	owner string
	// cleanup removes the child's private temporary folder, once.
	cleanup func()
}

// Start starts s as the leader of a new process group. When ctx ends, the
// whole group gets SIGTERM (on Windows the job is terminated at once);
// Grace later the leader is killed and its pipes are closed, so Wait
// returns even if a grandchild ignores the signal and holds them.
func Start(ctx context.Context, s Spec) (*Process, error) {
	cmd := exec.CommandContext(ctx, s.Path)
	if len(s.Args) > 0 {
		cmd.Args = s.Args
	}
	cmd.Dir, cmd.Env = s.Dir, s.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.Stdin, s.Stdout, s.Stderr
	cmd.WaitDelay = Grace
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	c, err := confine(cmd, s.Sandbox)
	if err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, group: newGroup(cmd), owner: s.Owner, cleanup: sync.OnceFunc(c.cleanup)}
	if err := p.group.start(); err != nil {
		c.abort(cmd)
		return nil, err
	}
	if err := c.started(cmd); err != nil {
		_ = cmd.Wait()
		p.group.release()
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// Wait waits for the child to exit and for its output to be copied. A
// grandchild that keeps the output open past Grace makes it return
// exec.ErrWaitDelay (or an *exec.ExitError when the child also failed).
func (p *Process) Wait() error {
	return p.cmd.Wait()
}

// State is the child's exit state; nil before Wait returns.
func (p *Process) State() *os.ProcessState {
	return p.cmd.ProcessState
}

// Terminated reports whether the end of the context reached the group,
// that is whether the child was stopped rather than ending on its own.
// Call it after Wait.
func (p *Process) Terminated() bool {
	return p.group.wasTerminated()
}

// Stop ends whatever is left of the group after Wait: SIGTERM (unless the
// context's end already sent it), then SIGKILL once Grace has passed since
// that SIGTERM. It returns early when the group is gone, and releases the
// group either way.
func (p *Process) Stop() {
	p.group.stop()
	p.cleanup()
}

// Pid is the child's process id, which is also its group's.
func (p *Process) Pid() int {
	return p.cmd.Process.Pid
}

// StartPiped is Start with the child's stdin and stdout as pipes the
// caller keeps (a server speaking a protocol over its stdio): in writes
// to the child, out reads what it prints. s.Stdin and s.Stdout are
// ignored. On failure every pipe end is closed.
func StartPiped(ctx context.Context, s Spec) (p *Process, in, out *os.File, err error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, nil, err
	}
	s.Stdin, s.Stdout = inR, outW
	p, err = Start(ctx, s)
	inR.Close() // the child holds its ends now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, nil, err
	}
	return p, inW, outR, nil
}
