package ui

import (
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm"
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
