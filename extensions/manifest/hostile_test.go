package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookManifest is a Codex manifest with one SessionStart command.
func hookManifest(command string) string {
	return `{"name": "x", "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": ` + quoteJSON(command) + `}]}]}}`
}

func TestLoadRejects(t *testing.T) {
	const manifest = ".codex-plugin/plugin.json"
	tests := []struct {
		name  string
		files map[string]string
		setup func(t *testing.T, root, outside string) // symlinks pointing at a folder outside the package
		want  []string                                 // substrings of the error
	}{
		{name: "no manifest", files: map[string]string{"README.md": "x"},
			want: []string{"no plugin manifest (.claude-plugin/plugin.json or .codex-plugin/plugin.json)"}},
		{name: "manifest over 256 KiB",
			files: map[string]string{manifest: `{"name": "x", "pad": "` + strings.Repeat("a", MaxManifestBytes) + `"}`},
			want:  []string{manifest, "larger than 256 KiB"}},
		{name: "invalid JSON", files: map[string]string{manifest: "{\n  \"name\": x\n}"},
			want: []string{manifest, "invalid JSON at line 2, column 11"}},
		{name: "not an object", files: map[string]string{manifest: `["x"]`},
			want: []string{manifest, "must be a JSON object"}},
		{name: "duplicate key", files: map[string]string{manifest: `{"name": "a", "name": "b"}`},
			want: []string{`"name" appears twice`}},
		{name: "missing name", files: map[string]string{manifest: `{"version": "1"}`},
			want: []string{manifest, `missing "name"`}},
		{name: "name not a string", files: map[string]string{manifest: `{"name": 7}`},
			want: []string{`"name" must be a string`}},
		{name: "name with slash", files: map[string]string{manifest: `{"name": "evil/name"}`},
			want: []string{manifest, `invalid name "evil/name"`, `contains '/'`}},
		{name: "name with uppercase", files: map[string]string{manifest: `{"name": "Ponytail"}`},
			want: []string{"must start with a lowercase letter or a digit"}},
		{name: "name too long", files: map[string]string{manifest: `{"name": "` + strings.Repeat("a", 65) + `"}`},
			want: []string{"longer than 64 characters"}},
		{name: "skills path with ..", files: map[string]string{manifest: `{"name": "x", "skills": "../other"}`},
			want: []string{manifest, "skills path ../other contains a '..' component"}},
		{name: "skills list with absolute path", files: map[string]string{manifest: `{"name": "x", "skills": ["skills", "/etc"]}`, "skills/keep": ""},
			want: []string{"/etc is an absolute path"}},
		{name: "skills path missing", files: map[string]string{manifest: `{"name": "x", "skills": "nope"}`},
			want: []string{"skills path nope does not exist in the package"}},
		{name: "skills wrong type", files: map[string]string{manifest: `{"name": "x", "skills": 1}`},
			want: []string{`"skills" must be a path or a list of paths`}},
		{name: "skill folder symlinked outside", files: map[string]string{manifest: `{"name": "x"}`},
			setup: func(t *testing.T, root, outside string) {
				writeTree(t, outside, map[string]string{"s/SKILL.md": skillMD("s", "outside")})
				symlink(t, filepath.Join(outside, "s"), filepath.Join(root, "skills", "s"))
			},
			want: []string{"skill skills/s resolves outside the package"}},
		{name: "hooks path with ..", files: map[string]string{manifest: `{"name": "x", "hooks": "hooks/../../h.json"}`},
			want: []string{"hooks file hooks/../../h.json contains a '..' component"}},
		{name: "hooks absolute path", files: map[string]string{manifest: `{"name": "x", "hooks": "/tmp/h.json"}`},
			want: []string{"/tmp/h.json is an absolute path"}},
		{name: "hooks file symlinked outside", files: map[string]string{manifest: `{"name": "x", "hooks": "./hooks/h.json"}`},
			setup: func(t *testing.T, root, outside string) {
				writeTree(t, outside, map[string]string{"h.json": "{}"})
				symlink(t, filepath.Join(outside, "h.json"), filepath.Join(root, "hooks", "h.json"))
			},
			want: []string{"./hooks/h.json resolves outside the package"}},
		{name: "hooks folder symlinked outside", files: map[string]string{manifest: `{"name": "x", "hooks": "linked/h.json"}`},
			setup: func(t *testing.T, root, outside string) {
				writeTree(t, outside, map[string]string{"h.json": "{}"})
				symlink(t, outside, filepath.Join(root, "linked"))
			},
			want: []string{"linked/h.json resolves outside the package"}},
		{name: "default hooks file symlinked outside", files: map[string]string{manifest: `{"name": "x"}`},
			setup: func(t *testing.T, root, outside string) {
				writeTree(t, outside, map[string]string{"h.json": "{}"})
				symlink(t, filepath.Join(outside, "h.json"), filepath.Join(root, "hooks", "hooks.json"))
			},
			want: []string{"hooks/hooks.json resolves outside the package"}},
		{name: "manifest symlinked outside", files: map[string]string{},
			setup: func(t *testing.T, root, outside string) {
				writeTree(t, outside, map[string]string{"plugin.json": `{"name": "x"}`})
				symlink(t, filepath.Join(outside, "plugin.json"), filepath.Join(root, ".claude-plugin", "plugin.json"))
			},
			want: []string{".claude-plugin/plugin.json resolves outside the package"}},
		{name: "hooks file invalid JSON", files: map[string]string{manifest: `{"name": "x"}`, "hooks/hooks.json": `{"hooks": }`},
			want: []string{"hooks/hooks.json: invalid JSON at line 1, column 11"}},
		{name: "hooks file too big", files: map[string]string{manifest: `{"name": "x"}`, "hooks/hooks.json": strings.Repeat(" ", MaxHooksFileBytes+1)},
			want: []string{"hooks/hooks.json is larger than 1 MiB"}},
		{name: "hooks wrong type", files: map[string]string{manifest: `{"name": "x", "hooks": 5}`},
			want: []string{`"hooks" must be a path, a list of paths or an object`}},
		{name: "script outside the root", files: map[string]string{manifest: hookManifest("node ${CLAUDE_PLUGIN_ROOT}/../x")},
			want: []string{"SessionStart[0].hooks[0]", "command names ${CLAUDE_PLUGIN_ROOT}/../x", "../x contains a '..' component"}},
		{name: "script symlinked outside", files: map[string]string{manifest: hookManifest("node ${CLAUDE_PLUGIN_ROOT}/hooks/x.js")},
			setup: func(t *testing.T, root, outside string) {
				writeTree(t, outside, map[string]string{"x.js": "//"})
				symlink(t, filepath.Join(outside, "x.js"), filepath.Join(root, "hooks", "x.js"))
			},
			want: []string{"hooks/x.js resolves outside the package"}},
		{name: "missing script", files: map[string]string{manifest: hookManifest(`node "${CLAUDE_PLUGIN_ROOT}/hooks/missing.js"; exit 0`)},
			want: []string{"hooks/missing.js does not exist in the package"}},
		{name: "root variable glued to a name", files: map[string]string{manifest: hookManifest("${CLAUDE_PLUGIN_ROOT}x")},
			want: []string{"must be followed by '/'"}},
		{name: "invalid matcher regexp",
			files: map[string]string{manifest: `{"name": "x", "hooks": {"SessionStart": [{"matcher": "(", "hooks": []}]}}`},
			want:  []string{`SessionStart[0]: matcher "(" is not a valid regular expression`}},
		{name: "empty command", files: map[string]string{manifest: hookManifest("  ")},
			want: []string{"SessionStart[0].hooks[0]: command is empty"}},
		{name: "only a comment", files: map[string]string{manifest: hookManifest("# nothing")},
			want: []string{"command is empty"}},
		{name: "unbalanced quote", files: map[string]string{manifest: hookManifest(`node "x.js`)},
			want: []string{"cannot split command", "closing quote"}},
		{name: "negative timeout",
			files: map[string]string{manifest: `{"name": "x", "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "a", "timeout": -1}]}]}}`},
			want:  []string{"timeout -1 must not be negative"}},
		{name: "handler wrong shape",
			files: map[string]string{manifest: `{"name": "x", "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": 1}]}]}}`},
			want:  []string{"SessionStart[0].hooks[0]: command must be a string, not a number"}},
		{name: "matcher wrong type",
			files: map[string]string{manifest: `{"name": "x", "hooks": {"SessionStart": [{"matcher": ["a"], "hooks": []}]}}`},
			want:  []string{"SessionStart: matcher must be a string, not an array"}},
		{name: "event not a list", files: map[string]string{manifest: `{"name": "x", "hooks": {"SessionStart": {}}}`},
			want: []string{"SessionStart: must be a list of {matcher, hooks}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := writeTree(t, filepath.Join(base, "pkg"), tt.files)
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				tt.setup(t, root, filepath.Join(base, "outside"))
			}
			pkg, err := Load(root)
			if err == nil {
				t.Fatalf("Load accepted the package: %+v", pkg)
			}
			t.Log(err)
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestLoadRejectsMissingOrFileRoot(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "absent")); err == nil {
		t.Error("missing root loaded")
	}
	file := writeTree(t, dir, map[string]string{"f": ""})
	if _, err := Load(filepath.Join(file, "f")); err == nil || !strings.Contains(err.Error(), "is not a folder") {
		t.Errorf("file root: %v", err)
	}
}

func TestNameProblemAgreesWithPattern(t *testing.T) {
	for _, name := range []string{"", "a", "0", "a.b_c-d", "-a", ".a", "A", "aé", "a b", "a/b", strings.Repeat("a", 64), strings.Repeat("a", 65)} {
		if (nameProblem(name) == "") != NamePattern.MatchString(name) {
			t.Errorf("nameProblem(%q) = %q, pattern match = %v", name, nameProblem(name), NamePattern.MatchString(name))
		}
	}
}
