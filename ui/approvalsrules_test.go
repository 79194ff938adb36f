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
)

// Preferences → Approvals lists each project's rules with their source:
// the project settings' (allow waiting for folder trust, no Remove) and
// the user's own, which Remove deletes.
func TestApprovalsListsProjectRulesAndRemovesYours(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	os.MkdirAll(filepath.Join(h.project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(h.project, ".claude", "settings.json"),
		[]byte(`{"permissions":{"allow":["Bash(make:*)"],"deny":["Read(./secrets/**)"]}}`), 0o644)
	u := h.open(true)
	ctx := context.Background()
	if err := h.agent.AllowInProject(ctx, agent.ApprovalRequest{ProjectID: u.chat.project.ID}, "Bash(npm test:*)"); err != nil {
		t.Fatal(err)
	}
	// Saved from an MCP tool's call: tied to the server it came from.
	mcpCall := agent.ApprovalRequest{ProjectID: u.chat.project.ID, MCPServer: "issues\x00tracker"}
	if err := h.agent.AllowInProject(ctx, mcpCall, "mcp__tracker__create"); err != nil {
		t.Fatal(err)
	}
	u.ShowPreferences("approvals")
	a := u.prefs.panes[sectionApprovals].(*approvalsPane)
	h.loop.waitFor(t, "the rules to load", func() bool { return strings.Contains(allText(a.rules), "npm test") })
	text := allText(a.rules)
	for _, want := range []string{u.chat.project.Path, "allow  Bash(make:*)", "project settings · waits for folder trust",
		"deny  Read(./secrets/**)", "allow  Bash(npm test:*)", "yours",
		"allow  mcp__tracker__create", "yours · only server tracker (extension issues)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the rules list lacks %q:\n%s", want, text)
		}
	}
	removes := 0
	walk(a.rules, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Remove" {
			removes++
		}
	})
	if removes != 2 {
		t.Fatalf("%d Remove buttons, want two (the user's rules):\n%s", removes, text)
	}
	test.Tap(findButton(a.rules, "Remove"))
	h.loop.waitFor(t, "the removal", func() bool {
		return strings.HasPrefix(a.status.Text, "Removed") && !strings.Contains(allText(a.rules), "npm test")
	})
	rules, err := h.db.PermissionRules(ctx, u.chat.project.ID)
	if err != nil || len(rules) != 1 || rules[0].Rule != "mcp__tracker__create" {
		t.Fatalf("rules after Remove = %+v, %v; want the MCP rule left", rules, err)
	}
	if !strings.Contains(allText(a.rules), "Bash(make:*)") {
		t.Error("removing the user's rule hid the project's")
	}
}
