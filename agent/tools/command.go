package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/invopop/jsonschema"
)

// runCommand is the run_command tool: a shell command the user approved,
// run in the project root.
type runCommand struct {
	dir            string
	env            []string
	extraEnv       func() []string
	defaultTimeout time.Duration
	sandbox        childproc.Sandbox
}

type runCommandArgs struct {
	Command        string  "json:\"command\" jsonschema:\"required\" jsonschema_description:\"The command line, e.g. `go test ./...`.\""
	TimeoutSeconds float64 `json:"timeout_seconds" jsonschema:"minimum=1" jsonschema_description:"Kill the command after this many seconds."`
}

// JSONSchemaExtend states the timeout's ceiling, a constant that a tag
// could only repeat.
func (runCommandArgs) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("timeout_seconds"); ok {
		p.Maximum = json.Number(strconv.Itoa(int(MaxCommandTimeout.Seconds())))
	}
}

func (t *runCommand) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "run_command",
		Description: fmt.Sprintf("Run a shell command with `bash -c` in the project root; the user approves each "+
			"command. stdin is empty, so interactive programs will not work. Returns the exit code, stdout and stderr; "+
			"of each stream only the first and last %d KiB are kept. The command is killed after timeout_seconds "+
			"(default %d, at most %d), and background processes it started are stopped when it ends.",
			HeadTailBytes>>10, int(t.defaultTimeout.Seconds()), int(MaxCommandTimeout.Seconds())),
		Parameters: schemaOf(runCommandArgs{}),
	}
}

func (t *runCommand) Kind() Kind { return Command }

func (t *runCommand) parse(raw json.RawMessage) (runCommandArgs, time.Duration, error) {
	var a runCommandArgs
	if err := decodeArgs(raw, &a); err != nil {
		return a, 0, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return a, 0, errRequired("command")
	}
	if a.TimeoutSeconds < 0 {
		return a, 0, fmt.Errorf("invalid arguments: timeout_seconds must be positive, got %v", a.TimeoutSeconds)
	}
	timeout := t.defaultTimeout
	if a.TimeoutSeconds > 0 {
		timeout = min(time.Duration(a.TimeoutSeconds*float64(time.Second)), MaxCommandTimeout)
	}
	return a, timeout, nil
}

func (t *runCommand) summary(raw json.RawMessage) string {
	a, _, err := t.parse(raw)
	if err != nil {
		return "run_command (invalid arguments)"
	}
	return "run_command " + strings.TrimSpace(a.Command)
}

func (t *runCommand) Preview(raw json.RawMessage) (Preview, error) {
	a, timeout, err := t.parse(raw)
	if err != nil {
		return Preview{}, err
	}
	return Preview{
		Title:   "Run command",
		Detail:  "times out after " + timeout.String(),
		Command: a.Command,
		Dir:     t.dir,
	}, nil
}

func (t *runCommand) Run(ctx context.Context, raw json.RawMessage) Result {
	a, timeout, err := t.parse(raw)
	if err != nil {
		return failure(err)
	}
	sandbox := t.sandbox
	if unconfined(ctx) {
		sandbox.Unconfined = true
	}
	return t.execute(ctx, a.Command, timeout, sandbox).result()
}

type unconfinedKey struct{}

// WithUnconfined marks ctx so that run_command runs the one call made
// with it outside the sandbox: the user answered "Run unconfined".
func WithUnconfined(ctx context.Context) context.Context {
	return context.WithValue(ctx, unconfinedKey{}, true)
}

func unconfined(ctx context.Context) bool {
	v, _ := ctx.Value(unconfinedKey{}).(bool)
	return v
}

// outcome is what happened to one command.
type outcome struct {
	started        bool
	state          *os.ProcessState // nil unless it was waited for
	stdout, stderr *childproc.HeadTail
	err            error         // from starting or waiting
	timedOut       time.Duration // the timeout, if it fired
	cancelled      bool
	confined       bool // the sandbox applied
}

