package ui

import (
	"context"
	"sync/atomic"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/agent/safetext"
)

// settingNotifications is Preferences › Approvals › desktop notifications:
// "off" turns them off; anything else (the default) leaves them on.
const settingNotifications = "ui.notifications"

// Attention is the window's agent.Attention: the user is away while no
// AgentDesk window has the focus, and Notify sends a desktop notification
// unless Preferences turned them off. The agent decides when (an approval
// waits, a turn ended); its Notification hooks run at those moments
// whether or not notifications are on.
type Attention struct {
	away  atomic.Bool
	muted atomic.Bool
	// send hands a notification to the system off the caller's goroutine:
	// it is a D-Bus call on Linux and may be slow or hang.
	send func(*fyne.Notification)
}

// NewAttention follows a's focus from now on. app/ makes it before the
// agent, which it is given to, and hands it to the views too.
func NewAttention(a fyne.App) *Attention {
	at := &Attention{send: func(n *fyne.Notification) { go a.SendNotification(n) }}
	a.Lifecycle().SetOnEnteredForeground(func() { at.away.Store(false) })
	a.Lifecycle().SetOnExitedForeground(func() { at.away.Store(true) })
	return at
}

// Away implements agent.Attention.
func (at *Attention) Away() bool { return at.away.Load() }

// Notify implements agent.Attention.
func (at *Attention) Notify(title, message string) {
	if !at.muted.Load() {
		at.send(fyne.NewNotification(safetext.Strip(title), safetext.Strip(message)))
	}
}

// notificationsOn reads the saved choice (on unless turned off).
func notificationsOn(ctx context.Context, prefs Prefs) bool {
	v, _, _ := prefs.Setting(ctx, settingNotifications)
	return v != "off"
}

func notificationsValue(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
