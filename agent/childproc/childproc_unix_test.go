//go:build unix

package childproc

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// testGuard bounds waits that only end late if something is broken; it is
// never the thing measured.
const testGuard = 30 * time.Second

// startShell runs script with sh in a fresh directory, which it returns
// and which the child may write, as a command may write its project.
func startShell(t *testing.T, ctx context.Context, script string, stdout, stderr *Head) (*Process, string) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	dir := t.TempDir()
	s := Spec{Path: sh, Args: []string{"sh", "-c", script}, Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")},
		Sandbox: Sandbox{Write: []string{dir}}}
	if stdout != nil {
		s.Stdout = stdout
	}
	if stderr != nil {
		s.Stderr = stderr
	}
	p, err := Start(ctx, s)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return p, dir
}

// backgroundPid starts `sleep 1000` in the background (its output where
// redirect says) and records its pid in the file "pid".
func backgroundPid(redirect string) string {
	return "sleep 1000 " + redirect + " & echo $! > pid.tmp && mv pid.tmp pid; "
}

// readPid waits for the pid file a script writes; what the script said on
// a stderr, if given, explains a pid that never comes.
func readPid(t *testing.T, dir string, stderr ...*Head) int {
	t.Helper()
	deadline := time.Now().Add(testGuard)
	for {
		b, err := os.ReadFile(filepath.Join(dir, "pid"))
		if err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid file: %v", err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			for _, h := range stderr {
				t.Logf("stderr: %s", h.Bytes())
			}
			t.Fatal("the script never wrote its pid")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func killOnCleanup(t *testing.T, pid int) {
	t.Cleanup(func() { _ = unix.Kill(pid, unix.SIGKILL) })
}

// A grandchild holding stdout open must not keep Wait blocked past Grace.
func TestWaitReturnsWhileGrandchildHoldsOutput(t *testing.T) {
	p, dir := startShell(t, context.Background(), backgroundPid(""), NewHead(64), nil)
	pid := readPid(t, dir)
	killOnCleanup(t, pid)
	if err := p.Wait(); !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("Wait = %v, want exec.ErrWaitDelay", err)
	}
	if p.Terminated() {
		t.Error("Terminated() = true for a run nobody cancelled")
	}
	p.Stop()
	childproctest.WaitGone(t, pid)
}

// The end of the context stops the whole group; a process that ignores
// SIGTERM is killed Grace later.
func TestCancelStopsTheGroup(t *testing.T) {
	tests := []struct {
		name     string
		prefix   string
		minDelay time.Duration
	}{
		{name: "SIGTERM", minDelay: 0},
		{name: "SIGTERM ignored", prefix: "trap '' TERM; ", minDelay: Grace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p, dir := startShell(t, ctx, tt.prefix+backgroundPid("")+"wait", NewHead(64), NewHead(64))
			pid := readPid(t, dir)
			killOnCleanup(t, pid)
			began := time.Now()
			cancel()
			_ = p.Wait()
			p.Stop()
			childproctest.WaitGone(t, pid)
			if !p.Terminated() {
				t.Error("Terminated() = false after the context ended")
			}
			if took := time.Since(began); took < tt.minDelay {
				t.Errorf("stopped after %v, before the %v grace period", took, tt.minDelay)
			}
		})
	}
}

// After a normal exit, Stop ends what the child left behind and Release
// lets it live.
func TestLeftoversAfterExit(t *testing.T) {
	tests := []struct {
		name      string
		stop      bool
		wantAlive bool
	}{
		{name: "Stop", stop: true},
		{name: "Release", wantAlive: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, dir := startShell(t, context.Background(), backgroundPid(">/dev/null 2>&1")+"exit 0", nil, nil)
			pid := readPid(t, dir)
			killOnCleanup(t, pid)
			if err := p.Wait(); err != nil {
				t.Fatalf("Wait = %v", err)
			}
			if tt.stop {
				p.Stop()
				childproctest.WaitGone(t, pid)
				return
			}
			l := NewLinger()
			l.Keep(p)
			t.Cleanup(l.StopAll)
			time.Sleep(50 * time.Millisecond)
			if childproctest.Gone(pid) {
				t.Fatalf("background process %d was stopped after Keep", pid)
			}
		})
	}
}

