//go:build unix

package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// failAfter bounds waits that should end quickly; it only guards against
// a hang and is never the thing being measured.
const failAfter = 20 * time.Second

func TestRunCommand(t *testing.T) {
	s, dir := newTestSet(t, nil, Options{Env: []string{"PATH=" + os.Getenv("PATH"), "GREETING=hi"}})
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		command string
		wantErr bool
		want    []string
	}{
		{"stdout", "echo hello", false, []string{"exit code 0\n--- stdout ---\nhello"}},
		{"stderr", "echo oops >&2", false, []string{"exit code 0\n--- stderr ---\noops"}},
		{"exit code", "echo partial; exit 3", true, []string{"exit code 3", "partial"}},
		{"no output", "true", false, []string{"exit code 0\n(no output)"}},
		{"runs in the project root", "pwd -P", false, []string{resolved}},
		{"uses the given environment", `echo "$GREETING"`, false, []string{"--- stdout ---\nhi"}},
		{"bash syntax", "[[ 1 == 1 ]] && echo yes", false, []string{"yes"}},
		{"killed by a signal", "kill -KILL $$", true, []string{"command ended by signal: killed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkResult(t, run(t, s, "run_command", map[string]any{"command": tt.command}), tt.wantErr, tt.want...)
		})
	}
}

func TestRunCommandArguments(t *testing.T) {
	s, _ := newTestSet(t, nil, Options{CommandTimeout: 30 * time.Second})
	tool, _ := s.Lookup("run_command")
	tests := []struct {
		name        string
		args        map[string]any
		wantErr     string
		wantTimeout string
	}{
		{name: "default timeout", args: map[string]any{"command": "ls"}, wantTimeout: "times out after 30s"},
		{name: "own timeout", args: map[string]any{"command": "ls", "timeout_seconds": 5}, wantTimeout: "times out after 5s"},
		{name: "timeout capped", args: map[string]any{"command": "ls", "timeout_seconds": 3600}, wantTimeout: "times out after 10m0s"},
		{name: "negative timeout", args: map[string]any{"command": "ls", "timeout_seconds": -1}, wantErr: "must be positive"},
		{name: "no command", args: map[string]any{"command": "  "}, wantErr: "command is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tool.Preview(args(t, tt.args))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Preview error = %v, want %q", err, tt.wantErr)
				}
				checkResult(t, tool.Run(context.Background(), args(t, tt.args)), true, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := Preview{Title: "Run command", Detail: tt.wantTimeout, Command: "ls", Dir: s.roots.projectDir}
			if p != want {
				t.Errorf("preview = %#v, want %#v", p, want)
			}
		})
	}
}

func TestRunCommandDefaultEnvDropsAPIKey(t *testing.T) {
	t.Setenv(apiKeyVariable, "sk-test")
	t.Setenv("AGENTDESK_TEST_VISIBLE", "visible")
	s, _ := newTestSet(t, nil, Options{})
	got := run(t, s, "run_command", map[string]any{"command": `echo "key=[$` + apiKeyVariable + `] other=[$AGENTDESK_TEST_VISIBLE]"`})
	checkResult(t, got, false, "key=[] other=[visible]")
}

// TestRunCommandOutputHeadAndTail streams about 10 MB on each stream at
// once: the call must finish (the pipes are drained) and keep exactly the
// first and last HeadTailBytes with the omitted count between.
func TestRunCommandOutputHeadAndTail(t *testing.T) {
	s, _ := newTestSet(t, nil, Options{})
	const n = 1_400_000
	got := run(t, s, "run_command", map[string]any{"command": fmt.Sprintf("seq 1 %d & seq 1 %d >&2; wait", n, n)})
	checkResult(t, got, false, "exit code 0")

	var full strings.Builder
	for i := 1; i <= n; i++ {
		full.WriteString(strconv.Itoa(i))
		full.WriteByte('\n')
	}
	out := full.String()
	kept := out[:HeadTailBytes] +
		fmt.Sprintf("\n[… %d bytes omitted …]\n", len(out)-2*HeadTailBytes) +
		strings.TrimSuffix(out[len(out)-HeadTailBytes:], "\n")
	for _, stream := range []string{"stdout", "stderr"} {
		if !strings.Contains(got.Text, "--- "+stream+" ---\n"+kept) {
			t.Errorf("%s does not hold the expected head, marker and tail", stream)
		}
	}
	if len(got.Text) > 5*HeadTailBytes {
		t.Errorf("result is %d bytes, want about 4*HeadTailBytes", len(got.Text))
	}
}

