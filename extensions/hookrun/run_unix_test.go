//go:build unix

package hookrun

import (
	"bytes"
	"context"
	"errors"
	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

func TestRunSuccess(t *testing.T) {
	res := Run(context.Background(), helperSpec(t, "print", "hello"))
	if res.Err != nil {
		t.Fatalf("Run: %v", res.Err)
	}
	if string(res.Stdout) != "hello" || res.StdoutBytes != 5 || res.ExitCode != 0 {
		t.Fatalf("got stdout %q (%d bytes), exit %d", res.Stdout, res.StdoutBytes, res.ExitCode)
	}
}

func TestRunExitFailures(t *testing.T) {
	tests := []struct {
		name       string
		spec       Spec
		kind       FailureKind
		exitCode   int
		signal     string
		msgContain string
		stderr     string
	}{
		{"exit 1", helperSpec(t, "exit", "1", "boom\n  at line 3\n"), ExitStatus, 1, "", "exited with status 1", "boom at line 3"},
		{"exit 2", helperSpec(t, "exit", "2", "blocked"), ExitStatus, 2, "", "exited with status 2", "blocked"},
		{"signal", helperSpec(t, "kill-self"), Signaled, -1, "SIGKILL", "killed by signal SIGKILL", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Run(context.Background(), tt.spec)
			f := requireFailure(t, res.Err, tt.kind)
			if f.ExitCode != tt.exitCode || res.ExitCode != tt.exitCode || f.Signal != tt.signal || f.Stderr != tt.stderr {
				t.Fatalf("failure %+v, result exit %d", f, res.ExitCode)
			}
			if !strings.Contains(f.Msg, tt.msgContain) || strings.Contains(f.Error(), "\n") {
				t.Fatalf("message %q: want one line containing %q", f.Error(), tt.msgContain)
			}
		})
	}
}

func TestRunTimeout(t *testing.T) {
	spec := helperSpec(t, "sleep")
	spec.Timeout = 200 * time.Millisecond
	res := Run(context.Background(), spec)
	f := requireFailure(t, res.Err, TimedOut)
	if !errors.Is(res.Err, context.DeadlineExceeded) || !strings.Contains(f.Msg, "within 200ms") {
		t.Fatalf("failure %v", f)
	}
	// A hang guard, not a speed check: the hook sleeps for an hour.
	if limit := spec.Timeout + childproc.Grace + 10*time.Second; res.Duration > limit {
		t.Fatalf("Run took %v, want under %v", res.Duration, limit)
	}
}

func TestRunCanceledMidHook(t *testing.T) {
	errDisabled := errors.New("extension disabled")
	tests := []struct {
		name    string
		cause   error
		wantMsg string
	}{
		{"plain cancel", nil, "was stopped before it finished"},
		{"cancel with cause", errDisabled, "was stopped before it finished: extension disabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fifo := makeFIFO(t)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			done := startWhenReady(t, ctx, helperSpec(t, "ready", fifo), fifo)
			cancel(tt.cause)
			res := <-done
			f := requireFailure(t, res.Err, Canceled)
			if !strings.HasSuffix(f.Msg, tt.wantMsg) {
				t.Fatalf("message %q, want suffix %q", f.Msg, tt.wantMsg)
			}
			if tt.cause != nil && !errors.Is(res.Err, tt.cause) {
				t.Fatalf("err %v does not wrap the cause", res.Err)
			}
		})
	}
}

func TestRunCanceledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Run(ctx, helperSpec(t, "print", "never"))
	requireFailure(t, res.Err, Canceled)
}

