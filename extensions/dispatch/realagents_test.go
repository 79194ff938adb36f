//go:build realplugins

package dispatch

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestRealAgents installs two real plugins that are mostly agents, from
// local mirrors served over loopback HTTPS: code-documentation of
// wshobson/agents and the official marketplace's feature-dev. Both have a
// code reviewer, but wshobson's names carry their plugin's name
// ("code-documentation-code-reviewer"), so every short name is unique;
// feature-dev's code-explorer (a comma list of tools, most of which
// AgentDesk lacks) runs through the fake model. Run it by hand:
//
//	WSHOBSON_AGENTS=/path/to/wshobson-agents.git OFFICIAL_MARKETPLACE=/path/to/claude-plugins-official.git \
//	  go test -tags 'realplugins migrated_fynedo' -run TestRealAgents -v ./extensions/
func TestRealAgents(t *testing.T) {
	wshobson, official := os.Getenv("WSHOBSON_AGENTS"), os.Getenv("OFFICIAL_MARKETPLACE")
	if wshobson == "" || official == "" {
		t.Skip("WSHOBSON_AGENTS and OFFICIAL_MARKETPLACE name no repositories")
	}
	l := newLoopEnv(t, map[string]*gittest.Repo{"wshobson": {Dir: wshobson}, "official": {Dir: official}})
	ctx := context.Background()
	for _, src := range []extensions.Source{{URL: l.url("wshobson"), Plugin: "code-documentation"}, {URL: l.url("official"), Plugin: "feature-dev"}} {
		info, err := l.m.InstallFrom(ctx, src, nil)
		if err != nil {
			t.Fatalf("install %s: %v", src.Plugin, err)
		}
		logInstalled(t, src.Plugin, info)
		for _, a := range info.Agents {
			t.Logf("  agent %s (tools %q, model %q): %s", a.Name, a.Tools, a.Model, a.Description)
		}
		l.enable(info.ID)
	}
	set := l.disp.Agents(l.project)
	var names []string
	for _, a := range set.Agents {
		names = append(names, a.Name)
	}
	t.Logf("offered: %q; conflicts: %+v", names, set.Conflicts)
	want := []string{"code-documentation-code-reviewer", "code-documentation-docs-architect", "code-documentation-tutorial-engineer",
		"code-architect", "code-explorer", "code-reviewer"}
	if !slices.Equal(names, want) || len(set.Conflicts) != 0 {
		t.Errorf("offered %q (conflicts %+v), want %q", names, set.Conflicts, want)
	}

	os.WriteFile(l.project+"/main.go", []byte("package main\n\nfunc main() {}\n"), 0o644)
	l.model.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"code-explorer","description":"trace main","prompt":"Trace the entry point."}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "glob", Args: `{"pattern":"**/*.go"}`}}},
		llmtest.Reply{Text: "Entry point: main.go, func main."},
		llmtest.Reply{Text: "done"},
	)
	s := l.session()
	l.send(s, "How does this start?")
	l.idle(s)
	reqs := l.model.Requests()
	child := reqs[len(reqs)-3]
	t.Logf("child tools %q", child.Tools)
	if !strings.Contains(child.System, "You are an expert code analyst") || !slices.Equal(child.Tools, []string{"read_file", "list_dir", "glob", "grep"}) ||
		!strings.Contains(child.System, "WebFetch") {
		t.Errorf("code-explorer's request: tools %q\n%s", child.Tools, child.System)
	}
	if got := toolResultsOfLast(reqs[len(reqs)-1]); !slices.Contains(got, "Entry point: main.go, func main.") {
		t.Errorf("parent got %q", got)
	}
}

func toolResultsOfLast(r llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		out = append(out, m.ToolResults...)
	}
	return out
}
