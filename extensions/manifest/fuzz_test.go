package manifest

import (
	"os"
	"path/filepath"
	"strings"
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
		checkLoaded(t, pkg, len(data)+len(root)+1024) // the rest of the tree is under 1 KiB
	})
}

// FuzzCommandFile loads a package whose one command file is the input:
// never a failed install, and a loaded command has a body and expands
// without running or losing anything inline shell names.
func FuzzCommandFile(f *testing.F) {
	for _, seed := range []string{
		"---\ndescription: Review\nargument-hint: [pr] [n]\nallowed-tools: [Read, Bash]\nmodel: x\n---\nPR $1 $ARGUMENTS !`git status`\n",
		"---\ndescription: Use when: odd\n---\nbody", "---\n---\n", "---\nunclosed", "\uFEFF---\r\ndescription: bom\r\n---\r\n$9 ${CLAUDE_PLUGIN_ROOT}",
		"no front matter !`a` !`b`", "---\nargument-hint: {a: 1}\nallowed-tools: 3\n---\nx",
	} {
		f.Add([]byte(seed), `a "b c" d`)
	}
	root := writeTree(f, f.TempDir(), map[string]string{".claude-plugin/plugin.json": `{"name": "x"}`})
	file := filepath.Join(root, "commands", "c.md")
	f.Fuzz(func(t *testing.T, data []byte, args string) {
		writeTree(t, root, map[string]string{"commands/c.md": string(data)})
		pkg, err := Load(root)
		if err != nil {
			t.Fatalf("a command file failed the install: %v", err)
		}
		for _, c := range pkg.Commands {
			if c.Body == "" {
				t.Fatalf("command with an empty body from %q", data)
			}
			prompt, notRun := c.Expand(args, Vars{PluginRoot: root})
			// One substitution per reference, never expanded again.
			if limit := (len(data) + 1) * (len(args) + len(root) + 16); len(prompt) > limit {
				t.Fatalf("a %d-byte command with %d bytes of arguments expanded to %d bytes", len(data), len(args), len(prompt))
			}
			for _, cmd := range notRun {
				if !strings.Contains(prompt, "(not run: ") || !strings.Contains(args, "!`") && strings.Contains(prompt, "!`"+cmd+"`") {
					t.Fatalf("inline shell %q left runnable in %q", cmd, prompt)
				}
			}
		}
		os.Remove(file)
	})
}
