//go:build screenshots

package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

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

// docs/screenshots/approval-mcp-rule.png and approvals-mcp-rule.png: the
// rule editor of an MCP tool's call, which names the server the rule
// will cover, and Approvals listing such a rule (go test -tags
// 'migrated_fynedo screenshots' -run TestScreenshotMCPRuleTiedToItsServer ./ui/).
func TestScreenshotMCPRuleTiedToItsServer(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	u.main.Resize(fyne.NewSize(1100, 760))
	u.chat.projectBtn.SetText("project: ~/src/shop")
	req := agent.ApprovalRequest{ID: 1, Tool: "mcp__plugin_issues_tracker__create_issue", Summary: "issues › tracker: create_issue",
		Preview: tools.Preview{Detail: `{"title": "Checkout fails on empty cart"}`}, ProjectID: u.chat.project.ID,
		ProposedRule: "mcp__plugin_issues_tracker__create_issue", MCPServer: "issues\x00tracker"}
	u.chat.approvals.show(req)
	h.relayout(u.main)
	h.loop.runQueued()
	test.Tap(findClickOnly(topOverlay(u.main), "Always allow in this project"))
	h.relayout(u.main)
	h.loop.runQueued()
	capture(t, u.main, "approval-mcp-rule.png")

	if err := h.agent.AllowInProject(t.Context(), req, req.ProposedRule); err != nil {
		t.Fatal(err)
	}
	u.chat.approvals.answer(agent.Deny)
	u.ShowPreferences("approvals")
	a := u.prefs.panes[sectionApprovals].(*approvalsPane)
	h.loop.waitFor(t, "the rules to load", func() bool { return strings.Contains(allText(a.rules), "only server tracker (extension issues)") })
	h.relayout(u.prefs.win)
	h.loop.runQueued()
	capture(t, u.prefs.win, "approvals-mcp-rule.png")
}
