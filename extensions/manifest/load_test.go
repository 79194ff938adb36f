package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/skills"
)

func realDir(t *testing.T, dir string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func skillNames(list []skills.Skill) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

// ponytailTree is shaped like Ponytail v4.8.4 (manifest fields, hook file
// name, "; exit 0" suffixes, non-executable .js scripts run by node) with
// our own placeholder content.
func ponytailTree(t *testing.T) string {
	const hook = `{"type": "command",
	  "command": "node \"${CLAUDE_PLUGIN_ROOT}/hooks/%s.js\"; exit 0",
	  "commandWindows": "if (Get-Command node) { node \"$env:CLAUDE_PLUGIN_ROOT\\hooks\\%s.js\" }",
	  "timeout": 5, "statusMessage": "Loading ponytail mode..."}`
	h := func(name string) string { return strings.ReplaceAll(hook, "%s", name) }
	return writeTree(t, t.TempDir(), map[string]string{
		".codex-plugin/plugin.json": `{
  "name": "ponytail", "version": "4.8.4",
  "description": "Minimal solutions mode.",
  "author": {"name": "Example Author", "url": "https://example.invalid/author"},
  "homepage": "https://example.invalid/ponytail",
  "repository": "https://example.invalid/ponytail.git",
  "license": "MIT", "keywords": ["yagni", "minimalism"],
  "skills": "./skills/",
  "hooks": "./hooks/claude-codex-hooks.json",
  "interface": {"displayName": "Ponytail", "shortDescription": "Lazy senior developer mode", "brandColor": "#111111"}
}`,
		".claude-plugin/plugin.json": `{"name": "ponytail", "version": "4.8.4", "description": "Minimal solutions mode.",
  "author": {"name": "Example Author", "url": "https://example.invalid/author"}, "hooks": "./hooks/claude-codex-hooks.json"}`,
		"hooks/claude-codex-hooks.json": `{"hooks": {
  "SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [` + h("ponytail-activate") + `]}],
  "SubagentStart": [{"hooks": [` + h("ponytail-subagent") + `]}],
  "UserPromptSubmit": [{"hooks": [` + h("ponytail-mode-tracker") + `]}]
}}`,
		"hooks/ponytail-activate.js":      "console.log('activate placeholder');\n",
		"hooks/ponytail-subagent.js":      "console.log('subagent placeholder');\n",
		"hooks/ponytail-mode-tracker.js":  "console.log('tracker placeholder');\n",
		"skills/ponytail/SKILL.md":        "---\nname: ponytail\ndescription: >\n  Prefer the simplest\n  working solution.\nlicense: MIT\n---\n# Ponytail\n",
		"skills/ponytail-review/SKILL.md": skillMD("ponytail-review", "Review for over-engineering."),
	})
}

func TestLoadPonytailShape(t *testing.T) {
	root := ponytailTree(t)
	pkg := mustLoad(t, root)

	m := pkg.Manifest
	// Both manifests, as Ponytail ships them: the Claude one decides, the
	// Codex one fills in what it lacks.
	if m.Name != "ponytail" || m.Version != "4.8.4" || m.Path != ".claude-plugin/plugin.json" ||
		m.DisplayName != "Ponytail" || m.ShortDescription != "Lazy senior developer mode" ||
		m.Author != (Author{Name: "Example Author", URL: "https://example.invalid/author"}) ||
		m.License != "MIT" || !slices.Equal(m.Keywords, []string{"yagni", "minimalism"}) ||
		m.Repository != "https://example.invalid/ponytail.git" {
		t.Errorf("manifest = %+v", m)
	}
	if want := []string{"read .claude-plugin/plugin.json; .codex-plugin/plugin.json supplied homepage, interface, keywords, license, repository, skills"}; !slices.Equal(pkg.Diagnostics, want) {
		t.Errorf("diagnostics = %q, want %q", pkg.Diagnostics, want)
	}
	wantEvents := []string{EventSessionStart, EventSubagentStart, EventUserPromptSubmit}
	if len(pkg.Hooks) != 3 {
		t.Fatalf("hooks = %+v", pkg.Hooks)
	}
	scripts := []string{"ponytail-activate", "ponytail-subagent", "ponytail-mode-tracker"}
	for i, h := range pkg.Hooks {
		wantArgv := []string{"node", "${CLAUDE_PLUGIN_ROOT}/hooks/" + scripts[i] + ".js"}
		if h.Event != wantEvents[i] || !slices.Equal(h.Argv, wantArgv) || !h.IgnoreExit ||
			h.Timeout != 5 || h.Inactive != "" || h.StatusMessage != "Loading ponytail mode..." ||
			!slices.Equal(h.Files, []string{"hooks/" + scripts[i] + ".js"}) {
			t.Errorf("hook %d = %+v", i, h)
		}
		if !strings.HasPrefix(h.CommandWindows, "if (Get-Command node)") {
			t.Errorf("hook %d: commandWindows not recorded: %q", i, h.CommandWindows)
		}
	}
	if pkg.Hooks[0].Matcher != "startup|resume|clear|compact" || pkg.Hooks[1].Matcher != "" {
		t.Errorf("matchers = %q, %q", pkg.Hooks[0].Matcher, pkg.Hooks[1].Matcher)
	}
	if len(pkg.Stamps) != 3 || pkg.Stamps[0].Path != "hooks/ponytail-activate.js" {
		t.Fatalf("stamps = %+v", pkg.Stamps)
	}
	activate := []byte("console.log('activate placeholder');\n")
	sum := sha256.Sum256(activate)
	if pkg.Stamps[0].SHA256 != hex.EncodeToString(sum[:]) || pkg.Stamps[0].Size != int64(len(activate)) {
		t.Errorf("stamp = %+v", pkg.Stamps[0])
	}
	if err := CheckStamps(root, pkg.Stamps); err != nil {
		t.Errorf("fresh stamps: %v", err)
	}
	skillsRoot := filepath.Join(realDir(t, root), "skills")
	if !slices.Equal(skillNames(pkg.Skills), []string{"ponytail", "ponytail-review"}) ||
		!slices.Equal(pkg.SkillRoots, []string{skillsRoot}) ||
		pkg.Skills[0].Dir != filepath.Join(skillsRoot, "ponytail") ||
		pkg.Skills[0].Description != "Prefer the simplest working solution." || pkg.Skills[0].Source != "" {
		t.Errorf("skills = %+v, roots = %q", pkg.Skills, pkg.SkillRoots)
	}
}

func TestLoadCodexLayoutWithDefaults(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".codex-plugin/plugin.json": `{"name": "codex-demo", "version": "1.0.0", "author": "Ann",
			"description": "` + strings.Repeat("d", MaxDescriptionBytes+10) + `"}`,
		"hooks/hooks.json": `{"hooks": {
			"SessionStart": [{"matcher": "startup", "hooks": [
				{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/start.sh", "timeout": 2.5}]}],
			"UserPromptSubmit": [{"hooks": [
				{"type": "command", "command": "python3", "args": ["${PLUGIN_ROOT}/hooks/prompt.py", "--data", "${PLUGIN_DATA}", "a b"]}]}]}}`,
		"hooks/start.sh*":      "#!/bin/sh\necho started\n",
		"hooks/prompt.py":      "print('prompt')\n",
		"skills/lint/SKILL.md": skillMD("lint", "Lint the code."),
	})
	pkg := mustLoad(t, root)
	if pkg.Manifest.Author.Name != "Ann" || len(pkg.Manifest.Description) != MaxDescriptionBytes ||
		!strings.HasSuffix(pkg.Manifest.Description, "…") {
		t.Errorf("manifest = %+v", pkg.Manifest)
	}
	if len(pkg.Hooks) != 2 {
		t.Fatalf("hooks = %+v", pkg.Hooks)
	}
	start, prompt := pkg.Hooks[0], pkg.Hooks[1]
	if !slices.Equal(start.Argv, []string{"${CLAUDE_PLUGIN_ROOT}/hooks/start.sh"}) || start.Timeout != 3 ||
		start.Inactive != "" || start.IgnoreExit || !slices.Equal(start.Files, []string{"hooks/start.sh"}) {
		t.Errorf("start hook = %+v", start)
	}
	wantArgv := []string{"python3", "${PLUGIN_ROOT}/hooks/prompt.py", "--data", "${PLUGIN_DATA}", "a b"}
	if !slices.Equal(prompt.Argv, wantArgv) || prompt.Inactive != "" || !slices.Equal(prompt.Files, []string{"hooks/prompt.py"}) {
		t.Errorf("prompt hook = %+v", prompt)
	}
	if len(pkg.Stamps) != 2 || !slices.Equal(skillNames(pkg.Skills), []string{"lint"}) {
		t.Errorf("stamps = %+v, skills = %+v", pkg.Stamps, pkg.Skills)
	}
}

