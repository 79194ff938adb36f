package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// TestAnswerTextIsSelectable: "Select text" turns an answer into text the
// reader can select and copy (with a Copied) but not change.
func TestAnswerTextIsSelectable(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	const answer = "Use `go test ./...` to run **every** test."
	server.Push(llmtest.Reply{Text: answer})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	u.chat.onSend("how do I test?")
	h.loop.waitFor(t, "the answer", func() bool { return strings.Contains(windowText(u.main), "every test.") })
	h.loop.waitFor(t, "the turn to end", func() bool { return u.chat.session != nil && !u.chat.session.Busy() })

	test.Tap(findButton(u.chat.transcript.list, "Select text"))
	h.relayout(u.main)
	sel := findSelectable(u)
	if sel == nil {
		t.Fatalf("no selectable text after Select text; window:\n%s", windowText(u.main))
	}
	if sel.Text != answer {
		t.Fatalf("selectable text = %q, want the answer's Markdown", sel.Text)
	}
	u.main.Canvas().Focus(sel)
	test.Type(sel, "typed")
	sel.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	sel.TypedShortcut(&fyne.ShortcutPaste{Clipboard: h.app.Clipboard()})
	if sel.Text != answer {
		t.Fatalf("the text changed to %q", sel.Text)
	}
	sel.TypedShortcut(&fyne.ShortcutSelectAll{})
	sel.TypedShortcut(&fyne.ShortcutCopy{Clipboard: h.app.Clipboard()})
	if got := h.app.Clipboard().Content(); got != answer {
		t.Fatalf("clipboard = %q, want the selection", got)
	}
	if b := answerCopyButton(t, u); b.Text != "Copied" {
		t.Errorf("after a copy the message's copy button says %q, want Copied", b.Text)
	}

	test.Tap(findButton(u.chat.transcript.list, "Done selecting"))
	h.relayout(u.main)
	if findSelectable(u) != nil || !strings.Contains(windowText(u.main), "every test.") {
		t.Error("Done selecting does not bring the rendered answer back")
	}
}

func findSelectable(u *UI) *selectableText {
	var found *selectableText
	walk(u.chat.transcript.list, func(o fyne.CanvasObject) {
		if s, ok := o.(*selectableText); ok {
			found = s
		}
	})
	return found
}

// TestPromptTextIsSelectable: a right click on a prompt offers Copy and
// Select text.
func TestPromptTextIsSelectable(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	const prompt = "why does `go vet` complain?"
	u.chat.transcript.setEntries("s1", []agent.Entry{{Session: "s1", Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: prompt}}}})
	h.relayout(u.main)
	var area *contextMenuArea
	walk(u.chat.transcript.list, func(o fyne.CanvasObject) {
		if a, ok := o.(*contextMenuArea); ok {
			area = a
		}
	})
	if area == nil {
		t.Fatal("the prompt offers no menu")
	}
	test.TapSecondary(area)
	if ov := topOverlay(u.main); ov == nil || !strings.Contains(allText(ov), "Select text") {
		t.Fatal("no menu with Select text after a right click")
	}
	area.menu.Items[0].Action() // Copy
	if got := h.app.Clipboard().Content(); got != prompt {
		t.Fatalf("clipboard = %q", got)
	}
	area.menu.Items[1].Action() // Select text
	h.relayout(u.main)
	if sel := findSelectable(u); sel == nil || sel.Text != prompt {
		t.Fatalf("no selectable prompt text: %v", sel)
	}
}
