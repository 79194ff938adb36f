//go:build unix

package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// The skill roots an enabled extension contributes carry its active
// version folder, which its SKILL.md files name as ${CLAUDE_PLUGIN_ROOT}.
func TestSkillRootsCarryThePluginRoot(t *testing.T) {
	files := with(plugin("sk", "", false), map[string]gittest.File{
		"skills/deploy/SKILL.md":      {Body: "---\nname: deploy\ndescription: d\n---\nRun ${CLAUDE_SKILL_DIR}/scripts/go.sh (${CLAUDE_PLUGIN_ROOT})\n"},
		"skills/deploy/scripts/go.sh": {Body: "#!/bin/sh\n", Mode: 0o755},
	})
	e := newTestEnv(t, map[string]*gittest.Repo{"sk": repo(t, files)})
	info := e.install("sk", "")
	d := New(e.m, Config{})
	if roots := d.SkillRoots(context.Background(), ""); len(roots) != 0 {
		t.Fatalf("a disabled extension contributes skill roots: %+v", roots)
	}
	e.enable("sk")
	roots := d.SkillRoots(context.Background(), "")
	if len(roots) != 1 || roots[0].PluginRoot != info.Dir || !strings.HasPrefix(roots[0].Dir, info.Dir) {
		t.Fatalf("skill roots = %+v, want one under %s carrying it", roots, info.Dir)
	}
	file := filepath.Join(roots[0].Dir, "deploy", "SKILL.md")
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, note := roots[0].ExpandSkill(file, string(body))
	script := filepath.Join(roots[0].Dir, "deploy") + "/scripts/go.sh"
	if !strings.Contains(got, "Run "+script+" ("+info.Dir+")") || note == "" {
		t.Fatalf("expanded = %q (%s)", got, note)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("the expanded path names no file: %v", err)
	}
}