func TestLoadClaudeLayoutInlineHooks(t *testing.T) {
	const subagent = `[{"matcher": "ralph", "hooks": [{"type": "command", "command": "node ${CLAUDE_PLUGIN_ROOT}/sub.js || true"}]}]`
	tests := []struct{ name, hooks string }{
		{"bare map", `{"SubagentStart": ` + subagent + `}`},
		{"wrapped", `{"description": "x", "hooks": {"SubagentStart": ` + subagent + `}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, t.TempDir(), map[string]string{
				".claude-plugin/plugin.json": `{"name": "claude-demo",
					"author": {"name": "B", "email": "b@example.invalid", "url": "https://example.invalid"},
					"hooks": ` + tt.hooks + `}`,
				"sub.js":           "//\n",
				"hooks/hooks.json": `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "never"}]}]}}`,
			})
			pkg := mustLoad(t, root)
			if pkg.Manifest.Path != ".claude-plugin/plugin.json" ||
				pkg.Manifest.Author != (Author{"B", "b@example.invalid", "https://example.invalid"}) {
				t.Errorf("manifest = %+v", pkg.Manifest)
			}
			// Claude Code loads hooks/hooks.json and adds the manifest's.
			if len(pkg.Hooks) != 2 || pkg.Hooks[0].Event != EventSessionStart {
				t.Fatalf("hooks = %+v (hooks/hooks.json first, then the inline hooks)", pkg.Hooks)
			}
			h := pkg.Hooks[1]
			if h.Event != EventSubagentStart || h.Matcher != "ralph" || !h.IgnoreExit ||
				!slices.Equal(h.Argv, []string{"node", "${CLAUDE_PLUGIN_ROOT}/sub.js"}) {
				t.Errorf("hook = %+v", h)
			}
		})
	}
}

func TestLoadSkillsOnly(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "only-skills", "skills": ["extra/one", "more", "more/"]}`,
		"extra/one/SKILL.md":         skillMD("one", "A single skill folder."),
		"more/a/SKILL.md":            skillMD("a", "First of several."),
		"more/dup/SKILL.md":          skillMD("one", "Same name again."),
		"more/b/notes.txt":           "no skill here",
		"skills/ignored/SKILL.md":    skillMD("ignored", "Not read: the manifest lists its own skills."),
	})
	pkg := mustLoad(t, root)
	real := realDir(t, root)
	if !slices.Equal(skillNames(pkg.Skills), []string{"one", "a"}) ||
		!slices.Equal(pkg.SkillRoots, []string{filepath.Join(real, "extra", "one"), filepath.Join(real, "more")}) {
		t.Errorf("skills = %v, roots = %q", skillNames(pkg.Skills), pkg.SkillRoots)
	}
	if len(pkg.Hooks) != 0 || len(pkg.Stamps) != 0 {
		t.Errorf("hooks = %+v", pkg.Hooks)
	}
	if !hasDiagnostic(pkg, "skipped more/b: no SKILL.md") || !hasDiagnostic(pkg, `skill "one" is defined twice`) {
		t.Errorf("diagnostics = %q", pkg.Diagnostics)
	}
}

