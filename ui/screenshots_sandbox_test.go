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

// docs/screenshots/ext-unconfine-ask.png and ext-unconfined-card.png: an
// extension's card asking before it runs unconfined, then warning that
// it does (go test -tags 'migrated_fynedo screenshots' -run
// TestScreenshotCardUnconfined ./ui/).
func TestScreenshotCardUnconfined(t *testing.T) {
	p := newPaneEnv(t, nil, nil)
	p.install(p.server.URL + "/demo.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Enable Demo?")
	p.tap("Enable")
	p.waitText("Confined: its hooks")
	p.win.Resize(fyne.NewSize(1000, 760))
	p.tap("Run unconfined…")
	p.waitText("Run Demo unconfined?")
	p.relayout(p.win)
	p.loop.runQueued()
	capture(t, p.win, "ext-unconfine-ask.png")
	p.tap("Run unconfined")
	p.waitText("⚠ Runs unconfined, as you chose")
	p.relayout(p.win)
	p.loop.runQueued()
	capture(t, p.win, "ext-unconfined-card.png")
}
