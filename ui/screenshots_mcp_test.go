//go:build screenshots

package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestScreenshotMCP renders the trust dialog of an extension with MCP
// servers and its card once one failed: docs/screenshots/mcp-trust.png
// and mcp-card.png.
func TestScreenshotMCP(t *testing.T) {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"notes","version":"0.3.1","description":"Searches your team's notes.","interface":{"displayName":"Team Notes"}}`},
		".mcp.json": {Body: `{"mcpServers":{
			"search":{"command":"${CLAUDE_PLUGIN_ROOT}/server.sh","args":["--index","${CLAUDE_PLUGIN_DATA}/index"],"env":{"NOTES_TOKEN":"${NOTES_TOKEN}"}},
			"wiki":{"type":"http","url":"https://wiki.example.com/mcp","oauth":{}},
			"calendar":{"type":"http","url":""}}}`},
		"server.sh": {Body: "#!/bin/sh\necho 'search: cannot open index: no such file' >&2\nexit 1\n", Mode: 0o755},
	})
	r.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"notes": r}, nil)
	p.win.Resize(fyne.NewSize(1000, 760))
	p.install(p.server.URL + "/notes.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Enable Team Notes?")
	p.relayout(p.win)
	p.loop.runQueued()
	capture(t, p.win, "mcp-trust.png")
	p.tap("Enable")
	p.waitText("Its 3 MCP servers start with the next prompt")
	p.disp.Tools(t.Context(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: p.project})
	p.pane.reload()
	p.waitText("search — failed")
	p.relayout(p.win)
	p.loop.runQueued()
	capture(t, p.win, "mcp-card.png")
}