func TestLoadEmptyHooksObjectDoesNotFallBack(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".codex-plugin/plugin.json": `{"name": "quiet", "hooks": {}}`,
		"hooks/hooks.json":          `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`,
	})
	if pkg := mustLoad(t, root); len(pkg.Hooks) != 0 {
		t.Fatalf("hooks = %+v, want none", pkg.Hooks)
	}
}

func TestLoadUnsupportedCapabilities(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".codex-plugin/plugin.json": `{"name": "busy",
			"mcpServers": {"x": {"command": "srv"}}, "agents": ["a.md"],
			"apps": {}, "lspServers": {"go": {}}, "version": 3,
			"hooks": {"hooks": {
				"CwdChanged": [{"hooks": [{"type": "command", "command": "notify"}]}],
				"SessionStart": [{"hooks": [
					{"type": "prompt", "prompt": "be nice"},
					{"command": "untyped"},
					{"type": "command", "command": "echo start"}]}]}}}`,
	})
	pkg := mustLoad(t, root)
	for _, want := range []string{
		"skipped agents path a.md: it does not exist",
		"declares apps: not supported, ignored",
		"declares CwdChanged hooks: not supported, ignored",
		`declares a "prompt" hook for SessionStart: not supported, ignored`,
		`ignored "version": not a string`,
		`declares a SessionStart hook without "type": not supported, ignored`,
	} {
		if !hasDiagnostic(pkg, want) {
			t.Errorf("missing diagnostic %q in %q", want, pkg.Diagnostics)
		}
	}
	if len(pkg.Hooks) != 1 || !slices.Equal(pkg.Hooks[0].Argv, []string{"echo", "start"}) {
		t.Errorf("hooks = %+v, want only the SessionStart command", pkg.Hooks)
	}
	if len(pkg.MCPServers) != 1 || pkg.MCPServers[0].Name != "x" || hasDiagnostic(pkg, "declares mcpServers") {
		t.Errorf("MCP servers = %+v, diagnostics %q: want server x, declared and not reported as unsupported", pkg.MCPServers, pkg.Diagnostics)
	}
	if len(pkg.LSPServers) != 1 || pkg.LSPServers[0].Inactive == "" || hasDiagnostic(pkg, "declares lspServers") {
		t.Errorf("LSP servers = %+v, diagnostics %q: want server go, inactive (no command), not reported as unsupported", pkg.LSPServers, pkg.Diagnostics)
	}
}

