package manifest

import (
	"slices"
	"testing"
)

// The shapes below are those of real plugins: feature-dev's comma string
// of tools with tools AgentDesk lacks, wshobson/agents' list form and
// unknown model words, a file with no front matter at all.
func TestLoadAgents(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "x", "agents": ["./extra/planner.md", "more"]}`,
		"agents/code-explorer.md": "---\nname: code-explorer\ndescription: Deeply analyzes existing codebase features by tracing execution paths\n" +
			"tools: Glob, Grep, LS, Read, NotebookRead, WebFetch, TodoWrite, WebSearch, KillShell, BashOutput\nmodel: sonnet\ncolor: yellow\n---\n\n" +
			"You are an expert code analyst. Scripts are in ${CLAUDE_PLUGIN_ROOT}/scripts.\n",
		"agents/team/debugger.md": "---\nname: team-debugger\ndescription: \"Debugs: one hypothesis at a time\"\n" +
			"tools:\n  - Read\n  - Bash\n  - Read\ndisallowedTools: Write\nmodel: gpt-legendary\nmaxTurns: 7\nskills: [parallel-debugging]\nunknownKey: ignored\n---\nInvestigate.\n",
		"agents/inherit.md":     "---\ndescription: Use when: anything\nmodel: inherit\n---\nHelp.\n",
		"agents/bare.md":        "You are a helpful agent with no front matter.\n",
		"agents/nodesc.md":      "---\nname: nodesc\ntools: Read\n---\nBody.\n",
		"agents/empty.md":       "---\ndescription: empty body\n---\n",
		"agents/notes.txt":      "not an agent",
		"extra/planner.md":      "---\ndescription: Plans\n---\nPlan for ${CLAUDE_PROJECT_DIR} with $ARGUMENTS kept.\n",
		"more/code-explorer.md": "---\nname: code-explorer\ndescription: a second one\n---\nSecond.\n",
	})
	pkg := mustLoad(t, root)
	var names []string
	for _, a := range pkg.Agents {
		names = append(names, a.Name)
	}
	if want := []string{"code-explorer", "inherit", "team-debugger", "planner"}; !slices.Equal(names, want) {
		t.Fatalf("agents %q, want %q; diagnostics %q", names, want, pkg.Diagnostics)
	}
	explorer := pkg.Agents[0]
	if want := []string{"Glob", "Grep", "LS", "Read", "NotebookRead", "WebFetch", "TodoWrite", "WebSearch", "KillShell", "BashOutput"}; !slices.Equal(explorer.Tools, want) {
		t.Errorf("comma tools = %q", explorer.Tools)
	}
	if explorer.Model != "sonnet" || explorer.Color != "yellow" || explorer.Path != "agents/code-explorer.md" {
		t.Errorf("explorer = %+v", explorer)
	}
	if got := explorer.Prompt(Vars{PluginRoot: "/store/x"}); got != "You are an expert code analyst. Scripts are in /store/x/scripts." {
		t.Errorf("prompt = %q", got)
	}
	debugger := pkg.Agents[2]
	if !slices.Equal(debugger.Tools, []string{"Read", "Bash"}) || !slices.Equal(debugger.DisallowedTools, []string{"Write"}) ||
		debugger.Model != "gpt-legendary" || debugger.MaxTurns != 7 || !slices.Equal(debugger.Skills, []string{"parallel-debugging"}) ||
		debugger.Description != "Debugs: one hypothesis at a time" {
		t.Errorf("list tools = %+v", debugger)
	}
	inherit := pkg.Agents[1]
	if inherit.Tools != nil || inherit.Model != "inherit" || inherit.Description != "Use when: anything" {
		t.Errorf("no tools (all), plain header = %+v", inherit)
	}
	if got := pkg.Agents[3].Prompt(Vars{ProjectDir: "/p"}); got != "Plan for /p with $ARGUMENTS kept." {
		t.Errorf("planner prompt = %q", got)
	}
	for _, want := range []string{
		"skipped agent agents/bare.md: it has no front matter",
		"skipped agent agents/nodesc.md: its front matter has no description",
		"skipped agent agents/empty.md: its body (the agent's instructions) is empty",
		"agent code-explorer is defined twice (agents/code-explorer.md and more/code-explorer.md); using the first",
		`agent team-debugger asks for model "gpt-legendary", which AgentDesk does not map: it runs on the session's model`,
	} {
		if !hasDiagnostic(pkg, want) {
			t.Errorf("missing diagnostic %q in %q", want, pkg.Diagnostics)
		}
	}
	if hasDiagnostic(pkg, "declares agents") || hasDiagnostic(pkg, "agent code-explorer asks for model") {
		t.Errorf("agents still reported as not run: %q", pkg.Diagnostics)
	}
}

func TestLoadAgentsRefusesAPathOutsideThePackage(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{".claude-plugin/plugin.json": `{"name": "x", "agents": "../elsewhere"}`})
	if _, err := Load(root); err == nil {
		t.Fatal("an agents path outside the package loaded")
	}
}