// TestRunCommandStopsProcessGroup checks that a timeout and a cancelled
// context each stop the shell and a background grandchild, including one
// that ignores SIGTERM and holds the output pipes open.
func TestRunCommandStopsProcessGroup(t *testing.T) {
	tests := []struct {
		name    string
		prefix  string // shell code before the grandchild starts
		timeout float64
		cancel  bool
		want    string
	}{
		{name: "timeout", timeout: 1, want: "command timed out after 1s; its processes were stopped"},
		{name: "cancel", cancel: true, want: "command cancelled; its processes were stopped"},
		{name: "cancel ignoring SIGTERM", prefix: "trap '' TERM; ", cancel: true, want: "command cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newTestSet(t, nil, Options{})
			pidFile := filepath.Join(dir, "pid")
			a := map[string]any{"command": tt.prefix + "sleep 1000 & echo $! > pid.tmp && mv pid.tmp pid; wait"}
			if tt.timeout > 0 {
				a["timeout_seconds"] = tt.timeout
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan Result, 1)
			tool, _ := s.Lookup("run_command")
			go func() { done <- tool.Run(ctx, args(t, a)) }()

			pid := waitForPID(t, pidFile, done)
			if tt.cancel {
				cancel()
			}
			select {
			case got := <-done:
				checkResult(t, got, true, tt.want)
			case <-time.After(failAfter):
				t.Fatal("run_command did not return after being stopped")
			}
			if !processGone(pid) {
				t.Errorf("grandchild %d is still running", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}

// TestRunCommandStopsBackgroundJobs checks that a command which exits
// normally does not leave its background jobs running.
func TestRunCommandStopsBackgroundJobs(t *testing.T) {
	s, dir := newTestSet(t, nil, Options{})
	got := run(t, s, "run_command", map[string]any{"command": "sleep 1000 >/dev/null 2>&1 & echo $! > pid"})
	checkResult(t, got, false, "exit code 0")
	pid, err := strconv.Atoi(strings.TrimSpace(readFileT(t, filepath.Join(dir, "pid"))))
	if err != nil {
		t.Fatal(err)
	}
	if !processGone(pid) {
		t.Errorf("background job %d is still running", pid)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// waitForPID waits until the command has written its grandchild's pid. A
// command that returns first has failed to start it.
func waitForPID(t *testing.T, pidFile string, done <-chan Result) int {
	t.Helper()
	deadline := time.After(failAfter)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("bad pid file %q", b)
			}
			return pid
		}
		select {
		case got := <-done:
			t.Fatalf("command returned before starting its grandchild:\n%s", got.Text)
		case <-deadline:
			t.Fatal("command never wrote its grandchild's pid")
		case <-tick.C:
		}
	}
}

// processGone waits until pid has exited. An exited process whose parent
// died may stay a zombie when nothing reaps orphans (PID 1 in some
// containers), so on Linux a zombie counts as gone.
func processGone(pid int) bool {
	deadline := time.Now().Add(failAfter)
	for time.Now().Before(deadline) {
		if exited(pid) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func exited(pid int) bool {
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// The state follows the parenthesised command name.
		_, rest, _ := strings.Cut(string(stat), ") ")
		return strings.HasPrefix(rest, "Z")
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func TestRunCommandExtraEnvOverridesAndIsAskedEachTime(t *testing.T) {
	extra := []string{"FLAVOUR=mint"}
	s, _ := newTestSet(t, nil, Options{Env: []string{"PATH=" + os.Getenv("PATH"), "FLAVOUR=plain", "KEPT=yes"},
		ExtraEnv: func() []string { return extra }})
	checkResult(t, run(t, s, "run_command", map[string]any{"command": `echo "[$FLAVOUR][$KEPT]"`}), false, "[mint][yes]")
	extra = nil // the folder untrusted: the base environment again
	checkResult(t, run(t, s, "run_command", map[string]any{"command": `echo "[$FLAVOUR]"`}), false, "[plain]")
}
