//go:build unix

package dispatch

import (
	"context"

	"github.com/agentdesk/agentdesk/extensions"

	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// An extension trusted under older rules, when its hook script without #!
// was inactive, goes back to review once AgentDesk would run it.
func TestOlderRulesAreRevalidatedAtStart(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"poly","version":"1.0.0"}`},
		"hooks/hooks.json":           {Body: `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/run-hook.cmd start"}]}]}}`},
		"hooks/run-hook.cmd":         {Body: ": << 'CMDBLOCK'\n@echo off\nCMDBLOCK\necho started\n", Mode: 0o755},
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"poly": repo(t, files)})
	info := e.install("poly", "")
	ctx := context.Background()

	// Rewrite the registry as the previous rules left it: the hook
	// inactive, so nothing needed trust, and the extension enabled.
	v, err := e.db.ExtensionVersion(ctx, "poly", info.Commit)
	if err != nil {
		t.Fatal(err)
	}
	var pkg manifest.Package
	json.Unmarshal(v.Package, &pkg)
	pkg.Rules = 1
	pkg.Hooks[0].Argv = pkg.Hooks[0].Argv[1:] // no /bin/sh
	pkg.Hooks[0].Inactive = "hooks/run-hook.cmd is not executable on this system (neither a #! script nor a native binary)"
	v.Package, _ = json.Marshal(&pkg)
	v.HooksHash = manifest.HooksHash(nil)
	if _, _, err := e.db.UpdateExtension(ctx, "poly", &v, func(row *storage.Extension) error {
		row.Enabled, row.TrustedHash = true, ""
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	e.open() // AgentDesk starts again, with today's rules
	got, err := e.m.Show(ctx, "poly")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != extensions.StatusNeedsReview || got.Hooks[0].Inactive != "" || got.Hooks[0].Argv[0] != "/bin/sh" {
		t.Fatalf("after revalidation: status %s, hooks %+v, reason %q", got.Status, got.Hooks, got.ReviewReason)
	}
	// Reviewing (trusting the new list) makes it run.
	if after := e.enable("poly"); after.Status != extensions.StatusEnabled {
		t.Fatalf("after review: %s", after.Status)
	}
	e.open()
	if again, _ := e.m.Show(ctx, "poly"); again.Status != extensions.StatusEnabled {
		t.Fatalf("a second start must not ask again: %s %q", again.Status, again.ReviewReason)
	}
	d := New(e.m, Config{HookPATH: func() string { return testPATH }})
	res := d.SessionStart(ctx, sessionStartEvent(t.TempDir()))
	if len(res.Blocks) != 1 || res.Blocks[0].Text != "started" {
		t.Fatalf("the polyglot script run through /bin/sh gave %+v", res)
	}
}

// An extension trusted when AgentDesk ignored some of its hooks goes back
// to review once they would run: the user never saw them. Rules v2 ran no
// guard events; v4 ran them but not PermissionRequest, PostToolUseFailure,
// UserPromptExpansion or Notification.
func TestGuardHooksNeedReviewAfterUpgrade(t *testing.T) {
	newer := []string{"PermissionRequest", "PostToolUseFailure", "UserPromptExpansion", "Notification"}
	for _, rules := range []int{2, 4} {
		t.Run(fmt.Sprintf("rules v%d", rules), func(t *testing.T) {
			e := newTestEnv(t, map[string]*gittest.Repo{"guards": repo(t, testdataFiles(t, "guards"))})
			info := e.install("guards", "")
			ctx := context.Background()
			v, err := e.db.ExtensionVersion(ctx, "guards", info.Commit)
			if err != nil {
				t.Fatal(err)
			}
			var pkg manifest.Package
			json.Unmarshal(v.Package, &pkg)
			var old []manifest.Hook // what those rules ran, all of it trusted
			for _, h := range pkg.Hooks {
				if rules > 2 && !slices.Contains(newer, h.Event) {
					old = append(old, h)
				}
			}
			pkg.Rules, pkg.Hooks = rules, old
			v.Package, _ = json.Marshal(&pkg)
			v.HooksHash = manifest.HooksHash(old)
			if _, _, err := e.db.UpdateExtension(ctx, "guards", &v, func(row *storage.Extension) error {
				row.Enabled, row.TrustedHash = true, v.HooksHash
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			e.open()
			got, err := e.m.Show(ctx, "guards")
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != extensions.StatusNeedsReview || len(got.Hooks) != len(info.Hooks) || !strings.Contains(got.ReviewReason, "PermissionRequest") {
				t.Fatalf("after the upgrade: status %s, %d hooks (want %d), reason %q", got.Status, len(got.Hooks), len(info.Hooks), got.ReviewReason)
			}
		})
	}
}