// environ is the command's environment: env, with extraEnv's names
// replacing env's.
func (t *runCommand) environ() []string {
	if t.extraEnv == nil {
		return t.env
	}
	extra := t.extraEnv()
	if len(extra) == 0 {
		return t.env
	}
	names := map[string]bool{}
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		names[name] = true
	}
	out := make([]string, 0, len(t.env)+len(extra))
	for _, kv := range t.env {
		if name, _, _ := strings.Cut(kv, "="); !names[name] {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// execute runs command under the child-process supervisor: in its own
// process group, stopped as a whole (SIGTERM, then SIGKILL after
// childproc.Grace) when the timeout or ctx ends it, and afterwards
// whatever is left of the group, such as background jobs, is stopped too.
func (t *runCommand) execute(ctx context.Context, command string, timeout time.Duration, sandbox childproc.Sandbox) outcome {
	out := outcome{stdout: childproc.NewHeadTail(HeadTailBytes), stderr: childproc.NewHeadTail(HeadTailBytes)}
	shell, err := findShell()
	if err != nil {
		out.err = err
		return out
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p, err := childproc.Start(runCtx, childproc.Spec{Path: shell, Args: []string{shell, "-c", command},
		Dir: t.dir, Env: t.environ(), Stdout: out.stdout, Stderr: out.stderr, Sandbox: sandbox})
	if err != nil {
		out.err = err
		return out
	}
	out.started = true
	out.confined, _ = childproc.SandboxStatus()
	out.confined = out.confined && !sandbox.Unconfined
	out.err = p.Wait()
	p.Stop()
	out.state = p.State()
	out.cancelled = ctx.Err() != nil
	if !out.cancelled && errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		out.timedOut = timeout
	}
	return out
}

// findShell prefers bash, whose syntax models write, and falls back to sh.
func findShell() (string, error) {
	for _, name := range []string{"bash", "sh"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("cannot run commands: neither bash nor sh was found on PATH")
}

// result words the outcome for the model: how it ended, then each stream.
func (o outcome) result() Result {
	status, failed := o.status()
	var b strings.Builder
	b.WriteString(status)
	for _, s := range []struct {
		name string
		out  *childproc.HeadTail
	}{{"stdout", o.stdout}, {"stderr", o.stderr}} {
		if s.out.Len() > 0 {
			fmt.Fprintf(&b, "\n--- %s ---\n%s", s.name, strings.TrimSuffix(s.out.String(), "\n"))
		}
	}
	if o.stdout.Len() == 0 && o.stderr.Len() == 0 && o.started {
		b.WriteString("\n(no output)")
	}
	if o.confined && failed {
		if note := childproc.DenialNote(o.stderr.String() + "\n" + o.stdout.String()); note != "" {
			b.WriteString("\n--- note ---\n" + note)
		}
	}
	return Result{Text: b.String(), IsError: failed}
}

// status is the first line of a result and whether the call failed.
func (o outcome) status() (string, bool) {
	switch {
	case o.cancelled:
		return "command cancelled; its processes were stopped", true
	case o.timedOut > 0:
		return fmt.Sprintf("command timed out after %s; its processes were stopped", o.timedOut), true
	case !o.started:
		return fmt.Sprintf("command could not start: %v", o.err), true
	case o.state == nil:
		return fmt.Sprintf("command failed: %v", o.err), true
	}
	state := o.state
	code := state.ExitCode()
	if code < 0 {
		return "command ended by " + state.String(), true
	}
	status := fmt.Sprintf("exit code %d", code)
	var exitErr *exec.ExitError
	switch {
	case errors.Is(o.err, exec.ErrWaitDelay):
		status += "; a background process kept its output open and was stopped"
	case o.err != nil && !errors.As(o.err, &exitErr):
		return fmt.Sprintf("%s; reading its output failed: %v", status, o.err), true
	}
	return status, code != 0
}
