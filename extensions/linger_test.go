//go:build unix

package extensions

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/agent/childproc"
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
			d := NewDispatcher(e.m, DispatcherConfig{HookPATH: func() string { return testPATH }})
			if res := d.SessionStart(context.Background(), sessionStartEvent(t.TempDir())); len(res.Blocks) != 1 {
				t.Fatalf("the hook must succeed: %+v", res)
			}
			body, err := os.ReadFile(filepath.Join(info.DataDir, "daemon"))
			if err != nil {
				t.Fatal(err)
			}
			pid := readPID(t, string(body))
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			if isGone(pid) || len(childproc.Lingering("daemon")) != 1 {
				t.Fatalf("the daemon %d must outlive its successful hook and be tracked (%v)", pid, childproc.Lingering("daemon"))
			}
			if err := tt.end(e); err != nil {
				t.Fatal(err)
			}
			if !isGone(pid) {
				t.Fatalf("the daemon %d still runs after %s returned", pid, tt.name)
			}
		})
	}
}

func isGone(pid int) bool {
	return syscall.Kill(pid, 0) == syscall.ESRCH || isZombie(pid)
}
