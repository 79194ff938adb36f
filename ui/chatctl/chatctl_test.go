package chatctl

import (
	"testing"

	"github.com/agentdesk/agentdesk/agent"
)

func TestChoicesLateResultsLose(t *testing.T) {
	var c Choices
	open := c.Next()
	prompt := c.Next() // a first prompt sent while the open runs
	if c.Current(open) || !c.Current(prompt) || c.Latest() != prompt {
		t.Fatal("the older choice must lose")
	}
}

func TestStatusText(t *testing.T) {
	usage := agent.Usage{ContextWindow: 1000, ContextTokens: 310, TokensPerSec: 42}
	tests := []struct {
		name string
		s    Status
		want string
	}{
		{"ready", Status{}, "ready"},
		{"streaming with rate", Status{Streaming: true, Busy: true, Usage: usage, Hooks: "hooks ok"}, "streaming… 42 tok/s · context 31% · hooks ok"},
		{"note wins over working", Status{Busy: true, Note: "Saved model x"}, "Saved model x"},
		{"working", Status{Busy: true, Usage: agent.Usage{ContextWindow: 100, ContextTokens: 5}}, "working… · context 5%"},
		{"server down", Status{ServerDown: "no model server at http://x"}, "no model server at http://x"},
		{"MCP tools on search", Status{Usage: agent.Usage{MCP: agent.MCPCount{Offered: 12, OnSearch: 140}}, Hooks: "hooks ok"},
			"ready · MCP tools: 12 offered, 140 on search · hooks ok"},
		{"MCP tools all offered", Status{Usage: agent.Usage{MCP: agent.MCPCount{Offered: 12}}}, "ready"},
	}
	for _, tt := range tests {
		if got := tt.s.Text(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestStatusForgetsTheRateWhenTheStreamEnds(t *testing.T) {
	s := Status{Usage: agent.Usage{TokensPerSec: 50}}
	if !s.SetStreaming(true) || s.SetStreaming(true) {
		t.Fatal("SetStreaming must report changes only")
	}
	s.SetStreaming(false)
	if s.Usage.TokensPerSec != 0 || s.Text() != "ready" {
		t.Fatalf("after the stream: %+v %q", s, s.Text())
	}
	s = Status{Busy: true, Note: "x", Streaming: true, Usage: agent.Usage{TokensPerSec: 9, ContextWindow: 10, ContextTokens: 1}}
	s.TurnEnded()
	if s.Text() != "ready · context 10%" {
		t.Fatalf("after the turn: %q", s.Text())
	}
}

func TestPromptsComeBack(t *testing.T) {
	if got := AfterStop([]string{"second", "third"}, " draft "); got != "second\n\nthird\n\ndraft" {
		t.Errorf("AfterStop = %q", got)
	}
	if got := AfterStop(nil, "draft"); got != "draft" {
		t.Errorf("nothing queued: %q", got)
	}
	for _, tt := range []struct{ prompt, draft, want string }{
		{"fix it", "", "fix it"},
		{"fix it", "and also", "fix it\n\nand also"},
		{"fix it", "fix it\n\nand also", "fix it\n\nand also"},
	} {
		if got := TakeBack(tt.prompt, tt.draft); got != tt.want {
			t.Errorf("TakeBack(%q, %q) = %q", tt.prompt, tt.draft, got)
		}
	}
	if got := QueueLines([]string{"one\ntwo", "x"}); got != "queued: one …\nqueued: x" {
		t.Errorf("QueueLines = %q", got)
	}
}
