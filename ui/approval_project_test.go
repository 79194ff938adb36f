package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// findClickOnly finds a visible click-only button (the approval dialog's
// Allow buttons) by its text.
func findClickOnly(o fyne.CanvasObject, text string) *clickOnlyButton {
	var found *clickOnlyButton
	walk(o, func(c fyne.CanvasObject) {
		if b, ok := c.(*clickOnlyButton); ok && found == nil && strings.Contains(b.Text, text) {
			found = b
		}
	})
	return found
}

func firstEntry(o fyne.CanvasObject) *widget.Entry {
	var found *widget.Entry
	walk(o, func(c fyne.CanvasObject) {
		if e, ok := c.(*widget.Entry); ok && found == nil {
			found = e
		}
	})
	return found
}

func runCommand(cmd string) llmtest.Reply {
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"` + cmd + `"}`}}}
}

// "Always allow in this project…" opens the proposed rule for editing;
// saving stores it as the user's rule for the project (not in the
// project's .claude/), allows the call, and the next call it covers runs
// without a dialog.
func TestApprovalAlwaysAllowInThisProject(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(runCommand("touch first.txt"), llmtest.Reply{Text: "made the first"},
		runCommand("touch second.txt"), llmtest.Reply{Text: "made the second"})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)

	u.chat.onSend("make the first file")
	h.loop.waitFor(t, "the approval modal", func() bool { return u.chat.approvals.current != nil })
	modal := topOverlay(u.main)
	always := findClickOnly(modal, "Always allow in this project")
	if always == nil {
		t.Fatalf("no 'Always allow in this project' button:\n%s", allText(modal))
	}
	if findClickOnly(modal, "Save rule and allow") != nil {
		t.Fatal("the rule editor shows before the button is clicked")
	}
	test.Tap(always)
	save := findClickOnly(modal, "Save rule and allow")
	entry := firstEntry(modal)
	if save == nil || entry == nil || entry.Text != "Bash(touch:*)" {
		t.Fatalf("the editor shows %v with %q, want the proposal Bash(touch:*):\n%s", save != nil, entry.Text, allText(modal))
	}
	entry.SetText("Bash(touch")
	test.Tap(save)
	if u.chat.approvals.current == nil || !strings.Contains(allText(modal), "Not saved:") {
		t.Fatalf("an unparsable rule was accepted:\n%s", allText(modal))
	}
	entry.SetText("Bash(touch:*)")
	test.Tap(save)
	h.loop.waitFor(t, "the first turn", func() bool { return strings.Contains(windowText(u.main), "made the first") })
	if _, err := os.Stat(filepath.Join(h.project, "first.txt")); err != nil {
		t.Fatal("saving the rule did not allow the call")
	}
	rules, err := h.db.PermissionRules(context.Background(), u.chat.project.ID)
	if err != nil || len(rules) != 1 || rules[0].Rule != "Bash(touch:*)" || rules[0].Behavior != "allow" {
		t.Fatalf("saved rules = %+v, %v; want one allow Bash(touch:*)", rules, err)
	}
	if _, err := os.Stat(filepath.Join(h.project, ".claude")); err == nil {
		t.Error("the rule was written into the project's .claude/")
	}

	u.chat.onSend("make the second file")
	// A dialog would hold the turn until the wait's guard fails the test.
	h.loop.waitFor(t, "the second turn without a dialog", func() bool {
		return u.chat.approvals.current == nil && strings.Contains(windowText(u.main), "made the second")
	})
	if _, err := os.Stat(filepath.Join(h.project, "second.txt")); err != nil {
		t.Fatal("the covered call did not run")
	}
}

// A compound command gets no project rule: one rule cannot cover every part.
func TestApprovalNoProjectRuleForCompoundCommand(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(runCommand("touch a && touch b"), llmtest.Reply{Text: "done"})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	u.chat.onSend("make files")
	h.loop.waitFor(t, "the approval modal", func() bool { return u.chat.approvals.current != nil })
	modal := topOverlay(u.main)
	if findClickOnly(modal, "Always allow in this project") != nil || findClickOnly(modal, "Always allow for this session") == nil {
		t.Errorf("the compound command's dialog:\n%s", allText(modal))
	}
	test.Tap(findButton(modal, "Deny"))
	h.loop.waitFor(t, "the turn", func() bool { return strings.Contains(windowText(u.main), "done") })
}

// For an MCP tool, the editor says the rule covers that server's tools
// only (AllowInProject ties it to the server); for other tools it says
// nothing of servers.
func TestApprovalRuleEditorNamesTheMCPServer(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	mcp := u.chat.approvals.content(agent.ApprovalRequest{Summary: "create an issue", Tool: "mcp__tracker__create",
		ProposedRule: "mcp__tracker__create", MCPServer: "issues\x00tracker"})
	test.Tap(findClickOnly(mcp, "Always allow in this project"))
	if text := allText(mcp); !strings.Contains(text, "covers only the tools of server tracker (extension issues)") {
		t.Errorf("the editor does not name the server:\n%s", text)
	}
	cmd := u.chat.approvals.content(agent.ApprovalRequest{Summary: "run make", Tool: "run_command", ProposedRule: "Bash(make:*)"})
	test.Tap(findClickOnly(cmd, "Always allow in this project"))
	if text := allText(cmd); strings.Contains(text, "server") {
		t.Errorf("a command's editor speaks of servers:\n%s", text)
	}
}
