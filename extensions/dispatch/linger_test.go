//go:build unix

package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// A SessionStart hook may start a daemon and exit 0; the daemon lives on
// until its extension is disabled, uninstalled or updated, which end it.
func TestProcessesLeftByHooksEndWithTheirExtension(t *testing.T) {
	daemon := "sleep 1000 >/dev/null 2>&1 &\necho $! > \"$CLAUDE_PLUGIN_DATA/daemon.tmp\" && mv \"$CLAUDE_PLUGIN_DATA/daemon.tmp\" \"$CLAUDE_PLUGIN_DATA/daemon\"\necho started"
	tests := []struct {
		name string
		end  func(e *testEnv) error
	}{
		{"disable", func(e *testEnv) error { _, err := e.m.Disable(context.Background(), "daemon"); return err }},
		{"uninstall", func(e *testEnv) error { return e.m.Uninstall(context.Background(), "daemon") }},
		{"update", func(e *testEnv) error {
			e.repos["daemon"].Commit(e.t, "main", "v2", plugin("daemon", daemon+" v2", false))
			_, err := e.m.Update(context.Background(), "daemon", "", nil)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := repo(t, plugin("daemon", daemon, false))
			e := newTestEnv(t, map[string]*gittest.Repo{"daemon": r})
			e.install("daemon", "")
			info := e.enable("daemon")
			d := New(e.m, Config{HookPATH: func() string { return testPATH }})
			if res := d.SessionStart(context.Background(), sessionStartEvent(t.TempDir())); len(res.Blocks) != 1 {
				t.Fatalf("the hook must succeed: %+v", res)
			}
			body, err := os.ReadFile(filepath.Join(info.DataDir, "daemon"))
			if err != nil {
				t.Fatal(err)
			}
			pid := readPID(t, string(body))
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			if childproctest.Gone(pid) || len(d.linger.Pids("daemon")) != 1 {
				t.Fatalf("the daemon %d must outlive its successful hook and be tracked (%v)", pid, d.linger.Pids("daemon"))
			}
			if shown, _ := liveShow(context.Background(), e.m, d, "daemon"); len(shown.Lingering) != 1 {
				t.Errorf("extensions.Info.Lingering = %v, want the hook's group", shown.Lingering)
			}
			if err := tt.end(e); err != nil {
				t.Fatal(err)
			}
			if !childproctest.Gone(pid) {
				t.Fatalf("the daemon %d still runs after %s returned", pid, tt.name)
			}
			if left := d.linger.Pids("daemon"); len(left) != 0 {
				t.Errorf("still listed after %s: %v", tt.name, left)
			}
		})
	}
}

// Disabling an extension from another process (the CLI while the window
// runs) stops its running hooks here too, long before their timeout.
func TestDisableFromAnotherProcessStopsRunningHooks(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"slow"}`},
		"hooks/hooks.json":           {Body: `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/slow.sh","timeout":60}]}]}}`},
		"hooks/slow.sh":              {Body: "#!/bin/sh\necho $$ > \"$CLAUDE_PLUGIN_DATA/pid.tmp\" && mv \"$CLAUDE_PLUGIN_DATA/pid.tmp\" \"$CLAUDE_PLUGIN_DATA/pid\"\nexec sleep 1000\n", Mode: 0o755},
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"slow": repo(t, files)})
	e.install("slow", "")
	info := e.enable("slow")
	d := New(e.m, Config{HookPATH: func() string { return testPATH }})
	done := make(chan lifecycle.HookResult, 1)
	go func() {
		done <- d.UserPromptSubmit(context.Background(), lifecycle.PromptEvent{SessionID: "s", ProjectDir: t.TempDir(), Prompt: "hi"})
	}()
	pidFile := filepath.Join(info.DataDir, "pid")
	waitFile(t, pidFile)
	body, _ := os.ReadFile(pidFile)
	pid := readPID(t, string(body))
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	e.open() // another process: its own connection and manager, no dispatcher
	if _, err := e.m.Disable(context.Background(), "slow"); err != nil {
		t.Fatal(err)
	}
	waitHookStopped(t, done, pid, "another process disabled its extension (its timeout is 60 s)")
}

// waitHookStopped waits for a hook run stopped because why, and checks
// it gave no context and its process is gone.
func waitHookStopped(t *testing.T, done <-chan lifecycle.HookResult, pid int, why string) {
	t.Helper()
	select {
	case res := <-done:
		if len(res.Blocks) != 0 {
			t.Errorf("a stopped hook gave context: %+v", res.Blocks)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the hook still runs 20 s after " + why)
	}
	childproctest.WaitGone(t, pid)
}
