package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

// A server that changes its tools after trust (a poisoned description, a
// new tool) has them withheld from `agentdesk run`; `ext show --json`
// lists them as pending_tools, `ext review` prints the diff and accepts
// only when told.
func TestExtReviewAcceptsChangedTools(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.NewServer() }, nil))
	t.Cleanup(srv.Close)
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"tracker"}`},
		".mcp.json":                  {Body: `{"issues":{"type":"http","url":"` + srv.URL + `"}}`},
	}
	c, url := cliWithRepo(t, "tracker", files)
	c.ok("ext", "install", url)
	c.ok("ext", "enable", "tracker", "--yes")
	model := llmtest.NewOpenAI(t)
	c.env = append(c.env, "AGENTDESK_BASE_URL="+model.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	project := t.TempDir()
	run := func() (string, llmtest.Request) {
		t.Helper()
		model.Push(llmtest.Reply{Text: "answer"})
		before := len(model.Requests())
		out, errOut, code := c.run("", "run", "--project", project, "--new", "hi")
		if code != 0 {
			t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
		}
		return errOut, model.Requests()[before]
	}
	const echo, exfil = "mcp__plugin_tracker_issues__echo", "mcp__plugin_tracker_issues__exfil"
	if _, req := run(); !slices.Contains(req.Tools, echo) {
		t.Fatalf("first run tools %q", req.Tools)
	}

	t.Setenv(mcptest.RugPullEnv, "start") // the server's next sessions list the poisoned tools
	errOut, req := run()
	if slices.Contains(req.Tools, echo) || slices.Contains(req.Tools, exfil) || strings.Contains(string(req.Raw), "id_rsa") {
		t.Errorf("changed tools reached the model: %q", req.Tools)
	}
	if !strings.Contains(errOut, "2 tools changed since you trusted this server") {
		t.Errorf("run does not say tools were withheld:\n%s", errOut)
	}
	if info := c.show("tracker"); len(info.PendingTools) != 2 {
		t.Fatalf("pending_tools %+v", info.PendingTools)
	}
	out, _, code := c.run("n\n", "ext", "review", "tracker")
	if code == 0 || !strings.Contains(out, "+ description: "+mcptest.Poisoned) || !strings.Contains(out, "issues › exfil: new tool") {
		t.Errorf("review declined: exit %d\n%s", code, out)
	}
	if info := c.show("tracker"); len(info.PendingTools) != 2 {
		t.Errorf("declining accepted something: %+v", info.PendingTools)
	}
	if out := c.ok("ext", "review", "tracker", "--yes"); !strings.Contains(out, "accepted 2 tools") {
		t.Errorf("review --yes:\n%s", out)
	}
	if _, req := run(); !slices.Contains(req.Tools, echo) || !slices.Contains(req.Tools, exfil) {
		t.Errorf("accepted tools not offered: %q", req.Tools)
	}
	if out := c.ok("ext", "review", "tracker"); !strings.Contains(out, "no MCP tools wait for review") {
		t.Errorf("review with nothing pending:\n%s", out)
	}
}

// A trusted folder's own server (.mcp.json, the extension "project") is
// pinned too: folder trust covers what runs, not what the server tells
// the model. Its changed tools are withheld from `agentdesk run`, the
// notice names `agentdesk project review`, which prints the diff and
// accepts only when told.
func TestProjectReviewAcceptsChangedTools(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.NewServer() }, nil))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".mcp.json": `{"mcpServers": {"fixture": {"type": "http", "url": "` + srv.URL + `"}}}`})
	model := llmtest.NewOpenAI(t)
	c := newCLI(t, "AGENTDESK_BASE_URL="+model.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	c.ok("project", "trust", dir, "--yes")
	run := func() (string, llmtest.Request) {
		t.Helper()
		model.Push(llmtest.Reply{Text: "answer"})
		before := len(model.Requests())
		out, errOut, code := c.run("", "run", "--project", dir, "--new", "hi")
		if code != 0 {
			t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
		}
		return errOut, model.Requests()[before]
	}
	const echo, exfil = "mcp__fixture__echo", "mcp__fixture__exfil"
	if _, req := run(); !slices.Contains(req.Tools, echo) {
		t.Fatalf("first run tools %q", req.Tools)
	}

	t.Setenv(mcptest.RugPullEnv, "start")
	errOut, req := run()
	if slices.Contains(req.Tools, echo) || slices.Contains(req.Tools, exfil) || strings.Contains(string(req.Raw), "id_rsa") {
		t.Errorf("changed tools reached the model: %q", req.Tools)
	}
	if !strings.Contains(errOut, "2 tools changed since you trusted this server") || !strings.Contains(errOut, "agentdesk project review") {
		t.Errorf("run does not say how to review the withheld tools:\n%s", errOut)
	}
	var shown struct {
		PendingTools []struct{ Tool string } `json:"pending_tools"`
	}
	if err := json.Unmarshal([]byte(c.ok("project", "show", dir, "--json")), &shown); err != nil || len(shown.PendingTools) != 2 {
		t.Errorf("project show --json pending_tools %+v %v", shown.PendingTools, err)
	}
	if out := c.ok("project", "show", dir); !strings.Contains(out, "2 MCP tools of its servers changed") {
		t.Errorf("project show does not say tools wait:\n%s", out)
	}
	if _, errOut, code := c.run("", "ext", "review", "project"); code == 0 || !strings.Contains(errOut, "agentdesk project review") {
		t.Errorf("ext review project: exit %d %s", code, errOut)
	}
	out, _, code := c.run("n\n", "project", "review", dir)
	if code == 0 || !strings.Contains(out, "+ description: "+mcptest.Poisoned) || !strings.Contains(out, "fixture › exfil: new tool") {
		t.Errorf("review declined: exit %d\n%s", code, out)
	}
	if _, req := run(); slices.Contains(req.Tools, echo) {
		t.Errorf("declining accepted something: %q", req.Tools)
	}
	if out := c.ok("project", "review", dir, "--yes"); !strings.Contains(out, "accepted 2 tools") {
		t.Errorf("review --yes:\n%s", out)
	}
	if _, req := run(); !slices.Contains(req.Tools, echo) || !slices.Contains(req.Tools, exfil) {
		t.Errorf("accepted tools not offered: %q", req.Tools)
	}
	if out := c.ok("project", "review", dir); !strings.Contains(out, "no MCP tools wait for review") {
		t.Errorf("review with nothing pending:\n%s", out)
	}
}
