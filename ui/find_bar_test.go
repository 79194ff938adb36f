package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// Ctrl/Cmd+F from the composer opens the find bar; it finds the newest
// match first, Enter goes to older ones, Esc closes it and gives the
// focus back to the composer.
func TestFindInTheSession(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Respond(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: "the parser answer to " + r.LastMessage().Texts[0]}
	})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	for _, p := range []string{"one", "two", "three"} {
		u.chat.onSend(p)
		h.loop.waitFor(t, "the answer to "+p, func() bool {
			// Find reads stored messages: wait for the answer to leave the live row.
			return strings.Contains(allText(u.chat.transcript.list), "answer to "+p) && !u.chat.session.Busy() && u.chat.transcript.live == nil
		})
	}
	canvas := u.main.Canvas()
	canvas.Focus(u.chat.composer)
	u.chat.composer.TypedShortcut(ctrl(fyne.KeyF))
	f := u.chat.find
	if !f.box.Visible() || canvas.Focused() != f.entry {
		t.Fatal("Ctrl+F must open the find bar with the focus in it")
	}
	test.Type(f.entry, "PARSER answer")
	if len(f.hits) != 3 || f.count.Text != "1 of 3" {
		t.Fatalf("hits %v, count %q", f.hits, f.count.Text)
	}
	newest := f.hits[f.at]
	f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if f.count.Text != "2 of 3" || f.hits[f.at] >= newest {
		t.Fatalf("Enter must go to the next older match: %q", f.count.Text)
	}
	f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	if f.count.Text != "1 of 3" {
		t.Fatalf("Up must go back: %q", f.count.Text)
	}
	test.Type(f.entry, "zzz")
	if f.count.Text != "no match" {
		t.Fatalf("count = %q", f.count.Text)
	}
	f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if f.box.Visible() || canvas.Focused() != u.chat.composer {
		t.Fatal("Esc must close the bar and return to the composer")
	}
	if u.chat.composer.Text != "" {
		t.Fatalf("find keys reached the composer: %q", u.chat.composer.Text)
	}
}

// Ctrl/Cmd+K opens the command list in an empty composer and never
// replaces a draft.
func TestCommandListShortcut(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	u.main.Canvas().Focus(u.chat.composer)
	u.chat.composer.TypedShortcut(ctrl(fyne.KeyK))
	h.loop.runQueued()
	if u.chat.composer.Text != "/" || !u.chat.completion.open {
		t.Fatalf("composer %q, list open %v", u.chat.composer.Text, u.chat.completion.open)
	}
	u.chat.composer.SetText("a draft")
	u.chat.composer.TypedShortcut(ctrl(fyne.KeyK))
	if u.chat.composer.Text != "a draft" {
		t.Fatalf("the draft was replaced: %q", u.chat.composer.Text)
	}
}
