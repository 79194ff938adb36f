//go:build screenshots

package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// docs/screenshots/approval-rewrite.png: the approval dialog for a call an
// extension's PreToolUse hook rewrote (go test -tags 'migrated_fynedo
// screenshots' -run TestScreenshotRewrittenCall ./ui/).
func TestScreenshotRewrittenCall(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	u.main.Resize(fyne.NewSize(1100, 760))
	u.chat.projectBtn.SetText("project: ~/src/sync")
	u.chat.approvals.show(agent.ApprovalRequest{ID: 1, Tool: "run_command", Summary: "run_command git push --force-with-lease origin main",
		Preview:  tools.Preview{Command: "git push --force-with-lease origin main", Dir: "~/src/sync"},
		Forced:   "Git Guard rewrote this call; check the rewrite against the original",
		Original: &tools.Preview{Command: "git push --force origin main", Dir: "~/src/sync"}, OriginalSummary: "run_command git push --force origin main"})
	h.relayout(u.main)
	h.loop.runQueued()
	capture(t, u.main, "approval-rewrite.png")
}
