package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

func TestTruncatedAnswerShowsABadgeAndContinueSendsAPrompt(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "The first half of", Finish: "length"}, llmtest.Reply{Text: "the second half."})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	test.Type(u.chat.composer, "write a long answer")
	u.chat.composer.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.loop.waitFor(t, "the truncated badge", func() bool { return strings.Contains(windowText(u.main), "The answer was truncated") })
	h.loop.waitFor(t, "the turn to end", func() bool { return u.chat.session != nil && !u.chat.session.Busy() })

	var cont *widget.Button
	walk(u.chat.transcript.list, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Continue" {
			cont = b
		}
	})
	if cont == nil {
		t.Fatal("no Continue button beside the truncated answer")
	}
	test.Tap(cont)
	h.loop.waitFor(t, "the continued answer", func() bool { return strings.Contains(windowText(u.main), "the second half.") })
	if got := server.Requests()[1].LastMessage().Texts; len(got) != 1 || got[0] != continuePrompt {
		t.Fatalf("Continue sent %q", got)
	}
}
