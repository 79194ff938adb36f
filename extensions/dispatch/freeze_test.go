//go:build unix

package dispatch

import (
	"context"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// The tool list a user turn starts with serves the whole turn, a child's
// requests included: a server's list_changed mid-turn (here adding the
// already reviewed tool late) reaches neither the conversation nor the
// child of that turn, and arrives with the next user turn.
func TestMCPListChangedMidTurnReachesNeitherParentNorChild(t *testing.T) {
	files := mcpPlugin(t)
	files["agents/helper.md"] = gittest.File{Body: "---\nname: helper\ndescription: Helps with anything\n---\nHELPER BODY\n"}
	t.Setenv("MY_GREETING", "hi")
	e := withMCP(t, newLoopEnv(t, map[string]*gittest.Repo{"mcpfix": repo(t, files)}, "mcpfix"), agent.AllowOnce)
	s := e.session()
	const grow, late = "mcp__plugin_mcpfix_fix__grow", "mcp__plugin_mcpfix_fix__late"

	// Set up: late is added once and accepted by the user, then the
	// server starts afresh without it.
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: grow, Args: `{}`}}}, llmtest.Reply{Text: "grown"})
	e.send(s, "grow")
	e.waitStale()
	e.model.Push(llmtest.Reply{Text: "listed"})
	e.send(s, "list")
	info, _ := e.m.Show(context.Background(), "mcpfix")
	if n, err := e.m.AcceptTools(context.Background(), "mcpfix", info.PendingTools); err != nil || n != 1 {
		t.Fatalf("accept late: %d, %v", n, err)
	}
	e.disp.MCP().Restart("mcpfix", "fix")

	// The turn: grow (list_changed arrives), then a child, then the
	// parent again.
	e.model.Push(llmtest.Reply{Text: "fresh"})
	if r := e.send(s, "fresh"); slices.Contains(r.Tools, late) {
		t.Fatalf("the restarted server has no late yet: %q", r.Tools)
	}
	before := len(e.model.Requests())
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: grow, Args: `{}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: envTool, Args: `{}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"helper","description":"help","prompt":"help"}`}}},
		llmtest.Reply{Text: "CHILD DONE"},
		llmtest.Reply{Text: "all done"})
	// Asked about env (after grow ran), the user answers only once the
	// server said its list changed: the next parent request and the
	// child's come after it.
	asked := len(e.approver.asked())
	e.approver.before = func(n int) {
		if n == asked+2 {
			e.waitStale()
		}
	}
	e.send(s, "grow and delegate")
	reqs := e.model.Requests()[before:]
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	for i, r := range reqs {
		if slices.Contains(r.Tools, late) {
			t.Errorf("request %d of the turn (%s) offers late, added mid-turn: %q", i, map[bool]string{true: "the child", false: "the parent"}[i == 3], r.Tools)
		}
		if !slices.Contains(r.Tools, grow) {
			t.Errorf("request %d lacks the turn's tools: %q", i, r.Tools)
		}
	}
	e.model.Push(llmtest.Reply{Text: "next"})
	if r := e.send(s, "next"); !slices.Contains(r.Tools, late) {
		t.Errorf("the change did not arrive with the next user turn: %q", r.Tools)
	}
}
