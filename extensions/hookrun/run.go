// Package hookrun runs one extension hook command under hard bounds and
// interprets what it printed.
//
// It knows nothing about manifests, storage or the agent: callers hand it
// an argv that is already split and expanded, the complete environment
// (see Environ) and the JSON to write on stdin. Run executes the program
// directly, never through a shell, in its own process group (a job object
// on Windows), with a clamped timeout and capped output, and leaves no
// process of a failed run behind. ParseOutput turns a Result into the
// context, status message and stop reason the hook produced, following
// the Claude Code / Codex command-hook wire format.
package hookrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

// Bounds of one hook run, from the hooks design.
const (
	// DefaultTimeout applies when a Spec has no timeout of its own.
	DefaultTimeout = 5 * time.Second
	// MaxTimeout is the hard ceiling on any hook's timeout.
	MaxTimeout = 60 * time.Second
	// MaxStdin is the largest hook input accepted (a longer prompt is sent
	// truncated, see the dispatcher).
	MaxStdin = 1 << 20
	// MaxStdout is how much stdout is kept; more is a failure.
	MaxStdout = 64 << 10
	// MaxStderr is how much stderr is kept; more is drained and dropped.
	MaxStderr = 16 << 10
)

// errHookTimeout is the cause of a run context that hit the hook's own
// timeout, which tells a timeout apart from the caller's cancellation.
var errHookTimeout = errors.New("hook timed out")

// Spec is one hook invocation.
type Spec struct {
	// Argv is the program and its arguments. Argv[0] is either an absolute
	// path or a bare name looked up on the PATH found in Env (never the
	// app's own PATH).
	Argv []string
	// Dir is the working directory, normally the project root.
	Dir string
	// Env is the complete child environment, normally from Environ. A nil
	// Env means an empty environment, never the app's.
	Env []string
	// Stdin is written to the hook and then closed; at most MaxStdin.
	Stdin []byte
	// Timeout bounds the run: 0 means DefaultTimeout, anything above
	// MaxTimeout is clamped to it.
	Timeout time.Duration
	// Owner names whom the hook runs for (an extension id): processes a
	// successful run leaves behind are kept in Linger under Owner, until
	// its StopOwned(Owner) or StopAll ends them. A nil Linger keeps
	// nothing: they are stopped when the hook exits.
	Owner  string
	Linger *childproc.Linger
	// Sandbox is what the hook may touch; normally the project and the
	// extension's data folder are writable (see childproc.Sandbox).
	Sandbox childproc.Sandbox
}

// Result is what one run produced.
type Result struct {
	// Program is Argv[0] as given, for messages and run records.
	Program string
	// Stdout and Stderr hold at most MaxStdout and MaxStderr bytes.
	Stdout, Stderr []byte
	// StdoutBytes counts everything the hook wrote to stdout, including
	// bytes discarded beyond MaxStdout.
	StdoutBytes int64
	// ExitCode is the exit status, or -1 if the hook did not exit normally
	// (not started, killed by a signal).
	ExitCode int
	// Duration is the time from start until the hook and its pipes were
	// done.
	Duration time.Duration
	// Err is nil when the hook exited 0 within its bounds, else a *Failure.
	Err error
}

// Run executes s and waits for it. It never returns before the hook's
// process group has exited or been killed; a hook that succeeds may leave
// background processes it started without holding its output open, just as
// in Claude Code. Those stay known in s.Linger under s.Owner until it
// ends them.
func Run(ctx context.Context, s Spec) Result {
	inv := &invocation{program: programName(s.Argv), timeout: effectiveTimeout(s.Timeout)}
	res := Result{Program: inv.program, ExitCode: -1}
	path, failure := resolveSpec(s)
	if failure != nil {
		res.Err = failure
		return res
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, inv.timeout, errHookTimeout)
	defer cancel()
	if err := inv.start(runCtx, path, s); err != nil {
		res.Err = inv.startFailure(runCtx, err)
		return res
	}
	waitErr := inv.proc.Wait()
	res.Duration = time.Since(inv.began)
	res.Stdout, res.Stderr, res.StdoutBytes = inv.stdout.Bytes(), inv.stderr.Bytes(), inv.stdout.Len()
	res.ExitCode = inv.proc.State().ExitCode()
	failure = inv.classify(runCtx, waitErr)
	if failure != nil {
		// Nothing of a failed run is left behind.
		inv.proc.Stop()
		res.Err = failure
		return res
	}
	s.Linger.Keep(inv.proc)
	return res
}

// effectiveTimeout applies the default and the hard ceiling.
func effectiveTimeout(d time.Duration) time.Duration {
	switch {
	case d <= 0:
		return DefaultTimeout
	case d > MaxTimeout:
		return MaxTimeout
	default:
		return d
	}
}

func programName(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return argv[0]
}

