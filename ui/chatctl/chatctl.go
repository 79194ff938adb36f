// Package chatctl is the chat window's state without widgets: which
// session choice is current (late results lose), what the status bar
// says, and how prompts come back to the composer (queued ones on Stop,
// an unanswered one after a failure). The view in package ui renders it;
// these rules are tested here without Fyne.
package chatctl

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent"
)

// Choices counts the user's session choices (open, new, first prompt,
// project switch): a slow open that finishes after a later choice was
// made must not replace it.
type Choices struct{ n int }

// Next starts a choice and returns its number.
func (c *Choices) Next() int {
	c.n++
	return c.n
}

// Current reports whether choice is still the latest.
func (c *Choices) Current(choice int) bool { return choice == c.n }

// Latest is the number of the latest choice.
func (c *Choices) Latest() int { return c.n }

// Status is what the status bar reports.
type Status struct {
	Streaming  bool
	Busy       bool        // a turn runs
	Usage      agent.Usage // context use and, while streaming, the token rate
	Note       string      // a one-off line, until the turn ends
	ServerDown string      // the model server does not answer ("" while it does)
	Hooks      string      // the extensions' hook health
}

// SetStreaming notes whether an answer streams; the token rate is shown
// only while one does and is forgotten when it ends. It reports whether
// anything changed.
func (s *Status) SetStreaming(on bool) bool {
	if on == s.Streaming {
		return false
	}
	s.Streaming = on
	if !on {
		s.Usage.TokensPerSec = 0
	}
	return true
}

// TurnEnded forgets what only a running turn says.
func (s *Status) TurnEnded() {
	s.Busy, s.Note = false, ""
	s.Streaming, s.Usage.TokensPerSec = false, 0
}

// Text is the status bar's line: what is going on first (streaming, a
// note, working, the server down, ready), then the context use and the
// MCP tools waiting for tool_search and the hooks' health.
func (s Status) Text() string {
	var parts []string
	switch {
	case s.Streaming:
		p := "streaming…"
		if s.Usage.TokensPerSec > 0 {
			p += fmt.Sprintf(" %.0f tok/s", s.Usage.TokensPerSec)
		}
		parts = append(parts, p)
	case s.Note != "":
		parts = append(parts, s.Note)
	case s.Busy:
		parts = append(parts, "working…")
	case s.ServerDown != "":
		parts = append(parts, s.ServerDown)
	default:
		parts = append(parts, "ready")
	}
	if s.Usage.ContextWindow > 0 {
		parts = append(parts, fmt.Sprintf("context %d%%", 100*s.Usage.ContextTokens/s.Usage.ContextWindow))
	}
	if mcp := s.Usage.MCP.Text(); mcp != "" {
		parts = append(parts, mcp)
	}
	if s.Hooks != "" {
		parts = append(parts, s.Hooks)
	}
	return strings.Join(parts, " · ")
}

// AfterStop is the composer's text when Stop handed back the queued
// prompts: them first, in order, then the draft; the draft alone when
// nothing was queued. Nothing the user typed is lost.
func AfterStop(returned []string, draft string) string {
	if len(returned) == 0 {
		return draft
	}
	if d := strings.TrimSpace(draft); d != "" {
		returned = append(returned, d)
	}
	return strings.Join(returned, "\n\n")
}

// TakeBack is the composer's text when an unanswered prompt comes back:
// the prompt ahead of the draft, once.
func TakeBack(prompt, draft string) string {
	d := strings.TrimSpace(draft)
	switch {
	case d == "":
		return prompt
	case strings.HasPrefix(d, prompt):
		return draft
	}
	return prompt + "\n\n" + d
}

// QueueLines are the "queued:" lines shown above the composer.
func QueueLines(queue []string) string {
	lines := make([]string, len(queue))
	for i, p := range queue {
		lines[i] = "queued: " + FirstLine(p, 80)
	}
	return strings.Join(lines, "\n")
}

// FirstLine is s's first line, at most max runes, marked when cut.
func FirstLine(s string, max int) string {
	line, _, more := strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(line); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	if more {
		return line + " …"
	}
	return line
}

// InUseBanner is what the window says over a session another process
// (pid) is writing: it is read-only here until that process finishes.
func InUseBanner(pid int) string {
	return fmt.Sprintf("Read-only: another AgentDesk window or run (pid %d) is writing this session. It updates here when that one finishes.", pid)
}
