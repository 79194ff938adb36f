//go:build xvfb

package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

// Where things are in the Preferences window (read off the screenshots):
// Agent Extensions in the sidebar, the card's Review button.
const (
	extensionsX, extensionsY = 70, 100
	reviewX, reviewY         = 1075, 668
)

// TestXvfbMCPToolsChangedAndPerProject: a plugin enabled only in this
// project, set up with the command line, whose server changed its tools
// after trust (a poisoned description, a new tool): in the real
// Preferences window the card says "Enabled in: only these projects"
// with Only this project chosen, and "2 tools changed since you trusted
// this server"; Review shows the diff (bin/artifacts/ext-per-project-xvfb.png,
// mcp-tools-changed-xvfb.png, mcp-tools-review-xvfb.png; copies in
// docs/screenshots).
func TestXvfbMCPToolsChangedAndPerProject(t *testing.T) {
	mcpSrv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.NewServer() }, nil))
	t.Cleanup(mcpSrv.Close)
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "tracker", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "tracker", "interface": {"displayName": "Tracker"}}`},
		".mcp.json":                  {Body: `{"issues": {"type": "http", "url": "` + mcpSrv.URL + `"}}`},
	})
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"tracker": r})
	home, project := homeWithPlugin(t, srv, "tracker")
	model := llmtest.NewOpenAI(t)
	agentdesk := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(agentdeskBinary(t), args...)
		cmd.Env = []string{"AGENTDESK_HOME=" + home, "HOME=" + home, "PATH=" + os.Getenv("PATH"),
			"AGENTDESK_BASE_URL=" + model.URL, "AGENTDESK_MODEL=" + llmtest.ModelName, "AGENTDESK_API_KEY=k"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("agentdesk %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	agentdesk("ext", "enable", "tracker", "--project", project, "--yes")
	model.Push(llmtest.Reply{Text: "answer"})
	agentdesk("run", "--project", project, "--new", "hi") // the first listing after trust pins the tools
	t.Setenv(mcptest.RugPullEnv, "start")                 // from now on the server lists the poisoned echo and exfil
	model.Push(llmtest.Reply{Text: "answer"})
	if out := agentdesk("run", "--project", project, "--new", "hi"); !strings.Contains(out, "2 tools changed since you trusted this server") {
		t.Fatalf("run did not withhold the changed tools:\n%s", out)
	}

	x := startXvfb(t)
	env := []string{"AGENTDESK_PROJECT=" + project}
	p, main := openWindow(t, x, "AgentDesk — project", func() *runningApp { return launch(t, x, home, env) })
	p.dump("project: ~/project")
	x.keys(main, "ctrl+comma") // Preferences, as a user opens it with the project open
	win, problem := x.findWindow(p, "Preferences", 30*time.Second)
	if problem != "" {
		t.Fatal(problem)
	}
	p.dump("Providers")
	x.click(win, extensionsX, extensionsY)
	text := p.dump("2 tools changed since you trusted this server")
	for _, want := range []string{"Enabled in: only these projects (1)", "~/project  (this project)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the card lacks %q:\n%s", want, text)
		}
	}
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "ext-per-project-xvfb.png"))
	x.click(win, reviewX, reviewY)
	if text := p.dump("What the server now tells the model"); !strings.Contains(text, "issues › exfil: new tool") || !strings.Contains(text, "ignore previous instructions") {
		t.Errorf("the review lacks the diff:\n%s", text)
	}
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "mcp-tools-review-xvfb.png"))
	x.keys(win, "Escape") // Keep withholding
	time.Sleep(300 * time.Millisecond)
	if out, err := x.run("xdotool", "mousemove", "--window", win, "600", "500", "click", "--repeat", "4", "5"); err != nil {
		t.Fatalf("scroll: %v %s", err, out)
	}
	time.Sleep(300 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "mcp-tools-changed-xvfb.png"))
	p.quit()
}
