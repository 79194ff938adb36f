package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzLoadManifest(f *testing.F) {
	for _, seed := range []string{
		`{"name": "ponytail", "skills": "./skills/", "hooks": "./hooks/hooks.json"}`,
		`{"name": "x", "hooks": {"SessionStart": [{"matcher": "a|b", "hooks": [{"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/a.js\"; exit 0"}]}]}}`,
		`{"name": "x", "hooks": {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "a", "args": ["$X"], "timeout": 1e300}]}]}}}`,
		`{"name": "x", "author": {"name": 1}, "skills": ["../a", "/b"], "interface": []}`,
		`{"name": "x", "hooks": {}}`, `{"name": "x", "hooks": "hooks/../x"}`, `[]`, `{`, `{"name": null}`,
	} {
		f.Add([]byte(seed))
	}
	root := writeTree(f, f.TempDir(), map[string]string{
		"a.js":                    "//",
		"skills/s/SKILL.md":       skillMD("s", "seed skill"),
		"hooks/hooks.json":        `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`,
		".codex-plugin/.keep":     "",
		"hooks/run.sh*":           "#!/bin/sh\n",
		"skills/broken/SKILL.md":  "---\nname: [\n---\n",
		"skills/missing/notes.md": "",
	})
	manifest := filepath.Join(root, ".codex-plugin", "plugin.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(manifest, data, 0o644); err != nil {
			t.Fatal(err)
		}
		pkg, err := Load(root)
		if err != nil {
			return
		}
		if !NamePattern.MatchString(pkg.Manifest.Name) {
			t.Fatalf("accepted invalid name %q", pkg.Manifest.Name)
		}
		for _, h := range pkg.Hooks {
			if len(h.Argv) == 0 {
				t.Fatalf("hook without argv: %+v", h)
			}
			if _, err := CompileMatcher(h.Matcher); err != nil {
				t.Fatalf("accepted invalid matcher: %v", err)
			}
		}
	})
}
