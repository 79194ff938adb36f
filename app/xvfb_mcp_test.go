//go:build xvfb

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.MaybeServe() // the fixture MCP server, when a test starts this binary as one
	os.Exit(m.Run())
}

// TestXvfbMCP: in the real window, the model calls a plugin's MCP tool;
// the call waits for the in-window approval, naming the server's tool,
// and its result returns to the model. Quitting ends the server.
func TestXvfbMCP(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(t.TempDir(), "mcp-mark") // names this test's server among the machine's processes
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "probe", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "probe", "interface": {"displayName": "Probe"}}`},
		".mcp.json": {Body: `{"mcpServers": {"fix": {"command": "` + exe + `", "env": {"` + mcptest.ServeEnv + `": "1", "` +
			mcptest.MarkEnv + `": "` + mark + `"}}}}`},
	})
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"probe": r})
	server := llmtest.NewOpenAI(t)
	server.Push(
		llmtest.Reply{Text: "Asking the fixture server.", ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_probe_fix__echo", Args: `{"text":"hello over MCP"}`}}},
		llmtest.Reply{Text: "The server echoed **hello over MCP**."},
	)
	home, project := homeWithPlugin(t, srv, "probe")

	x := startXvfb(t)
	appEnv := []string{"AGENTDESK_PROJECT=" + project, "AGENTDESK_BASE_URL=" + server.URL, "AGENTDESK_MODEL=" + llmtest.ModelName}
	a, win := openWindow(t, x, "AgentDesk — project", func() *runningApp { return launch(t, x, home, appEnv) })
	a.dump("Ask anything about this project")
	x.typeText(win, "echo something over MCP")
	x.keys(win, "Return")
	a.dump("Allow probe_fix - echo (MCP)?")
	a.dump("MCP tool Probe › fix: echo")
	if serverRunning(mark) == 0 {
		t.Fatal("no MCP server process while its tool waits for approval")
	}
	t.Logf("screenshot: %s", x.screenshot(win, "mcp-approval-xvfb.png"))
	time.Sleep(600 * time.Millisecond) // past the key guard
	x.keys(win, "ctrl+Return")         // Allow once
	a.dump("The server echoed")
	if reqs := server.Requests(); len(reqs) != 2 || !strings.Contains(strings.Join(toolResultsOf(reqs[1]), ""), "hello over MCP") {
		t.Fatalf("the model did not get the echo back: %+v", reqs)
	}
	t.Logf("screenshot: %s", x.screenshot(win, "mcp-chat-xvfb.png"))
	a.quit()
	if n := serverRunning(mark); n != 0 {
		t.Fatalf("%d MCP server processes outlived the app", n)
	}
}

// serverRunning counts the processes whose environment names mark.
func serverRunning(mark string) int {
	n := 0
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), mcptest.MarkEnv+"="+mark+"\x00") {
			n++
		}
	}
	return n
}
