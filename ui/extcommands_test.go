package ui

import (
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
)

func TestCommandLinesMarkConflicts(t *testing.T) {
	conflicts := []lifecycle.CommandConflict{{Name: "shared", Sources: []string{"a", "b", "c"}}, {Name: "help", Sources: []string{"b"}, Host: true}}
	commands := []extensions.Command{
		{Name: "review", ArgumentHint: "[pr]", Description: "Review a PR\nmore", AllowedTools: []string{"Read", "Bash(git:*)"}},
		{Name: "shared"},
		{Name: "help"},
	}
	got := commandLines("b", commands, conflicts)
	want := []string{
		"/review [pr] — Review a PR …\n    allowed-tools (shown only, approvals still asked): Read, Bash(git:*)",
		"/shared\n    [conflict: also in a, c; type /b:shared]",
		"/help\n    [conflict: AgentDesk's own /help wins; type /b:help]",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("lines\n%q\nwant\n%q", got, want)
	}
	if got := commandLines("z", commands[1:2], conflicts); got[0] != "/shared" {
		t.Errorf("a conflict of other extensions marked: %q", got)
	}
}
