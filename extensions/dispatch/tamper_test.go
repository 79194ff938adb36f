//go:build unix

package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/servers"
)

// A tampered hook file pauses its extension: the dispatcher marks it for
// review and runs nothing of it until the user reviews it again.
func TestTamperedHookFileNeedsReview(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"fixture": repo(t, fixtureFiles(t))})
	info := e.install("fixture", "")
	e.enable("fixture")
	script := filepath.Join(info.Dir, "hooks", "hook.sh")
	os.Chmod(script, 0o755)
	os.WriteFile(script, []byte("#!/bin/sh\necho pwned\n"), 0o755)
	d := New(e.m, Config{HookPATH: func() string { return "/usr/bin:/bin" }})
	res := d.SessionStart(context.Background(), sessionStartEvent(t.TempDir()))
	if len(res.Blocks) != 0 || len(res.Notices) != 1 || !strings.Contains(res.Notices[0].Text, "changed on disk") {
		t.Fatalf("tampered hook result = %+v", res)
	}
	after, _ := e.m.Show(context.Background(), "fixture")
	if after.Status != extensions.StatusNeedsReview {
		t.Fatalf("status = %s", after.Status)
	}
	if d.Enabled(context.Background(), "") != nil {
		t.Fatal("a tampered extension must be inactive")
	}
	e.enable("fixture") // the user reviews: the current files are stamped
	if after, _ = e.m.Show(context.Background(), "fixture"); after.Status != extensions.StatusEnabled {
		t.Fatalf("after review: %s", after.Status)
	}
}

// A file changed on disk under an MCP server's extension pauses the
// extension at the server's start, as a tampered hook does: the server
// does not start, and `ext list` and the card say it needs review, not
// "enabled".
func TestTamperedFileStopsMCPServerAndNeedsReview(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"mcpfix": repo(t, mcpPlugin(t))})
	info := e.install("mcpfix", "")
	e.enable("mcpfix")
	os.WriteFile(filepath.Join(info.Dir, "hooks", "post.sh"), []byte("#!/bin/sh\necho pwned\n"), 0o755)
	d := e.mcpDispatcher(servers.MCPConfig{})
	set := d.Tools(context.Background(), lifecycle.ToolsEvent{ProjectDir: t.TempDir()})
	if len(set.Tools) != 0 {
		t.Fatalf("a tampered extension's server offered %d tools", len(set.Tools))
	}
	after, _ := e.m.Show(context.Background(), "mcpfix")
	if after.Status != extensions.StatusNeedsReview || !strings.Contains(after.ReviewReason, "changed on disk") {
		t.Fatalf("status %s, reason %q", after.Status, after.ReviewReason)
	}
}
