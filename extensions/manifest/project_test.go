package manifest

import (
	"slices"
	"strings"
	"testing"
)

// projectFixture is a repository as Claude Code users commit it.
func projectFixture(t *testing.T) string {
	return writeTree(t, t.TempDir(), map[string]string{
		".claude/settings.json": `{
  "permissions": {"allow": ["Bash(npm test:*)"]},
  "hooks": {
    "SessionStart": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/start.sh"}]}],
    "PostToolUse": [{"matcher": "Edit|Write", "hooks": [
      {"type": "command", "command": "python3 .claude/hooks/fmt.py"},
      {"type": "command", "command": "jq -r .tool_input.file_path | xargs prettier --write"},
      {"type": "command", "command": "python3 .claude/hooks/missing.py"},
      {"type": "command", "command": "uv run .claude/hooks/check.py --fix"}
    ]}],
    "Stop": "not a list"
  }
}`,
		".claude/settings.local.json":    `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/start.sh prompt"}]}]}}`,
		".claude/hooks/start.sh*":        "#!/bin/sh\necho hi\n",
		".claude/hooks/fmt.py":           "print('x')\n",
		".claude/hooks/check.py":         "print(1)\n",
		".claude/commands/review.md":     "---\ndescription: Review the diff\n---\nReview $ARGUMENTS\n",
		".claude/commands/fe/comp.md":    "Make a component $1\n",
		".claude/commands/bad name.md":   "x\n",
		".claude/agents/tester.md":       "---\nname: tester\ndescription: Runs the tests\n---\nYou run tests.\n",
		".claude/skills/deploy/SKILL.md": skillMD("deploy", "Deploys the app"),
		".mcp.json":                      `{"mcpServers": {"db": {"command": "node", "args": ["${CLAUDE_PROJECT_DIR}/tools/db.js"]}, "web": {"type": "http", "url": "https://example.com/mcp"}}}`,
		"tools/db.js":                    "console.log(1)\n",
	})
}

func TestLoadProjectReadsWhatClaudeCodeReads(t *testing.T) {
	root := projectFixture(t)
	pkg, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Manifest.Name != ProjectID || !pkg.Declares() {
		t.Fatalf("manifest %+v", pkg.Manifest)
	}
	var argvs []string
	for _, h := range pkg.Hooks {
		argvs = append(argvs, h.Event+" "+strings.Join(h.Argv, " ")+" inactive="+h.Inactive)
	}
	want := []string{
		"SessionStart $CLAUDE_PROJECT_DIR/.claude/hooks/start.sh inactive=",
		"PostToolUse python3 ${CLAUDE_PROJECT_DIR}/.claude/hooks/fmt.py inactive=",
		"PostToolUse jq -r .tool_input.file_path | xargs prettier --write inactive=" + needsShellReason,
		"PostToolUse uv run .claude/hooks/check.py --fix inactive=",
		"UserPromptSubmit ${CLAUDE_PROJECT_DIR}/.claude/hooks/start.sh prompt inactive=",
	}
	if !slices.Equal(argvs, want) {
		t.Errorf("hooks:\n%s\nwant\n%s", strings.Join(argvs, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range []string{"missing.py", "Stop: must be a list", `"bad name"`} {
		if !hasDiagnostic(pkg, d) {
			t.Errorf("no diagnostic about %s in %q", d, pkg.Diagnostics)
		}
	}
	var stamped []string
	for _, s := range pkg.Stamps {
		stamped = append(stamped, s.Path)
	}
	if !slices.Equal(stamped, []string{".claude/hooks/check.py", ".claude/hooks/fmt.py", ".claude/hooks/start.sh", "tools/db.js"}) {
		t.Errorf("stamps %v", stamped)
	}
	var cmds []string
	for _, c := range pkg.Commands {
		cmds = append(cmds, c.Name)
	}
	slices.Sort(cmds)
	if !slices.Equal(cmds, []string{"fe:comp", "review"}) {
		t.Errorf("commands %v", cmds)
	}
	if len(pkg.Agents) != 1 || pkg.Agents[0].Name != "tester" || len(pkg.Skills) != 1 || pkg.Skills[0].Name != "deploy" {
		t.Errorf("agents %+v skills %+v", pkg.Agents, pkg.Skills)
	}
	if len(pkg.MCPServers) != 2 || pkg.MCPServers[0].Inactive != "" || !slices.Equal(pkg.MCPServers[0].Files, []string{"tools/db.js"}) {
		t.Errorf("servers %+v", pkg.MCPServers)
	}
	if got := MCPToolName(ProjectID, "db", "query"); got != "mcp__db__query" {
		t.Errorf("tool name %s", got)
	}
}

func TestLoadProjectEmptyFolderDeclaresNothing(t *testing.T) {
	pkg, err := LoadProject(writeTree(t, t.TempDir(), map[string]string{"README.md": "hi", ".claude/settings.json": `{"permissions": {}}`}))
	if err != nil || pkg.Declares() || len(pkg.Diagnostics) > 0 {
		t.Fatalf("%v %+v", err, pkg)
	}
}

func TestProjectIsNoPluginName(t *testing.T) {
	if nameProblem(ProjectID) == "" {
		t.Fatal("a plugin may not be called project")
	}
}
