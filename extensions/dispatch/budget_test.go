//go:build unix

package dispatch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

const (
	manyPrefix = "mcp__plugin_many_fix__"
	tideTool   = manyPrefix + mcptest.Tide
)

// newManyEnv runs the fixture server with 150 bulk tools (and the other
// servers more declares, a JSON object's members) under a fake model that
// states a window of window tokens.
func newManyEnv(t *testing.T, window int, more string) *mcpEnv {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "many", "version": "1.0.0"}`},
		".mcp.json": {Body: `{"mcpServers": {` + more + `"fix": {"command": "` + exe + `", "env": {"` + mcptest.ServeEnv + `": "1", "` +
			mcptest.ManyEnv + `": "150"}}}}`},
	}
	e := withMCP(t, newLoopEnv(t, map[string]*gittest.Repo{"many": repo(t, files)}, "many"), agent.AllowOnce)
	stateWindow(e, window)
	return e
}

// stateWindow makes e's fake model state a window of window tokens (GET
// /v1/models context_length, read as the app reads it).
func stateWindow(e *mcpEnv, window int) {
	t := e.t
	e.model.SetContextLength(window)
	known := agent.NewServerInfo()
	e.agent = agent.New(agent.Config{DB: e.db, Lifecycle: e.disp, Skills: e.disp, MCP: e.disp, Agents: e.disp, Approver: e.approver,
		Policy: func() agent.Policy { return agent.PolicyAsk }, HomeDir: filepath.Join(e.home, "home"), TranscriptDir: t.TempDir(),
		Provider: func() (llm.Provider, llm.Config, error) {
			cfg := e.model.Config()
			known.Window(context.Background(), agent.ProviderSettings{}, cfg).Apply(&cfg)
			p, err := agent.NewProvider(cfg)
			return p, cfg, err
		}})
}

// requestTools are a request's tool definitions as sent.
func requestTools(t *testing.T, r llmtest.Request) []json.RawMessage {
	t.Helper()
	var body struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(r.Raw, &body); err != nil {
		t.Fatal(err)
	}
	return body.Tools
}

// mcpBytes counts what the MCP tools of a request take, as the budget
// does: name, description and schema.
func mcpBytes(t *testing.T, r llmtest.Request) int {
	t.Helper()
	n := 0
	for _, raw := range requestTools(t, r) {
		var tool struct {
			Function struct {
				Name, Description string
				Parameters        json.RawMessage
			}
		}
		json.Unmarshal(raw, &tool)
		if strings.HasPrefix(tool.Function.Name, "mcp__") {
			n += len(tool.Function.Name) + len(tool.Function.Description) + len(tool.Function.Parameters)
		}
	}
	return n
}

func countPrefix(names []string, prefix string) int {
	n := 0
	for _, name := range names {
		if strings.HasPrefix(name, prefix) {
			n++
		}
	}
	return n
}

// With a 32k window the first request's MCP tools take at most 10% of
// it; tool_search finds a deferred tool by a word of its description,
// the next request offers it after every other tool with the tools
// before it byte for byte unchanged, its call is approved as every MCP
// call is, and the next user turn offers it in the same place.
func TestMCPToolsPastTheBudgetWaitForToolSearch(t *testing.T) {
	testToolSearchAt32k(t, newManyEnv(t, 32768, ""))
}

// The same beside the reference server-everything (skipped without it).
func TestMCPToolsOfEverythingAndManyAt32k(t *testing.T) {
	script := everythingServer(t)
	e := newManyEnv(t, 32768, `"everything": {"command": "node", "args": ["`+script+`", "stdio"]}, `)
	testToolSearchAt32k(t, e)
}

func testToolSearchAt32k(t *testing.T, e *mcpEnv) {
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "tool_search", Args: `{"query":"tide"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: tideTool, Args: `{"sensor":"pier"}`}}},
		llmtest.Reply{Text: "done"})
	e.send(s, "when is high water?")
	reqs := e.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (notices %q, errors %q)", len(reqs), hosts(s, agent.HostNotice), hosts(s, agent.HostError))
	}
	first, second := reqs[0], reqs[1]
	if n, limit := mcpBytes(t, first), 32768*4/10; n > limit || n < limit/2 {
		t.Errorf("the first request's MCP tools take %d bytes, want at most 10%% of the window (%d) and most of it", n, limit)
	}
	offered := countPrefix(first.Tools, "mcp__")
	if offered == 0 || offered >= 100 || slices.Contains(first.Tools, tideTool) || !slices.Contains(first.Tools, "tool_search") {
		t.Fatalf("first request offers %d MCP tools (tide: %v, tool_search: %v), want a few, not tide, and tool_search",
			offered, slices.Contains(first.Tools, tideTool), slices.Contains(first.Tools, "tool_search"))
	}
	t.Logf("first request: %d MCP tools offered, %d bytes", offered, mcpBytes(t, first))
	found := toolResult(second)
	if !strings.Contains(found, "MCP tool "+tideTool+" — Returns the tide times") || !strings.Contains(found, "now callable") ||
		!strings.Contains(found, `"sensor"`) {
		t.Errorf("tool_search answered:\n%s", found)
	}
	if want := append(slices.Clone(first.Tools), tideTool); !slices.Equal(second.Tools, want) {
		t.Errorf("the next request's tools are not the first's with tide appended:\n%q", second.Tools)
	}
	before, after := requestTools(t, first), requestTools(t, second)
	for i := range before {
		if string(before[i]) != string(after[i]) {
			t.Fatalf("tool %d of the request changed after tool_search:\n%s\n%s", i, before[i], after[i])
		}
	}
	if got := toolResult(reqs[2]); got != mcptest.Tide+" answered" {
		t.Errorf("the found tool answered %q", got)
	}
	if asked := e.approver.asked(); len(asked) != 1 || asked[0].Tool != tideTool {
		t.Errorf("approvals %+v, want one for %s", asked, tideTool)
	}
	notices := strings.Join(hosts(s, agent.HostNotice), "\n")
	if !strings.Contains(notices, "MCP tools wait for tool_search") || !strings.Contains(notices, "32768-token window") {
		t.Errorf("notices:\n%s", notices)
	}
	if c := s.MCPCount(); c.Offered != countPrefix(second.Tools, "mcp__") || c.OnSearch == 0 ||
		!strings.HasPrefix(c.Text(), "MCP tools: ") || !strings.HasSuffix(c.Text(), " on search") {
		t.Errorf("count %+v (%q)", c, c.Text())
	}

	e.model.Push(llmtest.Reply{Text: "again"})
	if next := e.send(s, "and tomorrow?"); !slices.Equal(next.Tools, second.Tools) {
		t.Errorf("the next user turn's tools differ from the found ones' place:\n%q\n%q", next.Tools, second.Tools)
	}
}

// With a 200k window the fixture's 150 tools all fit: none waits, no
// tool_search, no notice.
func TestMCPToolsAllFitALargeWindow(t *testing.T) {
	e := newManyEnv(t, 200000, "")
	s := e.session()
	e.model.Push(llmtest.Reply{Text: "hi"})
	r := e.send(s, "hello")
	if n := countPrefix(r.Tools, manyPrefix+"bulk_"); n != 150 || slices.Contains(r.Tools, "tool_search") {
		t.Errorf("%d bulk tools offered (tool_search: %v), want all 150 and no tool_search", n, slices.Contains(r.Tools, "tool_search"))
	}
	if notices := strings.Join(hosts(s, agent.HostNotice), "\n"); strings.Contains(notices, "tool_search") {
		t.Errorf("notices:\n%s", notices)
	}
	if c := s.MCPCount(); c.OnSearch != 0 || c.Text() != "" {
		t.Errorf("count %+v", c)
	}
}
