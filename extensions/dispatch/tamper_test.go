//go:build unix

package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"

	"github.com/agentdesk/agentdesk/extensions/gittest"
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
	if d.Enabled() != nil {
		t.Fatal("a tampered extension must be inactive")
	}
	e.enable("fixture") // the user reviews: the current files are stamped
	if after, _ = e.m.Show(context.Background(), "fixture"); after.Status != extensions.StatusEnabled {
		t.Fatalf("after review: %s", after.Status)
	}
}
