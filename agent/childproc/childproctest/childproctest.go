//go:build unix

// Package childproctest has what tests of process supervision share:
// whether a process is gone, and waiting until it is.
package childproctest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// guard bounds WaitGone: only a process that was never stopped takes it.
const guard = 30 * time.Second

// Gone reports whether pid no longer runs. A zombie counts as gone: where
// PID 1 does not reap orphans (some containers) it stays listed.
func Gone(pid int) bool {
	if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name, which may hold spaces.
	_, rest, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(rest, "Z")
}

// WaitGone waits until pid is gone, and fails the test if it is still
// running after a generous guard.
func WaitGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !Gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// PlantHome makes a fake home folder holding files (path relative to the
// home → content, folders made as needed) and points HOME at it for the
// test. It lies outside the system's temporary folder where it can
// (/var/tmp), since a confined child's private TMPDIR lies there and
// would make the home writable.
func PlantHome(t testing.TB, files map[string]string) string {
	t.Helper()
	home, err := os.MkdirTemp("/var/tmp", "agentdesk-home-")
	if err != nil {
		home = t.TempDir()
	} else {
		t.Cleanup(func() { os.RemoveAll(home) })
	}
	for name, body := range files {
		path := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	return home
}

// RequireConfined fails t unless the running process pid shows the marks
// of a confined start on Linux: no_new_privs (which the sandbox's
// re-exec sets before it enforces the Landlock ruleset, and no
// unconfined child has) and a private TMPDIR of the sandbox's making.
func RequireConfined(t testing.TB, pid int) {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("read the status of pid %d: %v", pid, err)
	}
	if !strings.Contains(string(status), "NoNewPrivs:\t1") {
		t.Errorf("pid %d runs without no_new_privs: it was not started confined", pid)
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatalf("read the environment of pid %d: %v", pid, err)
	}
	for _, kv := range strings.Split(string(environ), "\x00") {
		if tmp, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			if !strings.Contains(filepath.Base(tmp), "agentdesk-child-") {
				t.Errorf("pid %d has TMPDIR=%s, not the sandbox's private folder", pid, tmp)
			}
			return
		}
	}
	t.Errorf("pid %d has no TMPDIR: it was not started confined", pid)
}
