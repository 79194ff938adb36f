package agent

import (
	"context"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// Attention is how the loop gets the user back when it needs them and
// they are looking elsewhere. The window implements it; the command line
// has none (its user is at the terminal), so it never notifies.
type Attention interface {
	// Away reports whether no AgentDesk window has the focus.
	Away() bool
	// Notify shows a desktop notification unless the user turned them
	// off in Preferences. It must not block.
	Notify(title, message string)
}

// NotificationBudget bounds the Notification hooks of one notification,
// whatever their own timeouts: nothing waits for them, but they must not
// linger.
const NotificationBudget = 10 * time.Second

// needsUser is AgentDesk notifying the user: an approval waits, or a turn
// ended, while the window has no focus. Then the desktop notification is
// sent (if Preferences allow) and the Notification hooks run either way,
// fire and forget: neither the dialog nor the next turn waits for them.
func (s *Session) needsUser(kind, title, message string) {
	at := s.a.cfg.Attention
	if at == nil || !at.Away() {
		return
	}
	at.Notify(title, message)
	ev := lifecycle.NotificationEvent{SessionID: s.info.ID, ProjectDir: s.project, TranscriptPath: s.transcriptPath(),
		PermissionMode: s.permissionMode(), Type: kind, Title: title, Message: message}
	s.wg.Go(func() {
		ctx, cancel := context.WithTimeout(s.ctx, NotificationBudget)
		defer cancel()
		s.a.cfg.Lifecycle.Notification(ctx, ev)
	})
}

// approvalWaits notifies that the call name waits for the user's answer.
func (s *Session) approvalWaits(name string) {
	tool := tools.ClaudeName(name)
	if tool == "" {
		tool = name
	}
	s.needsUser(lifecycle.NotifyPermission, s.notificationTitle(), "AgentDesk needs your permission to use "+tool)
}

// turnEnded notifies that the agent answered and waits for the user,
// unless the user stopped the turn (they are there) or more prompts are
// queued (the agent goes on).
func (s *Session) turnEnded(ctx context.Context) {
	s.mu.Lock()
	queued := len(s.queuedLocked())
	s.mu.Unlock()
	if ctx.Err() != nil || queued > 0 {
		return
	}
	s.needsUser(lifecycle.NotifyIdle, s.notificationTitle(), "AgentDesk is waiting for your input")
}

// notificationTitle names the session, so a notification says which one.
func (s *Session) notificationTitle() string {
	if t := s.Title(); t != "" {
		return "AgentDesk: " + t
	}
	return "AgentDesk"
}
