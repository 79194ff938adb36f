//go:build screenshots

package ui

import (
	"strings"
	"testing"
)

// docs/screenshots/notifications-preference.png: Preferences › Approvals
// with the desktop notifications choice (go test -tags 'migrated_fynedo
// screenshots' -run TestScreenshotNotificationsPreference ./ui/).
func TestScreenshotNotificationsPreference(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.setAppearance("dark")
	u.ShowPreferences("approvals")
	pane := u.prefs.panes[sectionApprovals].(*approvalsPane)
	h.loop.waitFor(t, "the choices to load", func() bool { return pane.notify.Checked && strings.HasPrefix(pane.policy.Selected, "Ask") })
	h.relayout(u.prefs.win)
	h.loop.runQueued()
	capture(t, u.prefs.win, "notifications-preference.png")
}
