package skills

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func writeSkillFile(t *testing.T, root, name, desc string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func descriptions(c Catalog) map[string]string {
	out := map[string]string{}
	for _, s := range c.Skills {
		out[s.Name] = s.Description
	}
	return out
}

// A root with a Version (an installed extension's folder) is listed once
// per Version; the user's and the project's roots are listed each time,
// a SKILL.md parsed again only when its size or time changed.
func TestCacheReadsOnlyWhatMayHaveChanged(t *testing.T) {
	ext, user := t.TempDir(), t.TempDir()
	writeSkillFile(t, ext, "deploy", "Ship it")
	own := writeSkillFile(t, user, "notes", "Take notes")
	var c Cache
	roots := []Root{{Dir: user, Source: "user"}, {Dir: ext, Source: "extension x", PluginRoot: ext, Version: "x c1 h 1"}}
	first := c.Build(roots)
	if got := descriptions(first); got["deploy"] != "Ship it" || got["notes"] != "Take notes" || first.Skills[0].Source != "extension x" {
		t.Fatalf("first build: %+v", first.Skills)
	}

	writeSkillFile(t, ext, "lint", "Lint it")       // the store folder changed under the same record
	writeSkillFile(t, user, "todo", "Track to-dos") // the user added a skill
	if got := descriptions(c.Build(roots)); got["lint"] != "" || got["todo"] != "Track to-dos" {
		t.Errorf("same Version: want the extension's list kept and the user's new skill seen, got %v", got)
	}
	roots[1].Version = "x c1 h 2" // a re-stamp
	if got := descriptions(c.Build(roots)); got["lint"] != "Lint it" {
		t.Errorf("new Version: want the folder listed again, got %v", got)
	}

	// Same size and time: not parsed again. Another size: parsed again.
	info, err := os.Stat(own)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(own, []byte("---\nname: notes\ndescription: Take NOTES\n---\nBody.\n"), 0o644)
	os.Chtimes(own, time.Time{}, info.ModTime())
	if got := descriptions(c.Build(roots)); got["notes"] != "Take notes" {
		t.Errorf("unchanged size and time: want the parsed skill kept, got %q", got["notes"])
	}
	os.WriteFile(own, []byte("---\nname: notes\ndescription: Take notes well\n---\nBody.\n"), 0o644)
	if got := descriptions(c.Build(roots)); got["notes"] != "Take notes well" {
		t.Errorf("changed file: want it parsed again, got %q", got["notes"])
	}
	if plain := descriptions(Build(roots)); plain["notes"] != "Take notes well" || plain["lint"] != "Lint it" {
		t.Errorf("Build without a cache: %v", plain)
	}
}
