package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
)

// TestStatusSaysWhetherTheServerAnswers: the status bar says "no model
// server at URL" instead of "ready" while the check fails, and "ready"
// once a check (Retry) finds it.
func TestStatusSaysWhetherTheServerAnswers(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	var down atomic.Bool
	down.Store(true)
	h.ui = New(Deps{App: h.app, Do: h.loop.do, Agent: h.agent, Approvals: h.approvals, Prefs: h.db, Extensions: h.exts, DataDir: h.paths.Data, LogFile: h.paths.LogFile(),
		CheckProvider: func(context.Context) error {
			if down.Load() {
				return &llm.Error{Kind: llm.ErrUnreachable, URL: "http://127.0.0.1:8000/v1"}
			}
			return nil
		}})
	h.ui.main.Show()
	c := h.ui.chat
	h.loop.waitFor(t, "the check", func() bool { return c.status.Text == "no model server at http://127.0.0.1:8000/v1" })

	down.Store(false)
	test.Tap(findButton(h.ui.main.Content(), "Retry"))
	h.loop.waitFor(t, "the server found", func() bool { return c.status.Text == "ready" })
	if c.banner.Visible() {
		t.Error("the no-server banner stays after the server answered")
	}

	// A failed turn checks again.
	down.Store(true)
	c.onEntry(agent.Entry{Host: &agent.Host{Kind: agent.HostError, Text: "the request failed"}})
	h.loop.waitFor(t, "the check after a failure", func() bool { return strings.HasPrefix(c.status.Text, "no model server at") })
}

// TestTokenRateOnlyWhileStreaming: the tok/s figure goes when the stream
// ends, however it ends.
func TestTokenRateOnlyWhileStreaming(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	c := h.open(false).chat
	rate := []agent.Event{{Kind: agent.EventUsage, Usage: agent.Usage{TokensPerSec: 42}}}

	c.apply(rate, agent.Stream{Active: true, Text: "x", Version: 1})
	if !strings.Contains(c.status.Text, "42 tok/s") {
		t.Fatalf("while streaming: status %q", c.status.Text)
	}
	c.apply(nil, agent.Stream{})
	if strings.Contains(c.status.Text, "tok/s") {
		t.Errorf("after the stream: status %q", c.status.Text)
	}

	c.apply(rate, agent.Stream{Active: true, Text: "y", Version: 2})
	c.setBusy(false) // the turn ended (or the session was left) without a last frame
	if strings.Contains(c.status.Text, "tok/s") || strings.Contains(c.status.Text, "streaming") {
		t.Errorf("after the turn: status %q", c.status.Text)
	}
	c.apply(nil, agent.Stream{Active: true, Text: "z", Version: 3})
	if strings.Contains(c.status.Text, "tok/s") {
		t.Errorf("a new stream shows the last one's rate: %q", c.status.Text)
	}
}

// TestApprovedEditShowsItsDiff: an edit in the transcript expands to the
// diff that was approved, not to its JSON arguments.
func TestApprovedEditShowsItsDiff(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	args := `{"path":"main.go","old_string":"fmt.Println(\"hi\")\n","new_string":"fmt.Println(\"hello\")\n"}`
	u.chat.transcript.setEntries("s1", []agent.Entry{{Session: "s1", Role: llm.RoleAssistant,
		Parts: []llm.Part{{Kind: llm.PartToolCall, Name: "edit_file", Args: args}}}})
	h.relayout(u.main)
	b := findButton(u.chat.transcript.list, "tool: edit_file main.go")
	if b == nil {
		t.Fatalf("no edit row:\n%s", windowText(u.main))
	}
	test.Tap(b)
	h.relayout(u.main)
	text := allText(u.chat.transcript.list)
	for _, want := range []string{"--- a/main.go", "+++ b/main.go", `-fmt.Println("hi")`, `+fmt.Println("hello")`} {
		if !strings.Contains(text, want) {
			t.Errorf("expanded edit lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "old_string") {
		t.Errorf("expanded edit shows its JSON:\n%s", text)
	}
}

// TestStreamingKeepsNoOldFrames: the live row's renderings of earlier
// frames are let go (the view's rendering→row map held every frame).
func TestStreamingKeepsNoOldFrames(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	tv := u.chat.transcript
	tv.setEntries("s1", nil)
	text := ""
	for i := 1; i <= 60; i++ {
		text += fmt.Sprintf("Paragraph %d of a long answer.\n\n", i)
		tv.setStream(agent.Stream{Active: true, Text: text, Version: i})
		h.relayout(u.main)
		h.loop.runQueued()
	}
	if n := len(tv.owner); n > 2 {
		t.Errorf("after 60 frames the view holds %d renderings, want the live row's only", n)
	}
	if !strings.Contains(allText(tv.list), "Paragraph 59 of a long answer.") {
		t.Errorf("the streamed answer is not shown:\n%s", allText(tv.list))
	}
}
