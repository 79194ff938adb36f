package ui

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
	"github.com/agentdesk/agentdesk/extensions/servers"
)

// A server that exits at once: the trust dialog lists it, the card shows
// it failed with its stderr and offers Restart; the pane never waits for
// it.
func TestPaneShowsMCPServers(t *testing.T) {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"srv","version":"0.1.0"}`},
		".mcp.json":                  {Body: `{"mcpServers":{"quitter":{"command":"${CLAUDE_PLUGIN_ROOT}/quit.sh","env":{"TOKEN":"${SRV_TOKEN}"}}}}`},
		"quit.sh":                    {Body: "#!/bin/sh\necho 'quitter: no config found' >&2\nexit 1\n", Mode: 0o755},
	})
	r.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"srv": r}, nil)
	p.install(p.server.URL + "/srv.git")
	p.waitText("quitter — not started (starts with the first prompt)")
	p.tap("Review and enable")
	p.waitText("Enable srv?")
	dlg := allText(topOverlay(p.win))
	for _, want := range []string{"MCP servers that start with a session's first prompt", "quitter  (stdio)", "${CLAUDE_PLUGIN_ROOT}/quit.sh",
		`env TOKEN="${SRV_TOKEN}"; gives this server your SRV_TOKEN credential`} {
		if !strings.Contains(dlg, want) {
			t.Errorf("trust dialog lacks %q:\n%s", want, dlg)
		}
	}
	if strings.Contains(dlg, "Commands that will run") {
		t.Errorf("a plugin without hooks shows a commands section:\n%s", dlg)
	}
	p.tap("Enable")
	p.waitText("Its MCP server starts with the next prompt")

	set := p.disp.Tools(t.Context(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: p.project})
	if len(set.Tools) != 0 || len(set.Notices) != 1 || !strings.Contains(set.Notices[0].Text, "srv › quitter is unavailable") {
		t.Fatalf("tool set of a failed server: %+v", set)
	}
	p.waitText("quitter — failed: ")
	if !strings.Contains(p.text(), "▾ Details") {
		p.tap("▸ Details")
	}
	p.waitText("quitter: no config found") // the stderr tail, in the details
	p.tap("Restart")
	p.waitText("quitter stopped; it starts again with the next prompt")
	p.waitText("quitter — not started")
}

// Sign in from the card: the browser (here the fixture's, following the
// redirect) is opened off the UI goroutine; the card then offers Sign out.
func TestPaneSignsInToAnMCPServer(t *testing.T) {
	o := mcptest.NewOAuthServer(t)
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"wiki","version":"1.0.0"}`},
		".mcp.json":                  {Body: `{"mcpServers":{"api":{"type":"http","url":"` + o.MCPURL + `","oauth":{}}}}`},
	})
	r.SetHEAD(t, "main")
	p := newPaneEnvMCP(t, map[string]*gittest.Repo{"wiki": r}, nil, servers.MCPConfig{HTTPClient: o.Client(), OpenBrowser: o.Browser})
	disp := p.disp
	p.install(p.server.URL + "/wiki.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Enable wiki?")
	p.tap("Enable")
	p.waitText("Its MCP server starts with the next prompt")
	p.tap("Sign in")
	p.waitText("Signed in to api; its tools join the next prompt.")
	p.waitText("Sign out")
	if set := disp.Tools(t.Context(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: p.project}); len(set.Tools) == 0 {
		t.Fatalf("no tools after signing in: %+v", set)
	}
	p.tap("Sign out")
	p.waitText("Signed out of api")
}

// The card follows its server as a prompt in the main window starts it,
// as it becomes ready and as it dies, without the pane being reopened.
func TestCardFollowsItsMCPServerLive(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"live","version":"0.1.0"}`},
		".mcp.json": {Body: `{"mcpServers":{"fix":{"command":"` + exe + `","env":{"` + mcptest.ServeEnv + `":"1","` +
			mcptest.DelayEnv + `":"1500ms"}}}}`},
	})
	r.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"live": r}, nil)
	p.install(p.server.URL + "/live.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Enable live?")
	p.tap("Enable")
	p.waitText("Its MCP server starts with the next prompt")

	tools := make(chan lifecycle.ToolSet, 1)
	go func() {
		tools <- p.disp.Tools(t.Context(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: p.project})
	}()
	p.waitText("fix — starting")
	set := <-tools
	p.waitText("fix — ready, 9 tools") // the fixture's tools, its read tool included
	if len(set.Tools) == 0 {
		t.Fatalf("no tools from the ready server: %+v", set)
	}
	for _, d := range set.Tools {
		if d.Name == "mcp__plugin_live_fix__crash" {
			d.Call(t.Context(), json.RawMessage(`{}`))
		}
	}
	p.waitText("fix — failed: ")
}
