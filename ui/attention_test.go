package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// focus tells the test app's lifecycle that AgentDesk gained or lost the
// focus, as the desktop driver does when the window does.
func focus(t *testing.T, a fyne.App, focused bool) {
	t.Helper()
	l, ok := a.Lifecycle().(interface {
		OnEnteredForeground() func()
		OnExitedForeground() func()
	})
	if !ok {
		t.Fatalf("the test app's lifecycle %T cannot be driven", a.Lifecycle())
	}
	if f := l.OnExitedForeground(); !focused && f != nil {
		f()
	}
	if f := l.OnEnteredForeground(); focused && f != nil {
		f()
	}
}

// In the background, a waiting approval and a finished answer each send a
// desktop notification; turned off in Preferences, or with the window
// focused, nothing is sent.
func TestDesktopNotifications(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	run := llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"touch x.txt"}`}}}
	server.Push(run, llmtest.Reply{Text: "not run"}, llmtest.Reply{Text: "second"}, llmtest.Reply{Text: "third"})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	turnDone := func(text string) func() bool {
		return func() bool {
			return strings.Contains(windowText(u.main), text) && u.chat.session != nil && !u.chat.session.Busy()
		}
	}

	focus(t, h.app, false)
	test.AssertNotificationSent(t, fyne.NewNotification("AgentDesk: make x", "AgentDesk needs your permission to use Bash"), func() {
		u.chat.onSend("make x")
		h.loop.waitFor(t, "the approval modal", func() bool { return u.chat.approvals.current != nil })
	})
	test.AssertNotificationSent(t, fyne.NewNotification("AgentDesk: make x", "AgentDesk is waiting for your input"), func() {
		test.Tap(findButton(topOverlay(u.main), "Deny"))
		h.loop.waitFor(t, "the answer", turnDone("not run"))
	})

	focus(t, h.app, true)
	test.AssertNotificationSent(t, nil, func() {
		u.chat.onSend("again")
		h.loop.waitFor(t, "the answer", turnDone("second"))
	})

	u.ShowPreferences("approvals")
	pane := u.prefs.panes[sectionApprovals].(*approvalsPane)
	h.loop.waitFor(t, "the choice to load", func() bool { return pane.notify.Checked })
	pane.notify.SetChecked(false)
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(pane.status.Text, "Saved") })
	if v, _, _ := h.db.Setting(context.Background(), settingNotifications); v != "off" {
		t.Fatalf("stored %s = %q, want off", settingNotifications, v)
	}
	focus(t, h.app, false)
	test.AssertNotificationSent(t, nil, func() {
		u.chat.onSend("third time")
		h.loop.waitFor(t, "the answer", turnDone("third"))
	})
}

// The choice survives a restart: a new window reads it before any turn.
func TestNotificationsChoiceIsRemembered(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	if err := h.db.SetSetting(context.Background(), settingNotifications, "off"); err != nil {
		t.Fatal(err)
	}
	h.open(false)
	if !h.attention.muted.Load() {
		t.Fatal("notifications turned off in an earlier run are on again")
	}
}
