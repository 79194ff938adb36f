//go:build xvfb

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// TestXvfbSandbox: in the real window a command that reads the SSH key
// asks with "Run unconfined" as its own choice; allowed once (confined),
// it gets "Permission denied" and the sandbox's note, and no byte of the
// key reaches the model. Preferences → Advanced then shows the sandbox's
// state (bin/artifacts/approval-unconfined-xvfb.png,
// sandbox-denied-xvfb.png, advanced-sandbox-xvfb.png; copies in docs/screenshots).
func TestXvfbSandbox(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	server := llmtest.NewOpenAI(t)
	server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"cat ~/.ssh/id_ed25519"}`}}},
		llmtest.Reply{Text: "The sandbox kept the key from the command."},
	)
	x := startXvfb(t)
	env := []string{"AGENTDESK_BASE_URL=" + server.URL, "AGENTDESK_MODEL=" + llmtest.ModelName}
	a, win := startAppWindow(t, x, env, "AgentDesk — project")
	key := filepath.Join(a.home, ".ssh", "id_ed25519")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("PRIVATE KEY BYTES"), 0o600)
	a.dump("Ask anything about this project")
	x.typeText(win, "show my ssh key")
	x.keys(win, "Return")
	a.dump("Run unconfined")
	time.Sleep(800 * time.Millisecond) // past the dialog's key guard
	t.Logf("screenshot: %s", x.screenshot(win, "approval-unconfined-xvfb.png"))
	x.keys(win, "ctrl+Return") // Allow once: confined
	a.dump("The sandbox kept the key from the command.")
	reqs := server.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	result := strings.Join(toolResultsOf(reqs[1]), "")
	if strings.Contains(string(reqs[1].Raw), "PRIVATE KEY") || !strings.Contains(result, "Permission denied") ||
		!strings.Contains(result, "the sandbox kept ~/.ssh from this command") {
		t.Fatalf("tool result %q", result)
	}
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "sandbox-denied-xvfb.png"))
	a.quit()

	p := launch(t, x, a.home, env, "--preferences", "Advanced")
	pwin, problem := x.findWindow(p, "Preferences", 30*time.Second)
	if problem != "" {
		t.Fatal(problem)
	}
	p.dump("confined by Landlock")
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(pwin, "advanced-sandbox-xvfb.png"))
	p.quit()
}
