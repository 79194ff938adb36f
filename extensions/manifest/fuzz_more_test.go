package manifest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// packageTree is the rest of a package around a fuzzed file.
var packageTree = map[string]string{
	"a.js":                    "//",
	"skills/s/SKILL.md":       skillMD("s", "seed skill"),
	"hooks/run.sh*":           "#!/bin/sh\n",
	"skills/broken/SKILL.md":  "---\nname: [\n---\n",
	"skills/missing/notes.md": "",
	"commands/c.md":           "---\ndescription: c\n---\nrun $ARGUMENTS",
}

// FuzzLoadClaudeManifest loads a package whose .claude-plugin/plugin.json
// is the input (FuzzLoadManifest fuzzes the Codex one).
func FuzzLoadClaudeManifest(f *testing.F) {
	for _, seed := range []string{
		`{"name": "x", "version": "1.0.0", "description": "d", "author": {"name": "a"}, "hooks": "./hooks/hooks.json"}`,
		`{"name": "x", "hooks": ["./hooks/hooks.json", "./hooks/hooks.json"], "commands": ["./commands/c.md", "./a.js"]}`,
		`{"name": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/run.sh", "if": "Bash(git push *)"}]}]}}`,
		`{"name": "x", "userConfig": {"k": {"type": "string", "sensitive": true}}, "skills": "./skills/"}`,
		`{"name": "x", "mcpServers": {}, "commands": {"a": {"source": "./commands/c.md"}}}`, `{"name": "Bad Name"}`, `null`, "\xff",
	} {
		f.Add([]byte(seed))
	}
	tree := withFile(packageTree, "hooks/hooks.json", `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`)
	fuzzPackageFile(f, tree, ".claude-plugin/plugin.json")
}

// FuzzLoadHooksJSON loads a package whose hooks/hooks.json is the input.
func FuzzLoadHooksJSON(f *testing.F) {
	for _, seed := range []string{
		`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`,
		`{"description": "d", "hooks": {"UserPromptSubmit": [{"matcher": "a|b(", "hooks": [{"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/a.js\" || true", "timeout": -1}]}]}}`,
		`{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "a && b", "async": true, "if": "Edit(src/**)"}, {"type": "prompt", "prompt": "x"}]}]}}`,
		`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "shell": "powershell"}]}], "Nope": []}}`,
		`{"SessionStart": []}`, `{"hooks": []}`, `{"hooks": {"PreCompact": [{"hooks": null}]}}`, `{`,
	} {
		f.Add([]byte(seed))
	}
	fuzzPackageFile(f, withFile(packageTree, ".claude-plugin/plugin.json", `{"name": "x"}`), "hooks/hooks.json")
}

// fuzzPackageFile loads a package built from tree with the fuzzed input
// at file: no panic, and a loaded package is valid and its size linear in
// what was read (nothing multiplies).
func fuzzPackageFile(f *testing.F, tree map[string]string, file string) {
	root := writeTree(f, f.TempDir(), tree)
	fixed := 0
	for _, body := range tree {
		fixed += len(body)
	}
	path := filepath.Join(root, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		pkg, err := Load(root)
		if err != nil {
			return
		}
		checkLoaded(t, pkg, len(data)+fixed+len(root))
	})
}

// checkLoaded holds what every loaded package keeps, read from inputBytes
// bytes of files.
func checkLoaded(t *testing.T, pkg *Package, inputBytes int) {
	t.Helper()
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
	encoded, err := json.Marshal(pkg)
	if err != nil {
		t.Fatal(err)
	}
	if limit := 64*inputBytes + 64<<10; len(encoded) > limit {
		t.Fatalf("%d bytes of files loaded as a %d-byte package (limit %d)", inputBytes, len(encoded), limit)
	}
}

func withFile(tree map[string]string, name, body string) map[string]string {
	out := map[string]string{name: body}
	for k, v := range tree {
		out[k] = v
	}
	return out
}

// FuzzCondition compiles a hook's "if" rule and tests it against a
// command line and a path: no panic, and a rule never matches a tool it
// does not name.
func FuzzCondition(f *testing.F) {
	for _, seed := range [][3]string{
		{"Bash(git push *)", "ls && git push origin main", "src/a.go"},
		{"Bash(git push:*)", "git push", ""}, {"Edit(src/**)", "", "src/x/y.go"}, {"Read(./.env)", "", "/p/.env"},
		{"Bash", "a | b; c $(d) `e`", ""}, {"Edit(**/*.{go,md})", "", "../x.md"}, {"Bash(", "", ""}, {"Write([)", "", "["},
		{"run_command(rm -rf *)", "rm -rf / & wait", ""}, {"Bash(if [ x ]; then y; fi)", "if true; then git push; fi", ""},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, rule, command, path string) {
		c, err := CompileCondition(rule)
		if err != nil {
			return
		}
		input, _ := json.Marshal(map[string]string{"command": command, "file_path": path})
		for _, tool := range []string{"Bash", "run_command", "Edit", "Read"} {
			matched := c.Match(tool, tool, input, "/p")
			named, _, _ := strings.Cut(strings.TrimSpace(rule), "(")
			if matched && named != "" && named != tool {
				t.Fatalf("rule %q matched a %s call", rule, tool)
			}
		}
	})
}