// Output far over the caps is drained, counted and cut, never blocking
// the child on a full pipe.
func TestOutputIsDrainedAndCapped(t *testing.T) {
	const n = 10 << 20
	stdout, stderr := NewHead(16), NewHead(16)
	script := fmt.Sprintf("head -c %d /dev/zero; head -c %d /dev/zero >&2", n, n)
	p, _ := startShell(t, context.Background(), script, stdout, stderr)
	if err := p.Wait(); err != nil {
		t.Fatalf("Wait = %v", err)
	}
	p.Stop()
	for name, h := range map[string]*Head{"stdout": stdout, "stderr": stderr} {
		if h.Len() != n || len(h.Bytes()) != 16 {
			t.Errorf("%s: Len() = %d, kept %d bytes; want %d and 16", name, h.Len(), len(h.Bytes()), n)
		}
	}
}

func TestNilEnvIsEmpty(t *testing.T) {
	t.Setenv("CHILDPROC_TEST_VISIBLE", "leaked")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	out := NewHead(1 << 10)
	p, err := Start(context.Background(), Spec{Path: sh, Args: []string{"sh", "-c", `echo "[$CHILDPROC_TEST_VISIBLE]"`}, Stdout: out})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	p.Stop()
	if got := strings.TrimSpace(string(out.Bytes())); got != "[]" {
		t.Errorf("child saw %q, want an empty environment", got)
	}
}

func TestExitSignal(t *testing.T) {
	p, _ := startShell(t, context.Background(), "kill -KILL $$", nil, nil)
	var exitErr *exec.ExitError
	if err := p.Wait(); !errors.As(err, &exitErr) {
		t.Fatalf("Wait = %v, want an exit error", err)
	}
	p.Stop()
	if sig, ok := ExitSignal(p.State()); !ok || sig != "SIGKILL" {
		t.Errorf("ExitSignal = %q, %v; want SIGKILL", sig, ok)
	}
}

// leaveDaemon runs a child for owner that exits 0 leaving a background
// process behind, keeps it in l, and returns that process's pid.
func leaveDaemon(t *testing.T, l *Linger, owner string) int {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	dir := t.TempDir()
	p, err := Start(context.Background(), Spec{Path: sh, Args: []string{"sh", "-c", backgroundPid(">/dev/null 2>&1") + "exit 0"},
		Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}, Owner: owner, Sandbox: Sandbox{Write: []string{dir}}})
	if err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, dir)
	killOnCleanup(t, pid)
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	l.Keep(p)
	return pid
}

// What a successful child leaves running is ended by its owner's
// StopOwned, and by StopAll, never by another owner's.
func TestLingeringGroups(t *testing.T) {
	l := NewLinger()
	a, b := leaveDaemon(t, l, "ext-a"), leaveDaemon(t, l, "ext-b")
	if got := l.Pids("ext-a"); len(got) != 1 {
		t.Fatalf("Pids(ext-a) = %v, want one group", got)
	}
	l.StopOwned("ext-a")
	childproctest.WaitGone(t, a)
	if childproctest.Gone(b) {
		t.Fatal("StopOwned(ext-a) stopped ext-b's process")
	}
	if got := l.Pids("ext-a"); len(got) != 0 {
		t.Errorf("Pids(ext-a) after StopOwned = %v", got)
	}
	l.StopAll()
	childproctest.WaitGone(t, b)
}

// A child that leaves nothing behind is not kept.
func TestReleaseOfAnEmptyGroupKeepsNothing(t *testing.T) {
	p, _ := startShell(t, context.Background(), "exit 0", nil, nil)
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	l := NewLinger()
	l.Keep(p)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.procs[p]; ok {
		t.Error("an empty group was kept")
	}
}

// Without a Linger, what a successful child leaves running is stopped:
// nothing is left that no one can end.
func TestKeepWithoutALingerStops(t *testing.T) {
	p, dir := startShell(t, context.Background(), backgroundPid(">/dev/null 2>&1")+"exit 0", nil, nil)
	pid := readPid(t, dir)
	killOnCleanup(t, pid)
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	var l *Linger
	l.Keep(p)
	childproctest.WaitGone(t, pid)
}