func TestLoadInactiveHooks(t *testing.T) {
	elf := "\x7fELF\x02\x01\x01binary"
	tests := []struct {
		name, command string
		files         map[string]string
		wantInactive  string // "" = active
		extra         string // more handler fields, e.g. `, "shell": "powershell"`
	}{
		{"needs a shell", `node a.js && node b.js`, nil, needsShellReason, ""},
		{"non-executable program", `${CLAUDE_PLUGIN_ROOT}/hooks/x.cmd`, map[string]string{"hooks/x.cmd": "@echo off\n"},
			"hooks/x.cmd is not executable on this system", ""},
		{"program is a folder", `${CLAUDE_PLUGIN_ROOT}/hooks`, map[string]string{"hooks/keep": ""},
			"hooks is not executable on this system", ""},
		{"shebang script", `${CLAUDE_PLUGIN_ROOT}/hooks/run.sh --flag`, map[string]string{"hooks/run.sh*": "#!/bin/sh\n"}, "", ""},
		{"native binary", `$CLAUDE_PLUGIN_ROOT/bin/tool`, map[string]string{"bin/tool*": elf}, "", ""},
		{"non-executable script as argument", `node ${AGENTDESK_PLUGIN_ROOT}/x.js`, map[string]string{"x.js": "//"}, "", ""},
		{"declared PowerShell", `Write-Output hi`, nil, powerShellReason, `, "shell": "powershell"`},
		{"declared bash is the default", `node ${CLAUDE_PLUGIN_ROOT}/x.js`, map[string]string{"x.js": "//"}, "", `, "shell": "bash"`},
		{"unknown shell", `node x.js`, nil, `shell "fish" is not one AgentDesk knows`, `, "shell": "fish"`},
		{"a Windows variant is recorded, not run", `node ${CLAUDE_PLUGIN_ROOT}/x.js`, map[string]string{"x.js": "//"}, "",
			`, "commandWindows": "if (Get-Command node) { node x.js }"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{".codex-plugin/plugin.json": `{"name": "x", "hooks": {"SessionStart": [{"hooks": [
				{"type": "command", "command": ` + quoteJSON(tt.command) + tt.extra + `}]}]}}`}
			for k, v := range tt.files {
				files[k] = v
			}
			pkg := mustLoad(t, writeTree(t, t.TempDir(), files))
			if len(pkg.Hooks) != 1 {
				t.Fatalf("hooks = %+v", pkg.Hooks)
			}
			got := pkg.Hooks[0].Inactive
			if tt.wantInactive == "" && got != "" || !strings.Contains(got, tt.wantInactive) {
				t.Fatalf("Inactive = %q, want %q", got, tt.wantInactive)
			}
			if tt.wantInactive != "" && !hasDiagnostic(pkg, "is inactive: "+tt.wantInactive) {
				t.Errorf("diagnostics = %q", pkg.Diagnostics)
			}
		})
	}
}

func TestLoadSymlinkedScriptInsideRoot(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".codex-plugin/plugin.json": `{"name": "x", "hooks": {"SessionStart": [{"hooks": [
			{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/run"}]}]}}`,
		"libexec/run.sh*": "#!/bin/sh\n",
	})
	symlink(t, "../libexec/run.sh", filepath.Join(root, "bin", "run"))
	pkg := mustLoad(t, root)
	if h := pkg.Hooks[0]; h.Inactive != "" || !slices.Equal(h.Files, []string{"bin/run"}) {
		t.Fatalf("hook = %+v", h)
	}
}

func TestLoadReportsUnknownVariables(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".codex-plugin/plugin.json": `{"name": "x", "hooks": {"UserPromptSubmit": [{"hooks": [
			{"type": "command", "command": "node ${CLAUDE_PLUGIN_ROOT}/x.js --home $HOME --p ${FOO}/y ${CLAUDE_PROJECT_DIR}"}]}]}}`,
		"x.js": "//",
	})
	pkg := mustLoad(t, root)
	want := []string{"node", "${CLAUDE_PLUGIN_ROOT}/x.js", "--home", "$HOME", "--p", "${FOO}/y", "${CLAUDE_PROJECT_DIR}"}
	if !slices.Equal(pkg.Hooks[0].Argv, want) {
		t.Errorf("argv = %q", pkg.Hooks[0].Argv)
	}
	if len(pkg.Diagnostics) != 2 || !hasDiagnostic(pkg, "$HOME is not a variable AgentDesk sets") ||
		!hasDiagnostic(pkg, "${FOO} is not a variable AgentDesk sets") {
		t.Errorf("diagnostics = %q", pkg.Diagnostics)
	}
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

func TestLoadHooksDefaultPlusManifestDeduplicated(t *testing.T) {
	hooksJSON := `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/start.sh"}]}]}}`
	for name, tt := range map[string]struct {
		files map[string]string
		want  int
	}{
		"the manifest names the default file again": {map[string]string{
			".claude-plugin/plugin.json": `{"name": "p", "hooks": "./hooks/hooks.json"}`, "hooks/hooks.json": hooksJSON}, 1},
		"a list of files, one repeating the default's hook": {map[string]string{
			".claude-plugin/plugin.json": `{"name": "p", "hooks": ["./hooks/extra.json", "./hooks/same.json"]}`,
			"hooks/hooks.json":           hooksJSON, "hooks/same.json": hooksJSON,
			"hooks/extra.json": `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/start.sh"}]}]}`}, 2},
		"codex-only: an empty hooks object means none": {map[string]string{
			".codex-plugin/plugin.json": `{"name": "p", "hooks": {}}`, "hooks/hooks.json": hooksJSON}, 0},
		"both manifests: an empty codex hooks hides nothing": {map[string]string{
			".claude-plugin/plugin.json": `{"name": "p"}`, ".codex-plugin/plugin.json": `{"name": "p", "hooks": {}}`, "hooks/hooks.json": hooksJSON}, 1},
		"both manifests: a broken codex hooks path is ignored": {map[string]string{
			".claude-plugin/plugin.json": `{"name": "p"}`, ".codex-plugin/plugin.json": `{"name": "p", "hooks": "./missing.json"}`, "hooks/hooks.json": hooksJSON}, 1},
	} {
		t.Run(name, func(t *testing.T) {
			tt.files["start.sh"] = "#!/bin/sh\necho hi\n"
			root := writeTree(t, t.TempDir(), tt.files)
			os.Chmod(filepath.Join(root, "start.sh"), 0o755)
			if pkg := mustLoad(t, root); len(pkg.Hooks) != tt.want {
				t.Fatalf("hooks = %+v, want %d", pkg.Hooks, tt.want)
			}
		})
	}
}

// A script without #! runs as /bin/sh SCRIPT ARGS…, as execvp runs it:
// obra/superpowers' polyglot run-hook.cmd is invoked that way.
func TestLoadShebanglessScriptRunsThroughBinSh(t *testing.T) {
	polyglot := ": << 'CMDBLOCK'\n@echo off\nCMDBLOCK\nexec \"$@\"\n"
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "x"}`,
		"hooks/hooks.json": `{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [
			{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/hooks/run-hook.cmd\" session-start"}]}]}}`,
		"hooks/run-hook.cmd*": polyglot,
	})
	pkg := mustLoad(t, root)
	h := pkg.Hooks[0]
	want := []string{"/bin/sh", "${CLAUDE_PLUGIN_ROOT}/hooks/run-hook.cmd", "session-start"}
	if h.Inactive != "" || !slices.Equal(h.Argv, want) || !slices.Equal(h.Files, []string{"hooks/run-hook.cmd"}) {
		t.Fatalf("hook = %+v, want argv %q, active, the script stamped", h, want)
	}
}

func TestExpandArgvDefaults(t *testing.T) {
	v := Vars{PluginRoot: "/store/x/abc", ProjectDir: ""}
	got := ExpandArgv([]string{"${CLAUDE_PLUGIN_ROOT:-.}/run.sh", "${CLAUDE_PROJECT_DIR:-/tmp}", "${HOME:-/h}", "$PLUGIN_ROOT", "${weird name}"}, v)
	want := []string{"/store/x/abc/run.sh", "/tmp", "${HOME:-/h}", "/store/x/abc", "${weird name}"}
	if !slices.Equal(got, want) {
		t.Fatalf("ExpandArgv = %q, want %q", got, want)
	}
	if rel, ok, err := packagePath("${CLAUDE_PLUGIN_ROOT:-.}/hooks/x.sh"); !ok || err != nil || rel != "hooks/x.sh" {
		t.Fatalf("packagePath of a defaulted root = %q %v %v", rel, ok, err)
	}
}

func TestLoadSkillsNamedBySkillFile(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "x", "skills": ["./skills/one/SKILL.md", "./more"]}`,
		"skills/one/SKILL.md":        skillMD("one", "First."),
		"more/two/SKILL.md":          "---\nname: two\ndescription: Use when: the colon is text\n---\n",
	})
	pkg := mustLoad(t, root)
	var names []string
	for _, s := range pkg.Skills {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"one", "two"}) {
		t.Fatalf("skills = %q (diagnostics %q)", names, pkg.Diagnostics)
	}
}

