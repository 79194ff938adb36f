//go:build unix

package extensions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
	"github.com/agentdesk/agentdesk/storage"
)

// Crash tests run an install or update in a child process (this test
// binary) that SIGKILLs itself at one step, then check that a restart
// finds the old or the new version complete and the registry consistent.
const crashEnv = "AGENTDESK_TEST_CRASH_AT"

func TestMain(m *testing.M) {
	mcptest.MaybeServe() // the fixture MCP server, when a test starts this binary as one
	if step := os.Getenv(crashEnv); step != "" {
		os.Exit(crashChild(step))
	}
	os.Exit(m.Run())
}

// crashChild runs one operation and dies at step; it returns only if the
// step was never reached.
func crashChild(step string) int {
	failpoint = func(s string) {
		if s == step {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	ctx := context.Background()
	paths := storage.ResolvePaths()
	db, err := storage.Open(ctx, paths.Database())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	m, err := NewManager(ctx, db, paths.Extensions()) // trusts the test CA through SSL_CERT_FILE
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	switch os.Getenv("AGENTDESK_TEST_OP") {
	case "install":
		_, err = m.Install(ctx, os.Getenv("AGENTDESK_TEST_URL"), "", nil)
	case "update":
		_, err = m.Update(ctx, "crash", "", nil)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 4
	}
	return 0
}

var crashSteps = []string{"writing", "fetched", "validated", "renamed", "before-flip", "flipped"}

func runCrashChild(t *testing.T, e *testEnv, op, step string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+step, "AGENTDESK_TEST_OP="+op, "AGENTDESK_TEST_URL="+e.url("crash"),
		storage.HomeEnv+"="+e.home, "SSL_CERT_FILE="+e.server.CAFile)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed at %s: %v\n%s", step, err, out)
	}
}

func TestCrashDuringInstallLeavesNothingOrEverything(t *testing.T) {
	for _, step := range crashSteps {
		t.Run(step, func(t *testing.T) {
			e := newTestEnv(t, map[string]*gittest.Repo{"crash": repo(t, plugin("crash", "echo hi", true))})
			runCrashChild(t, e, "install", step)
			e.db.Close()
			e.open() // restart: sweep
			list, _ := e.m.List(context.Background())
			if step != "flipped" {
				if len(list) != 0 {
					t.Fatalf("registry after a crash before the flip: %+v", list)
				}
				if state := e.storeState(); len(state) != 0 {
					t.Fatalf("garbage after restart: %v", state)
				}
				return
			}
			if len(list) != 1 || list[0].Status != StatusDisabled || len(list[0].Skills) != 1 {
				t.Fatalf("registry after a crash after the flip: %+v", list)
			}
			if _, err := os.Stat(list[0].Dir); err != nil {
				t.Fatalf("active version folder missing: %v", err)
			}
			e.install2OK(t)
		})
	}
}

// install2OK: a store that survived a crash takes new operations.
func (e *testEnv) install2OK(t *testing.T) {
	if err := e.m.Uninstall(context.Background(), "crash"); err != nil {
		t.Fatal(err)
	}
	e.install("crash", "")
}

func TestCrashDuringUpdateKeepsOldOrNew(t *testing.T) {
	for _, step := range crashSteps {
		t.Run(step, func(t *testing.T) {
			r := repo(t, plugin("crash", "echo one", true))
			e := newTestEnv(t, map[string]*gittest.Repo{"crash": r})
			old := e.install("crash", "")
			e.enable("crash")
			files := plugin("crash", "echo one", true)
			files["skills/more/SKILL.md"] = gittest.File{Body: "---\nname: more\ndescription: more\n---\n"}
			newCommit := r.Commit(t, "main", "v2", files)
			runCrashChild(t, e, "update", step)
			e.db.Close()
			e.open()
			info, err := e.m.Show(context.Background(), "crash")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case step == "flipped":
				if info.Commit != newCommit || info.PreviousCommit != old.Commit || len(info.Skills) != 2 {
					t.Fatalf("after the flip want the new version: %s/%s %d skills", info.Commit, info.PreviousCommit, len(info.Skills))
				}
			default:
				if info.Commit != old.Commit || info.PreviousCommit != "" || len(info.Skills) != 1 {
					t.Fatalf("before the flip want the old version: %s/%s", info.Commit, info.PreviousCommit)
				}
			}
			if info.Status != StatusEnabled {
				t.Fatalf("status %s, want enabled (hooks unchanged)", info.Status)
			}
			for _, p := range e.storeState() {
				if p == "staging" || len(p) > 8 && p[:8] == "staging/" {
					t.Fatalf("staging left: %v", e.storeState())
				}
			}
			if _, err := e.m.Update(context.Background(), "crash", "", nil); err != nil {
				t.Fatalf("update after restart: %v", err)
			}
		})
	}
}
