package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// agentdesk run never opens a browser: a remote MCP server that wants a
// sign-in is named once on stderr, and the prompt is answered without
// its tools.
func TestRunSaysWhichMCPServerNeedsSignIn(t *testing.T) {
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "sign in", http.StatusUnauthorized)
	}))
	t.Cleanup(remote.Close)
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"tracker"}`},
		".mcp.json":                  {Body: `{"issues":{"type":"http","url":"` + remote.URL + `/mcp"}}`},
	}
	c, url := cliWithRepo(t, "tracker", files)
	c.ok("ext", "install", url)
	if out := c.ok("ext", "enable", "tracker", "--yes"); !strings.Contains(out, "issues: http "+remote.URL+"/mcp") {
		t.Fatalf("enable does not show the server:\n%s", out)
	}
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "answered anyway"})
	c.env = append(c.env, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	out, errOut, code := c.run("", "run", "--project", t.TempDir(), "hi")
	if code != 0 || !strings.Contains(out, "answered anyway") {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "tracker › issues needs you to sign in") || strings.Count(errOut, "needs you to sign in") != 1 {
		t.Errorf("stderr does not name the server once:\n%s", errOut)
	}
	if reqs := server.Requests(); len(reqs) != 1 || strings.Contains(strings.Join(reqs[0].Tools, ","), "mcp__") {
		t.Errorf("requests %d, tools %q", len(reqs), reqs[0].Tools)
	}
}
