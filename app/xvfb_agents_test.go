//go:build xvfb

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestXvfbSubagent: in the real window, the model delegates to a plugin
// agent; the run shows as one block in the transcript with its status,
// which a click opens (docs/screenshots/subagent-xvfb.png).
func TestXvfbSubagent(t *testing.T) {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "probe", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "probe", "interface": {"displayName": "Probe"}}`},
		"agents/explorer.md": {Body: "---\nname: explorer\ndescription: Explores the code base and reports where things are\n" +
			"tools: Read, Grep, Glob, WebFetch\ncolor: cyan\n---\nYou explore.\n"},
	})
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"probe": r})
	server := llmtest.NewOpenAI(t)
	server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"find the retry code","prompt":"Where is Retry defined?"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "grep", Args: `{"pattern":"func Retry"}`}}},
		llmtest.Reply{Text: "`Retry` is defined in **sync.go**, line 3."},
		llmtest.Reply{Text: "The explorer found `Retry` in sync.go."},
	)

	home, project := homeWithPlugin(t, srv, "probe")
	os.WriteFile(filepath.Join(project, "sync.go"), []byte("package sync\n\nfunc Retry() {}\n"), 0o644)

	x := startXvfb(t)
	appEnv := []string{"AGENTDESK_PROJECT=" + project, "AGENTDESK_BASE_URL=" + server.URL, "AGENTDESK_MODEL=" + llmtest.ModelName}
	a, win := openWindow(t, x, "AgentDesk — project", func() *runningApp { return launch(t, x, home, appEnv) })
	a.dump("Ask anything about this project")
	x.typeText(win, "Where is the retry code?")
	x.keys(win, "Return")
	a.dump("explorer — find the retry code — done")
	a.dump("The explorer found")
	t.Logf("screenshot: %s", x.screenshot(win, "subagent-collapsed-xvfb.png"))
	x.click(win, 420, 175) // the block's row, the third of the transcript
	time.Sleep(800 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "subagent-xvfb.png"))
	a.quit()
}
