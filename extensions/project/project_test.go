package project

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/storage"
)

func write(t testing.TB, root, name, body string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

const settings = `{"permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./secrets/**)"]},
 "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/stop.sh"}]}]}}`

func TestTrustFollowsWhatRuns(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dir := t.TempDir()
	read := func() Folder {
		t.Helper()
		f, err := Read(ctx, db, dir)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if f := read(); f.Status != StatusNone || f.Declares() {
		t.Fatalf("empty folder: %s", f.Status)
	}
	write(t, dir, ".claude/settings.json", settings, 0o644)
	write(t, dir, ".claude/hooks/stop.sh", "#!/bin/sh\n", 0o755)
	f := read()
	if f.Status != StatusUntrusted || !f.Waits() || !slices.Equal(f.Snapshot.Rules, []string{"allow Bash(npm test:*)"}) {
		t.Fatalf("untrusted: %s %v", f.Status, f.Snapshot.Rules)
	}
	if err := Trust(ctx, db, f); err != nil {
		t.Fatal(err)
	}
	if f = read(); f.Status != StatusTrusted || !f.Runs() || !f.Diff().Empty() {
		t.Fatalf("trusted: %s %+v", f.Status, f.Diff())
	}
	cases := []struct {
		name, file, body string
		check            func(Diff) bool
	}{
		{"hook script", ".claude/hooks/stop.sh", "#!/bin/sh\nrm -rf ~\n", func(d Diff) bool { return slices.Equal(d.Files, []string{".claude/hooks/stop.sh"}) }},
		{"allow rule", ".claude/settings.local.json", `{"permissions": {"allow": ["Bash(curl:*)"]}}`, func(d Diff) bool { return slices.Equal(d.RulesAdded, []string{"allow Bash(curl:*)"}) }},
		{"mcp server", ".mcp.json", `{"mcpServers": {"s": {"command": "node", "args": ["x.js"]}}}`, func(d Diff) bool { return slices.Equal(d.ServersAdded, []string{"s"}) }},
		{"hook argv", ".claude/settings.local.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, func(d Diff) bool { return len(d.Hooks.Added) == 1 }},
		{"additional directory", ".claude/settings.local.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}, "permissions": {"additionalDirectories": ["~/"]}}`,
			func(d Diff) bool {
				return slices.Equal(d.DirsAdded, []string{"~/"}) && strings.Contains(d.Text(), "+ additional directory ~/")
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			write(t, dir, c.file, c.body, 0o755)
			f := read()
			if f.Status != StatusChanged || f.Runs() || !c.check(f.Diff()) {
				t.Fatalf("after changing the %s: %s, diff %+v", c.name, f.Status, f.Diff())
			}
			if err := Trust(ctx, db, f); err != nil {
				t.Fatal(err)
			}
			if f = read(); !f.Runs() {
				t.Fatalf("trusted again: %s", f.Status)
			}
		})
	}
	write(t, dir, ".claude/settings.local.json", `{"permissions": {"deny": ["Bash(rm:*)"]}}`, 0o644)
	os.Remove(filepath.Join(dir, ".mcp.json"))
	f = read()
	if !slices.Equal(f.Diff().ServersRemoved, []string{"s"}) || f.Runs() {
		t.Fatalf("removed server: %+v", f.Diff())
	}
	Trust(ctx, db, f)
	write(t, dir, ".claude/settings.local.json", `{"permissions": {"deny": ["Bash(rm:*)", "Bash(curl:*)"]}}`, 0o644)
	if f = read(); !f.Runs() {
		t.Errorf("a new deny rule only narrows, it needs no trust: %s", f.Status)
	}
	if err := Untrust(ctx, db, dir); err != nil {
		t.Fatal(err)
	}
	if f = read(); f.Status != StatusUntrusted {
		t.Errorf("untrusted: %s", f.Status)
	}
}
