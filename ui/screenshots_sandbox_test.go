//go:build screenshots

package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// docs/screenshots/approval-unconfined.png: the approval dialog of a
// confined command, with "Run unconfined" as its own choice (go test
// -tags 'migrated_fynedo screenshots' -run TestScreenshotRunUnconfined ./ui/).
func TestScreenshotRunUnconfined(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	u.main.Resize(fyne.NewSize(1100, 760))
	u.chat.projectBtn.SetText("project: ~/src/sync")
	u.chat.approvals.show(agent.ApprovalRequest{ID: 1, Tool: "run_command", Summary: "run_command ssh-add -l",
		Preview: tools.Preview{Command: "ssh-add -l", Dir: "~/src/sync"}, CanRunUnconfined: true})
	h.relayout(u.main)
	h.loop.runQueued()
	capture(t, u.main, "approval-unconfined.png")
}

// docs/screenshots/advanced-sandbox.png: Preferences › Advanced with the
// sandbox's state and its folders (go test -tags 'migrated_fynedo
// screenshots' -run TestScreenshotAdvancedSandbox ./ui/).
func TestScreenshotAdvancedSandbox(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	u.setAppearance("dark")
	u.ShowPreferences("advanced")
	pane := u.prefs.panes[sectionAdvanced].(*advancedPane)
	h.loop.waitFor(t, "the settings to load", func() bool { return pane.timeout != nil && pane.timeout.Text != "" })
	pane.writable.SetText("~/.m2\n/srv/builds")
	pane.secrets.SetText(".config/rclone")
	pane.autoConfined.SetChecked(true)
	u.prefs.win.Resize(fyne.NewSize(1000, 1100))
	h.relayout(u.prefs.win)
	h.loop.runQueued()
	capture(t, u.prefs.win, "advanced-sandbox.png")
}
