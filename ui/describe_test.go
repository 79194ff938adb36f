package ui

import (
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/extensions"
)

func TestDescribeCallWordsMCPToolsLikeClaudeCode(t *testing.T) {
	tests := []struct{ name, args, want string }{
		{"read_file", `{"path":"main.go"}`, "read_file main.go"},
		{"mcp__plugin_probe_fix__echo", `{"text":"hello over MCP"}`, "probe_fix - echo (MCP) hello over MCP"},
		{"mcp__plugin_context-mode_context-mode__ctx_search", `{"queries":["a"],"limit":3,"source":"docs"}`, "context-mode_context-mode - ctx_search (MCP) docs"},
		{"mcp__plugin_gh_github__list_issues", `{}`, "gh_github - list_issues (MCP)"},
		{"mcp__odd", `{}`, "mcp__odd"}, // not server__tool: shown as the model named it
		{"mcp__plugin_x__", `{}`, "mcp__plugin_x__"},
	}
	for _, tt := range tests {
		if got := describeCall(llm.Part{Name: tt.name, Args: tt.args}); got != tt.want {
			t.Errorf("describeCall(%s, %s) = %q, want %q", tt.name, tt.args, got, tt.want)
		}
	}
}

func TestCardCountsAndEnabledText(t *testing.T) {
	agents := extensions.Info{Commands: make([]extensions.Command, 1), Agents: make([]extensions.Agent, 3)}
	if got := countsText(agents); got != "0 hooks · 1 command · 3 agents" {
		t.Errorf("counts of an agents plugin = %q", got)
	}
	if got := enabledText(agents); got != "Enabled, active from the next prompt: 1 command and 3 agents." {
		t.Errorf("enabled text = %q", got)
	}
	full := extensions.Info{Hooks: make([]extensions.Hook, 2), Skills: make([]extensions.Skill, 1), MCPServers: make([]extensions.MCPServer, 1)}
	if got := countsText(full); got != "2 hooks · 1 MCP server · 1 skill" {
		t.Errorf("counts = %q", got)
	}
	if got := enabledText(full); got != "Enabled, active from the next prompt: 2 hooks and 1 skill. Its MCP server starts with the next prompt." {
		t.Errorf("enabled text = %q", got)
	}
	if got := enabledText(extensions.Info{}); got != "Enabled." {
		t.Errorf("enabled text of an empty plugin = %q", got)
	}
}
