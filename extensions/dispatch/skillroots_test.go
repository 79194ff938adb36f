//go:build unix

package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/skills"
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

// An installed extension's skill roots carry the skills its package
// validated, so a catalog is built without reading its SKILL.md files;
// that catalog is the one reading them gives. A root that is a skill
// itself and one with skill subfolders both work.
func TestSkillRootsCarryTheirValidatedSkills(t *testing.T) {
	long := strings.Repeat("d", skills.MaxDescriptionLen+10)
	files := with(plugin("sk", "", false), map[string]gittest.File{
		"skills/deploy/SKILL.md":     {Body: "---\nname: deploy\ndescription: Deploy it\n---\nbody\n"},
		"skills/lint/SKILL.md":       {Body: "---\nname: lint\ndescription: " + long + "\n---\nbody\n"},
		"skills/README.md":           {Body: "not a skill"},
		"extra/solo/SKILL.md":        {Body: "---\nname: solo\ndescription: One skill as a root\n---\nbody\n"},
		".claude-plugin/plugin.json": {Body: `{"name":"sk","version":"1.0.0","skills":["./skills","./extra/solo"]}`},
	})
	e := newTestEnv(t, map[string]*gittest.Repo{"sk": repo(t, files)})
	e.install("sk", "")
	e.enable("sk")
	d := New(e.m, Config{})
	roots := d.SkillRoots(context.Background(), "")
	if len(roots) != 2 || roots[0].Listed == nil || roots[1].Listed == nil {
		t.Fatalf("roots = %+v, want two carrying their skills", roots)
	}
	listed := skills.Build(roots)
	read := slices.Clone(roots)
	for i := range read {
		read[i].Listed = nil
	}
	fromFiles := skills.Build(read)
	if len(listed.Skills) != 3 || !reflect.DeepEqual(listed.Skills, fromFiles.Skills) {
		t.Fatalf("catalog from the package:\n%+v\nfrom the files:\n%+v", listed.Skills, fromFiles.Skills)
	}
	if listed.Skills[0].Source != "extension sk" || len(listed.Notes) != 1 || !strings.Contains(listed.Notes[0], `"lint"`) {
		t.Errorf("source %q, notes %q; want the extension and the truncated description noted", listed.Skills[0].Source, listed.Notes)
	}
	// The listing is what is used: the files are not read again.
	for _, r := range roots {
		os.RemoveAll(r.Dir)
	}
	if again := skills.Build(roots); len(again.Skills) != 3 {
		t.Errorf("with the folders gone, the listed roots give %d skills, want 3", len(again.Skills))
	}
}