// resolveSpec checks s before anything starts and finds the program.
func resolveSpec(s Spec) (string, *Failure) {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return "", &Failure{Kind: StartFailed, ExitCode: -1, Msg: "the hook has no command to run"}
	}
	prog := s.Argv[0]
	if len(s.Stdin) > MaxStdin {
		return "", &Failure{Kind: StartFailed, Program: prog, ExitCode: -1,
			Msg: fmt.Sprintf("the input for `%s` is %s, over the %s limit", prog, formatBytes(int64(len(s.Stdin))), formatBytes(MaxStdin))}
	}
	pathList := envValue(s.Env, "PATH")
	path, err := LookPath(prog, pathList)
	if err != nil {
		return "", lookupFailure(prog, pathList, err)
	}
	return path, nil
}

func lookupFailure(prog, pathList string, err error) *Failure {
	f := &Failure{Kind: NotFound, Program: prog, ExitCode: -1, Err: err}
	switch {
	case !errors.Is(err, ErrNotFound):
		f.Kind, f.Msg = StartFailed, fmt.Sprintf("could not start `%s`: %v", prog, errors.Unwrap(err))
	case filepath.IsAbs(prog):
		f.Msg = fmt.Sprintf("`%s` does not exist", prog)
	default:
		if pathList == "" {
			pathList = "empty"
		}
		f.Msg = fmt.Sprintf("`%s` was not found on the hook PATH (%s): install it or set the PATH for hooks in Preferences → Advanced", prog, pathList)
	}
	return f
}

// invocation is the state of one started hook.
type invocation struct {
	program        string
	timeout        time.Duration
	proc           *childproc.Process
	stdout, stderr *childproc.Head
	began          time.Time
}

func (inv *invocation) start(ctx context.Context, path string, s Spec) error {
	inv.stdout, inv.stderr = childproc.NewHead(MaxStdout), childproc.NewHead(MaxStderr)
	var stdin io.Reader
	if len(s.Stdin) > 0 {
		stdin = bytes.NewReader(s.Stdin)
	}
	inv.began = time.Now()
	proc, err := childproc.Start(ctx, childproc.Spec{Path: path, Args: s.Argv, Dir: s.Dir, Env: s.Env,
		Stdin: stdin, Stdout: inv.stdout, Stderr: inv.stderr, Owner: s.Owner, Sandbox: s.Sandbox})
	inv.proc = proc
	return err
}

// startFailure words a failed start; os/exec refuses to start a command
// whose context has already ended.
func (inv *invocation) startFailure(runCtx context.Context, err error) *Failure {
	if runCtx.Err() != nil {
		return inv.contextFailure(runCtx)
	}
	return &Failure{Kind: StartFailed, Program: inv.program, ExitCode: -1, Err: err,
		Msg: fmt.Sprintf("could not start `%s`: %v", inv.program, err)}
}

// classify turns the outcome of Wait into a failure, or nil on success.
// Whether the context stopped the hook is decided by whether the run was
// actually terminated, not by the exit status it died with.
func (inv *invocation) classify(runCtx context.Context, waitErr error) *Failure {
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil && inv.stdout.Len() > MaxStdout:
		return inv.failure(OutputTooLarge, fmt.Sprintf("`%s` wrote %s to stdout, over the %s limit; its output was not used",
			inv.program, formatBytes(inv.stdout.Len()), formatBytes(MaxStdout)))
	case waitErr == nil:
		return nil
	case inv.proc.Terminated():
		return inv.contextFailure(runCtx)
	case errors.As(waitErr, &exitErr):
		return inv.exitFailure(exitErr.ProcessState)
	case errors.Is(waitErr, exec.ErrWaitDelay):
		return inv.failure(OutputNotClosed, fmt.Sprintf("`%s` exited, but a process it started kept its output open; it was stopped after %s",
			inv.program, childproc.Grace))
	default:
		f := inv.failure(StartFailed, fmt.Sprintf("`%s` failed: %v", inv.program, waitErr))
		f.Err = waitErr
		return f
	}
}

func (inv *invocation) contextFailure(runCtx context.Context) *Failure {
	cause := context.Cause(runCtx)
	if errors.Is(cause, errHookTimeout) {
		f := inv.failure(TimedOut, fmt.Sprintf("`%s` did not finish within %s and was stopped", inv.program, inv.timeout))
		f.Err = context.DeadlineExceeded
		return f
	}
	msg := fmt.Sprintf("`%s` was stopped before it finished", inv.program)
	// A plain cancel (Esc, Stop) needs no explanation; a cause the caller
	// gave, such as "extension disabled", does.
	if cause != context.Canceled {
		msg += ": " + cause.Error()
	}
	f := inv.failure(Canceled, msg)
	f.Err = cause
	return f
}

func (inv *invocation) exitFailure(state *os.ProcessState) *Failure {
	if sig, ok := childproc.ExitSignal(state); ok {
		f := inv.failure(Signaled, fmt.Sprintf("`%s` was killed by signal %s", inv.program, sig))
		f.Signal = sig
		return f
	}
	f := inv.failure(ExitStatus, fmt.Sprintf("`%s` exited with status %d", inv.program, state.ExitCode()))
	f.ExitCode = state.ExitCode()
	return f
}

func (inv *invocation) failure(kind FailureKind, msg string) *Failure {
	return &Failure{Kind: kind, Program: inv.program, ExitCode: -1, Msg: msg, Stderr: stderrTail(inv.stderr.Bytes())}
}
