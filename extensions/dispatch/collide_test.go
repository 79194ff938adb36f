//go:build unix

package dispatch

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
	"github.com/agentdesk/agentdesk/extensions/servers"
)

// collidingPlugin is plugin name with one fixture server, which says who
// it is (WHO) and waits ${DELAY_<name>} before it serves.
func collidingPlugin(t *testing.T, name, server string) map[string]gittest.File {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "` + name + `", "version": "1.0.0"}`},
		".mcp.json": {Body: `{"mcpServers": {"` + server + `": {"command": "` + exe + `", "env": {"` + mcptest.ServeEnv + `": "1",
			"WHO": "server of ` + name + `", "` + mcptest.DelayEnv + `": "${DELAY_` + name + `}"}}}}`},
	}
}

// toolsLike are the offered tools whose name starts with prefix.
func toolsLike(r llmtest.Request, prefix string) []string {
	var out []string
	for _, name := range r.Tools {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	return out
}

// Plugin victim's server srv_x and plugin victim_srv's server x are both
// mcp__plugin_victim_srv_x__ in Claude Code's naming. Here each gets a
// name of its own, stable while the other is slow to start; each call
// reaches its own server, and "always" for one covers only that one.
func TestMCPCollidingNamesStayApart(t *testing.T) {
	t.Setenv("DELAY_victim", "30s") // victim's server is slow: it misses the first turn
	t.Setenv("DELAY_victim_srv", "")
	l := newLoopEnv(t, map[string]*gittest.Repo{"victim": repo(t, collidingPlugin(t, "victim", "srv_x")),
		"victim_srv": repo(t, collidingPlugin(t, "victim_srv", "x"))}, "victim", "victim_srv")
	e := withMCP(t, l, agent.AllowSession, servers.MCPConfig{StartTimeout: func() time.Duration { return 2 * time.Second }})
	victimEnv := e.toolNamed(t, "victim", "srv_x", "env")
	impostorEnv := e.toolNamed(t, "victim_srv", "x", "env")
	if victimEnv == impostorEnv || victimEnv == "mcp__plugin_victim_srv_x__env" || impostorEnv == "mcp__plugin_victim_srv_x__env" {
		t.Fatalf("names not kept apart: %q and %q", victimEnv, impostorEnv)
	}
	s := e.session()

	// Turn 1: victim's server is still starting (it fails its start
	// timeout); a call of its tool's name is not answered by the other.
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: victimEnv, Args: `{}`}}}, llmtest.Reply{Text: "ok"})
	first := e.send(s, "who answers?")
	if got := toolResult(first); !strings.Contains(got, "unknown tool") || strings.Contains(got, "WHO=") {
		t.Errorf("call meant for the slow victim: %q", got)
	}
	if like := toolsLike(first, "mcp__plugin_victim_srv_x"); slices.Contains(like, victimEnv) || !slices.Contains(like, impostorEnv) {
		t.Errorf("first turn offers %q", like)
	}
	if len(e.approver.asked()) != 0 {
		t.Errorf("asked about a call that reached no tool: %+v", e.approver.asked())
	}

	// Turn 2: both ready, distinct names in one request, each call
	// reaching its own server; "always" for the impostor's tool does not
	// cover the victim's.
	t.Setenv("DELAY_victim", "")
	e.disp.MCP().Restart("victim", "srv_x")
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: impostorEnv, Args: `{}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: impostorEnv, Args: `{}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: victimEnv, Args: `{}`}}}, llmtest.Reply{Text: "done"})
	e.send(s, "both")
	reqs := e.model.Requests()
	second := reqs[len(reqs)-4]
	if like := toolsLike(second, "mcp__plugin_victim_srv_x"); !slices.Contains(like, victimEnv) || !slices.Contains(like, impostorEnv) {
		t.Errorf("second turn offers %q", like)
	}
	for _, r := range reqs[len(reqs)-4:] {
		seen := map[string]bool{}
		for _, name := range r.Tools {
			if seen[name] {
				t.Errorf("tool name %q twice in one request", name)
			}
			seen[name] = true
		}
	}
	if got := toolResult(reqs[len(reqs)-3]); !strings.Contains(got, "WHO=server of victim_srv") {
		t.Errorf("the impostor's call reached %q", lineWith(got, "WHO="))
	}
	if got := toolResult(reqs[len(reqs)-1]); !strings.Contains(got, "WHO=server of victim\n") {
		t.Errorf("the victim's call reached %q", lineWith(got, "WHO="))
	}
	var asked []string
	for _, r := range e.approver.asked() {
		asked = append(asked, r.Tool)
	}
	if want := []string{impostorEnv, victimEnv}; !slices.Equal(asked, want) {
		t.Errorf("asked about %q, want %q: an \"always\" for one covered the other", asked, want)
	}

	// Both cards say so.
	for _, id := range []string{"victim", "victim_srv"} {
		info, err := liveShow(context.Background(), e.m, e.disp, id)
		if err != nil {
			t.Fatal(err)
		}
		if c := info.MCPServers[0].CollisionText(); !strings.Contains(c, "spelled like") {
			t.Errorf("card of %s: %q", id, c)
		}
	}
}

func lineWith(text, sub string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, sub) {
			return line
		}
	}
	return text
}

// toolNamed is the name the model is offered an extension's tool by, as
// its card shows the prefix.
func (e *mcpEnv) toolNamed(t *testing.T, id, server, tool string) string {
	t.Helper()
	info, err := liveShow(context.Background(), e.m, e.disp, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range info.MCPServers {
		if s.Name == server && s.ToolPrefix != "" {
			return s.ToolPrefix + tool
		}
	}
	t.Fatalf("%s › %s has no collision prefix: %+v", id, server, info.MCPServers)
	return ""
}

// "Always allow in this project" for victim's tool, saved while it alone
// held the name mcp__plugin_victim_srv_x__env, does not allow the tool of
// victim_srv's server x once that one holds the name here (victim
// disabled, victim_srv enabled): the rule was saved for a server, not a
// spelling; the call asks.
func TestMCPAlwaysInProjectKeepsItsServer(t *testing.T) {
	t.Setenv("DELAY_victim", "")
	t.Setenv("DELAY_victim_srv", "")
	l := newLoopEnv(t, map[string]*gittest.Repo{"victim": repo(t, collidingPlugin(t, "victim", "srv_x")),
		"victim_srv": repo(t, collidingPlugin(t, "victim_srv", "x"))}, "victim")
	l.install("victim_srv", "")
	e := withMCP(t, l, agent.AllowOnce)
	const name = "mcp__plugin_victim_srv_x__env" // Claude Code's spelling of both
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: name, Args: `{}`}}}, llmtest.Reply{Text: "ok"})
	if got := toolResult(e.send(e.session(), "who answers?")); !strings.Contains(got, "WHO=server of victim\n") {
		t.Fatalf("victim's call reached %q", lineWith(got, "WHO="))
	}
	asked := e.approver.asked()
	if len(asked) != 1 || asked[0].ProposedRule != name {
		t.Fatalf("asked %+v", asked)
	}
	if err := e.agent.AllowInProject(context.Background(), asked[0], asked[0].ProposedRule); err != nil {
		t.Fatal(err)
	}
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: name, Args: `{}`}}}, llmtest.Reply{Text: "ok"})
	e.send(e.session(), "again")
	if n := len(e.approver.asked()); n != 1 {
		t.Fatalf("the saved rule did not allow victim's own tool: asked %d times", n)
	}

	if _, err := e.m.Disable(context.Background(), "victim"); err != nil {
		t.Fatal(err)
	}
	e.enable("victim_srv")
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: name, Args: `{}`}}}, llmtest.Reply{Text: "ok"})
	got := toolResult(e.send(e.session(), "and now?"))
	if !strings.Contains(got, "WHO=server of victim_srv") {
		t.Fatalf("the call reached %q", lineWith(got, "WHO="))
	}
	if n := len(e.approver.asked()); n != 2 {
		t.Fatalf("victim's rule allowed victim_srv's tool of the same name without asking (asked %d times)", n)
	}

	// Removed in Approvals and saved again from victim_srv's call, the
	// rule is victim_srv's alone: victim, back here, is asked.
	ctx := context.Background()
	projects, err := e.agent.PermissionRules(ctx)
	if err != nil || len(projects) != 1 || len(projects[0].Rules) != 1 {
		t.Fatalf("rules %+v %v", projects, err)
	}
	if err := e.agent.RemoveRule(ctx, projects[0].Rules[0].ID); err != nil {
		t.Fatal(err)
	}
	impostorAsk := e.approver.asked()[1]
	if err := e.agent.AllowInProject(ctx, impostorAsk, impostorAsk.ProposedRule); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.Disable(ctx, "victim_srv"); err != nil {
		t.Fatal(err)
	}
	e.enable("victim")
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: name, Args: `{}`}}}, llmtest.Reply{Text: "ok"})
	if got := toolResult(e.send(e.session(), "victim again")); !strings.Contains(got, "WHO=server of victim\n") {
		t.Fatalf("the call reached %q", lineWith(got, "WHO="))
	}
	if n := len(e.approver.asked()); n != 3 {
		t.Errorf("a removed rule's server still allowed victim's tool (asked %d times)", n)
	}
}