func TestLoadSkipsASkillsPathThatIsNoSkill(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{".claude-plugin/plugin.json": `{"name": "x", "skills": "f"}`, "f": ""})
	if pkg := mustLoad(t, root); len(pkg.Skills) != 0 || !hasDiagnostic(pkg, "skipped skills path f: neither a folder nor a SKILL.md") {
		t.Fatalf("skills %v, diagnostics %q", pkg.Skills, pkg.Diagnostics)
	}
}

func TestLoadReportsConventionFoldersOnlyWithWhatClaudeCodeLoads(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "x"}`,
		"commands/review.toml":       "# a Gemini CLI command",
		"agents/helper.md":           "---\nname: helper\n---\n",
		".mcp.json":                  `{"mcpServers": {"db": {"command": "srv"}, "web": {"url": "https://x"}}}`,
	})
	pkg := mustLoad(t, root)
	if hasDiagnostic(pkg, "declares commands") || hasDiagnostic(pkg, "commands path") {
		t.Errorf("Gemini .toml commands reported as Claude commands: %q", pkg.Diagnostics)
	}
	if want := "skipped agent agents/helper.md: its front matter has no description"; !hasDiagnostic(pkg, want) {
		t.Errorf("missing %q in %q", want, pkg.Diagnostics)
	}
	if len(pkg.MCPServers) != 2 || pkg.MCPServers[0].Type != MCPStdio || pkg.MCPServers[1].Type != MCPHTTP {
		t.Errorf(".mcp.json servers = %+v, want db (stdio) and web (http)", pkg.MCPServers)
	}
}
