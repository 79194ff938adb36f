//go:build xvfb

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// TestXvfbAlwaysAllowInProject: in the real window, "Always allow in this
// project…" opens the proposed rule; saving it allows the call; the next
// start's Preferences → Approvals lists it as yours beside the project
// settings' rules (bin/artifacts/always-allow-project.png,
// approvals-rules.png).
// Where the dialog's buttons are in the 1100×720 window (read off the
// screenshots): the row of Deny, Always allow in this project…, Always
// allow for this session, Run unconfined, Allow once, and the editor's Save button.
const (
	alwaysX, alwaysY = 355, 557
	saveX, saveY     = 813, 290
)

func TestXvfbAlwaysAllowInProject(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"npm test -- --silent"}`}}},
		llmtest.Reply{Text: "The tests ran."},
	)
	x := startXvfb(t)
	env := []string{"AGENTDESK_BASE_URL=" + server.URL, "AGENTDESK_MODEL=" + llmtest.ModelName}
	a, win := startAppWindow(t, x, env, "AgentDesk — project")
	project := filepath.Join(a.home, "project")
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.json"),
		[]byte(`{"permissions":{"allow":["Bash(make:*)"],"deny":["Read(./secrets/**)"]}}`), 0o644)
	a.dump("Ask anything about this project")
	x.typeText(win, "run the tests")
	x.keys(win, "Return")
	a.dump("Always allow in this project")
	time.Sleep(800 * time.Millisecond) // past the dialog's key guard
	t.Logf("screenshot: %s", x.screenshot(win, "approval-project-button.png"))
	x.click(win, alwaysX, alwaysY)
	a.dump("Save rule and allow")
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "always-allow-project.png"))
	x.click(win, saveX, saveY)
	a.dump("The tests ran.")
	a.quit()

	p := launch(t, x, a.home, env, "--preferences", "Approvals")
	pwin, problem := x.findWindow(p, "Preferences", 30*time.Second)
	if problem != "" {
		t.Fatal(problem)
	}
	p.dump("Bash(npm test:*)")
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(pwin, "approvals-rules.png"))
	p.quit()
}