// A hook that ignores SIGTERM gets the grace period, then SIGKILL.
func TestRunCancelEscalatesToKill(t *testing.T) {
	fifo := makeFIFO(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := startWhenReady(t, ctx, helperSpec(t, "ready", fifo, "ignore-term"), fifo)
	cancel()
	res := <-done
	requireFailure(t, res.Err, Canceled)
	if res.Duration < childproc.Grace {
		t.Fatalf("killed after %v, before the %v grace period", res.Duration, childproc.Grace)
	}
}

func TestRunKillsGrandchildHoldingStdout(t *testing.T) {
	t.Run("hook exits", func(t *testing.T) {
		res := Run(context.Background(), helperSpec(t, "spawn", "holding"))
		requireFailure(t, res.Err, OutputNotClosed)
		childproctest.WaitGone(t, pidFromStdout(t, res))
	})
	t.Run("hook is canceled", func(t *testing.T) {
		fifo := makeFIFO(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := startWhenReady(t, ctx, helperSpec(t, "spawn", "holding", fifo), fifo)
		cancel()
		res := <-done
		requireFailure(t, res.Err, Canceled)
		childproctest.WaitGone(t, pidFromStdout(t, res))
	})
}

// A successful hook may leave a background process that does not hold its
// output, as Claude Code allows; it is kept in the Spec's Linger under
// its owner, and ended by it.
func TestRunSuccessKeepsDetachedGrandchild(t *testing.T) {
	l := childproc.NewLinger()
	spec := helperSpec(t, "spawn", "detached")
	spec.Owner, spec.Linger = "ext", l
	res := Run(context.Background(), spec)
	if res.Err != nil {
		t.Fatalf("Run: %v", res.Err)
	}
	pid := pidFromStdout(t, res)
	t.Cleanup(func() {
		_ = unix.Kill(pid, unix.SIGKILL)
		childproctest.WaitGone(t, pid)
	})
	if childproctest.Gone(pid) {
		t.Fatalf("background process %d was killed after a successful run", pid)
	}
	if got := l.Pids("ext"); len(got) != 1 {
		t.Fatalf("Linger.Pids = %v, want the hook's group", got)
	}
	l.StopOwned("ext")
	childproctest.WaitGone(t, pid)
}

// Without a Linger nothing a hook leaves behind outlives it.
func TestRunWithoutLingerStopsWhatIsLeft(t *testing.T) {
	res := Run(context.Background(), helperSpec(t, "spawn", "detached"))
	if res.Err != nil {
		t.Fatalf("Run: %v", res.Err)
	}
	pid := pidFromStdout(t, res)
	t.Cleanup(func() { _ = unix.Kill(pid, unix.SIGKILL) })
	childproctest.WaitGone(t, pid)
}

func TestRunStdoutFlood(t *testing.T) {
	const flood = 50 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := Run(context.Background(), helperSpec(t, "stdout-flood", "52428800"))
	runtime.ReadMemStats(&after)
	f := requireFailure(t, res.Err, OutputTooLarge)
	if res.StdoutBytes != flood || len(res.Stdout) > MaxStdout {
		t.Fatalf("counted %d bytes, kept %d", res.StdoutBytes, len(res.Stdout))
	}
	if !strings.Contains(f.Msg, "50 MiB") || !strings.Contains(f.Msg, "64 KiB limit") {
		t.Fatalf("message %q", f.Msg)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 16<<20 {
		t.Fatalf("draining %d bytes allocated %d bytes", flood, allocated)
	}
	if _, err := ParseOutput("SessionStart", res); err != res.Err {
		t.Fatalf("ParseOutput used over-cap output: %v", err)
	}
}

func TestRunStderrFloodIsDrained(t *testing.T) {
	res := Run(context.Background(), helperSpec(t, "stderr-flood", "52428800", "ok"))
	if res.Err != nil {
		t.Fatalf("Run: %v", res.Err)
	}
	if string(res.Stdout) != "ok" || len(res.Stderr) != MaxStderr {
		t.Fatalf("stdout %q, kept %d bytes of stderr", res.Stdout, len(res.Stderr))
	}
}

func TestRunStdin(t *testing.T) {
	input := []byte(`{"session_id":"s1","hook_event_name":"SessionStart"}`)
	tests := []struct {
		name  string
		mode  string
		stdin []byte
		want  string
	}{
		{"written then closed", "cat", input, string(input)},
		{"hook never reads it", "ignore-stdin", bytes.Repeat([]byte("x"), MaxStdin), ""},
		{"no input", "cat", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := helperSpec(t, tt.mode)
			spec.Stdin = tt.stdin
			res := Run(context.Background(), spec)
			if res.Err != nil || string(res.Stdout) != tt.want {
				t.Fatalf("Run: err %v, stdout %q, want %q", res.Err, res.Stdout, tt.want)
			}
		})
	}
}

func TestRunRefusesOversizedStdin(t *testing.T) {
	spec := helperSpec(t, "cat")
	spec.Stdin = make([]byte, MaxStdin+1)
	res := Run(context.Background(), spec)
	f := requireFailure(t, res.Err, StartFailed)
	if !strings.Contains(f.Msg, "over the 1 MiB limit") || res.ExitCode != -1 {
		t.Fatalf("failure %v, exit %d", f, res.ExitCode)
	}
}

func TestRunWorkingDirectory(t *testing.T) {
	spec := helperSpec(t, "pwd")
	res := Run(context.Background(), spec)
	if res.Err != nil {
		t.Fatalf("Run: %v", res.Err)
	}
	want, _ := filepath.EvalSymlinks(spec.Dir)
	got, _ := filepath.EvalSymlinks(string(res.Stdout))
	if got != want {
		t.Fatalf("hook ran in %q, want %q", got, want)
	}
}

func TestRunEnvironment(t *testing.T) {
	for _, name := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AGENTDESK_API_KEY", "DISPLAY", "SSH_AUTH_SOCK", "AGENTDESK_TEST_UNLISTED"} {
		t.Setenv(name, "must-not-leak")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("LC_MESSAGES", "C")
	data := filepath.Join(t.TempDir(), "data")
	spec := helperSpec(t, "env")
	spec.Env = Environ(EnvInput{
		Parent: os.Environ(), HookPATH: "/usr/bin:/bin", PluginRoot: "/store/ponytail/abc",
		PluginData: data, ProjectDir: spec.Dir, SessionID: "sess-1", Event: "SessionStart",
	})
	res := Run(context.Background(), spec)
	if res.Err != nil {
		t.Fatalf("Run: %v", res.Err)
	}
	got := parseEnv(string(res.Stdout))
	want := map[string]string{
		"HOME": home, "LANG": "C.UTF-8", "LC_MESSAGES": "C", "PATH": "/usr/bin:/bin", "TERM": "dumb",
		"CLAUDE_PLUGIN_ROOT": "/store/ponytail/abc", "PLUGIN_ROOT": "/store/ponytail/abc", "AGENTDESK_PLUGIN_ROOT": "/store/ponytail/abc",
		"CLAUDE_PLUGIN_DATA": data, "PLUGIN_DATA": data, "AGENTDESK_PLUGIN_DATA": data,
		"CLAUDE_PROJECT_DIR": spec.Dir, "AGENTDESK_PROJECT_DIR": spec.Dir,
		"AGENTDESK_SESSION_ID": "sess-1", "AGENTDESK_HOOK_EVENT": "SessionStart",
		"XDG_CONFIG_HOME": filepath.Join(data, ".config"), "XDG_DATA_HOME": filepath.Join(data, ".local/share"),
		"XDG_STATE_HOME": filepath.Join(data, ".local/state"), "XDG_CACHE_HOME": filepath.Join(data, ".cache"),
		"CLAUDE_CONFIG_DIR": filepath.Join(data, ".claude"), "CODEX_HOME": filepath.Join(data, ".codex"),
	}
	for name, value := range want {
		if got[name] != value {
			t.Errorf("%s = %q, want %q", name, got[name], value)
		}
	}
	// Besides those, only the other allowlisted app variables may appear.
	allowedExtra := map[string]bool{"USER": true, "LOGNAME": true, "TZ": true, "TMPDIR": true}
	for name, value := range got {
		if _, expected := want[name]; !expected && !allowedExtra[name] && !strings.HasPrefix(name, "LC_") {
			t.Errorf("hook saw %s=%q, which is not allowlisted", name, value)
		}
	}
}

func parseEnv(out string) map[string]string {
	env := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if name, value, ok := strings.Cut(line, "="); ok {
			env[name] = value
		}
	}
	return env
}

// linkTestBinary puts the test binary into dir under name.
func linkTestBinary(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Symlink(testBinary(t), filepath.Join(dir, name)); err != nil {
		t.Fatalf("symlink: %v", err)
	}
}

func TestRunLooksUpProgramOnHookPATHOnly(t *testing.T) {
	hookDir, appDir := t.TempDir(), t.TempDir()
	linkTestBinary(t, hookDir, "hookrun-hook-only")
	linkTestBinary(t, appDir, "hookrun-app-only")
	t.Setenv("PATH", appDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(prog string) Result {
		spec := helperSpec(t, "print", "found")
		spec.Argv[0] = prog
		spec.Env = helperEnv("PATH=" + hookDir)
		return Run(context.Background(), spec)
	}

	if res := run("hookrun-hook-only"); res.Err != nil || string(res.Stdout) != "found" {
		t.Fatalf("program on the hook PATH: err %v, stdout %q", res.Err, res.Stdout)
	}
	f := requireFailure(t, run("hookrun-app-only").Err, NotFound)
	want := "`hookrun-app-only` was not found on the hook PATH (" + hookDir + "): install it or set the PATH for hooks in Preferences → Advanced"
	if f.Msg != want || f.Program != "hookrun-app-only" {
		t.Fatalf("message %q, want %q", f.Msg, want)
	}
}

func TestRunProgramResolutionFailures(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.sh")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linkTestBinary(t, dir, "in-project")
	tests := []struct {
		name     string
		argv0    string
		pathList string
		kind     FailureKind
		msg      string
	}{
		{"missing bare name", "node-hookrun-missing", "/usr/bin:/bin", NotFound, "was not found on the hook PATH (/usr/bin:/bin)"},
		{"empty hook PATH", "node-hookrun-missing", "", NotFound, "was not found on the hook PATH (empty)"},
		{"relative PATH entry ignored", "in-project", ".", NotFound, "was not found on the hook PATH"},
		{"missing absolute path", filepath.Join(dir, "gone"), "", NotFound, "does not exist"},
		{"not executable", plain, "", StartFailed, "not executable on this system"},
		{"relative path", "./in-project", "", StartFailed, "not a bare name or an absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := helperSpec(t, "print", "x")
			spec.Dir, spec.Argv[0], spec.Env = dir, tt.argv0, helperEnv("PATH="+tt.pathList)
			f := requireFailure(t, Run(context.Background(), spec).Err, tt.kind)
			if !strings.Contains(f.Msg, tt.msg) {
				t.Fatalf("message %q, want it to contain %q", f.Msg, tt.msg)
			}
		})
	}
}

func TestRunEmptyArgv(t *testing.T) {
	requireFailure(t, Run(context.Background(), Spec{}).Err, StartFailed)
}

func TestRunThenParseOutput(t *testing.T) {
	hookJSON := `{"systemMessage":"ponytail ready","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"use tabs"}}`
	out, err := ParseOutput("UserPromptSubmit", Run(context.Background(), helperSpec(t, "print", hookJSON)))
	if err != nil {
		t.Fatalf("ParseOutput: %v", err)
	}
	if !reflect.DeepEqual(out, Output{AdditionalContext: "use tabs", SystemMessage: "ponytail ready"}) {
		t.Fatalf("got %+v", out)
	}
}

func TestLookPath(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(first, "tool"), 0o644) // not executable: skipped
	writeFile(t, filepath.Join(second, "tool"), 0o755)
	tests := []struct {
		name, prog, pathList, want string
		wantErr                    error
	}{
		{"skips non-executable match", "tool", first + ":" + second, filepath.Join(second, "tool"), nil},
		{"absolute", filepath.Join(second, "tool"), "", filepath.Join(second, "tool"), nil},
		{"not on PATH", "tool", first, "", ErrNotFound},
		{"directory is not a program", second, "", "", errNotExecutable},
		{"relative with slash", "bin/tool", second, "", errRelative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LookPath(tt.prog, tt.pathList)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("LookPath = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func writeFile(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkRunOverhead compares Run with a bare exec.Command of the same
// trivial program; the difference is what the runner adds per hook.
func BenchmarkRunOverhead(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true program")
	}
	b.Run("Run", func(b *testing.B) {
		spec := Spec{Argv: []string{truePath}, Env: []string{}, Stdin: []byte(`{"hook_event_name":"SessionStart"}`)}
		for b.Loop() {
			if res := Run(context.Background(), spec); res.Err != nil {
				b.Fatal(res.Err)
			}
		}
	})
	b.Run("exec.Command", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(truePath).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A Spec without Env must not fall back to the app's environment: the
// hook sees nothing but the sandbox's private TMPDIR (none unconfined).
func TestRunNilEnvIsEmpty(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "must-not-leak")
	spec := helperSpec(t, "env")
	spec.Env = nil
	res := Run(context.Background(), spec)
	confined, _ := childproc.SandboxStatus()
	if env := string(res.Stdout); res.Err != nil || (confined && !strings.HasPrefix(env, "TMPDIR=")) ||
		(!confined && env != "") || strings.Contains(env, "\n") {
		t.Fatalf("Run: err %v, environment %q", res.Err, res.Stdout)
	}
}
