package skills

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\nBody.\n"
}

func names(list []Skill) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

func TestDiscoverFolderOfSkills(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "zeta", FileName), skillMD("zeta", "last"))
	writeFile(t, filepath.Join(root, "alpha", FileName), skillMD("alpha", "first"))
	writeFile(t, filepath.Join(root, "broken", FileName), "no front matter")
	writeFile(t, filepath.Join(root, "empty", "notes.txt"), "x")
	writeFile(t, filepath.Join(root, "README.md"), "loose files are not skills")
	writeFile(t, filepath.Join(root, ".hidden", "x"), "hidden folders are not skills")

	got, notes, err := Discover(root, "user")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"alpha", "zeta"}; !slices.Equal(names(got), want) {
		t.Fatalf("skills = %v, want %v", names(got), want)
	}
	for _, s := range got {
		if s.Source != "user" || s.Dir != filepath.Join(root, s.Name) {
			t.Errorf("skill %+v: want source user and dir under root", s)
		}
	}
	if len(notes) != 2 ||
		!strings.Contains(notes[0], filepath.Join(root, "broken", FileName)) ||
		!strings.Contains(notes[1], "skipped "+filepath.Join(root, "empty")+": no SKILL.md") {
		t.Fatalf("notes = %q", notes)
	}
}

func TestDiscoverOneSkillFolder(t *testing.T) {
	root := filepath.Join(t.TempDir(), "solo")
	writeFile(t, filepath.Join(root, FileName), skillMD("solo", "one skill"))
	writeFile(t, filepath.Join(root, "nested", FileName), skillMD("nested", "ignored: root is a skill"))
	got, notes, err := Discover(root, "project")
	if err != nil || len(notes) != 0 {
		t.Fatalf("err = %v, notes = %q", err, notes)
	}
	if len(got) != 1 || got[0].Name != "solo" || got[0].Dir != root || got[0].Source != "project" {
		t.Fatalf("got %+v", got)
	}
}

func TestDiscoverInvalidSingleSkillIsANote(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, FileName), "---\nname: x\n---\n")
	got, notes, err := Discover(root, "user")
	if err != nil || len(got) != 0 || len(notes) != 1 || !strings.Contains(notes[0], "no description") {
		t.Fatalf("got %v, notes %q, err %v", got, notes, err)
	}
}

func TestDiscoverMissingAndFileRoots(t *testing.T) {
	dir := t.TempDir()
	got, notes, err := Discover(filepath.Join(dir, "absent"), "user")
	if err != nil || got != nil || notes != nil {
		t.Fatalf("missing root: %v %v %v", got, notes, err)
	}
	file := filepath.Join(dir, "file")
	writeFile(t, file, "x")
	if _, _, err := Discover(file, "user"); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("file root: err = %v", err)
	}
}

func TestDiscoverFollowsLinkedSkillFolder(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "store", "linked", FileName), skillMD("linked", "via symlink"))
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "store", "linked"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	got, _, err := Discover(root, "user")
	if err != nil || len(got) != 1 || got[0].Name != "linked" {
		t.Fatalf("got %+v, err %v", got, err)
	}
}

func TestBuildConflictsAndOrder(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user")
	project := filepath.Join(dir, "project")
	ext1 := filepath.Join(dir, "ext1")
	ext2 := filepath.Join(dir, "ext2")
	writeFile(t, filepath.Join(user, "review", FileName), skillMD("review", "user review"))
	writeFile(t, filepath.Join(project, "build", FileName), skillMD("build", "project build"))
	writeFile(t, filepath.Join(project, "review", FileName), skillMD("review", "project review"))
	writeFile(t, filepath.Join(ext1, "review", FileName), skillMD("review", "ext1 review"))
	writeFile(t, filepath.Join(ext1, "audit", FileName), skillMD("audit", "ext1 audit"))
	writeFile(t, filepath.Join(ext2, "audit", FileName), skillMD("audit", "ext2 audit"))
	writeFile(t, filepath.Join(ext2, "bad", FileName), "oops")

	cat := Build([]Root{
		{Dir: user, Source: "user"},
		{Dir: project, Source: "project"},
		{Dir: filepath.Join(dir, "absent"), Source: "extension gone"},
		{Dir: ext1, Source: "extension one"},
		{Dir: ext2, Source: "extension two"},
	})
	if want := []string{"audit", "build", "review"}; !slices.Equal(names(cat.Skills), want) {
		t.Fatalf("skills = %v, want %v", names(cat.Skills), want)
	}
	wantWinners := map[string]string{"audit": "extension one", "build": "project", "review": "user"}
	for _, s := range cat.Skills {
		if s.Source != wantWinners[s.Name] {
			t.Errorf("%s won from %q, want %q", s.Name, s.Source, wantWinners[s.Name])
		}
	}
	if len(cat.Conflicts) != 2 {
		t.Fatalf("conflicts = %+v", cat.Conflicts)
	}
	review := cat.Conflicts[0]
	if review.Name != "review" || review.Winner.Source != "user" || len(review.Losers) != 2 ||
		review.Losers[0].Source != "project" || review.Losers[1].Source != "extension one" {
		t.Errorf("review conflict = %+v", review)
	}
	audit := cat.Conflicts[1]
	if audit.Name != "audit" || audit.Winner.Source != "extension one" || len(audit.Losers) != 1 || audit.Losers[0].Source != "extension two" {
		t.Errorf("audit conflict = %+v", audit)
	}
	if len(cat.Notes) != 1 || !strings.Contains(cat.Notes[0], filepath.Join(ext2, "bad")) {
		t.Errorf("notes = %q", cat.Notes)
	}
}

func TestExpandSkill(t *testing.T) {
	ext := Root{Dir: "/store/x/c1/skills", Source: "extension x", PluginRoot: "/store/x/c1"}
	text := "a ${CLAUDE_SKILL_DIR}/run.sh b ${CLAUDE_PLUGIN_ROOT}/bin c ${CLAUDE_PLUGIN_DATA} $CLAUDE_SKILL_DIR"
	got, note := ext.ExpandSkill("/store/x/c1/skills/deploy/SKILL.md", text)
	want := "a /store/x/c1/skills/deploy/run.sh b /store/x/c1/bin c ${CLAUDE_PLUGIN_DATA} $CLAUDE_SKILL_DIR"
	if got != want || !strings.Contains(note, "extension x") {
		t.Errorf("ExpandSkill = %q, %q; want %q", got, note, want)
	}
	// A value holding a variable is not read again.
	odd := Root{Dir: "/p/skills", Source: "extension y", PluginRoot: "/p/${CLAUDE_SKILL_DIR}"}
	if got, _ := odd.ExpandSkill("/p/skills/s/SKILL.md", "${CLAUDE_PLUGIN_ROOT}"); got != "/p/${CLAUDE_SKILL_DIR}" {
		t.Errorf("inserted value expanded again: %q", got)
	}
	for _, tt := range []struct {
		name string
		root Root
		file string
	}{
		{"the user's skills", Root{Dir: "/home/u/.agents/skills", Source: "user"}, "/home/u/.agents/skills/s/SKILL.md"},
		{"another file of the skill", ext, "/store/x/c1/skills/deploy/reference.md"},
	} {
		if got, note := tt.root.ExpandSkill(tt.file, text); got != text || note != "" {
			t.Errorf("%s rewritten: %q, %q", tt.name, got, note)
		}
	}
	if got, note := ext.ExpandSkill("/store/x/c1/skills/deploy/SKILL.md", "no variables"); got != "no variables" || note != "" {
		t.Errorf("a skill without variables got a note: %q", note)
	}
}
