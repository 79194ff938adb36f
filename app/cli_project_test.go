package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

// A repository's own Claude Code configuration, end to end over
// loopback: untrusted only its instructions reach the model; trusted its
// hook's context, its MCP server's tool (mcp__fixture__echo, a round
// trip), its /command and its skill do; a changed hook script waits for
// trust again.
func TestProjectSettingsWaitForFolderTrust(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.NewServer() }, nil))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	hook := filepath.Join(dir, ".claude/hooks/start.sh")
	writeFiles(t, dir, map[string]string{
		"CLAUDE.md": "Project rule: answer in haiku.\n",
		".claude/settings.json": `{"permissions": {"allow": ["Bash(echo ok:*)"], "deny": ["Read(./secrets/**)"]},
  "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/start.sh"}]}]}}`,
		".claude/commands/review.md":     "---\ndescription: Review a file\n---\nPlease review $ARGUMENTS carefully.\n",
		".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys the fixture app\n---\nRun make deploy.\n",
		".mcp.json":                      `{"mcpServers": {"fixture": {"type": "http", "url": "` + srv.URL + `"}}}`,
	})
	writeHook(t, hook, "HOOK-CONTEXT-1")

	model := llmtest.NewOpenAI(t)
	c := newCLI(t, "AGENTDESK_BASE_URL="+model.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	run := func(prompt string) (string, llmtest.Request) {
		t.Helper()
		before := len(model.Requests())
		out, errOut, code := c.run("", "run", "--project", dir, "--new", prompt)
		if code != 0 {
			t.Fatalf("run %s: exit %d\n%s%s", prompt, code, out, errOut)
		}
		return errOut, model.Requests()[before]
	}

	model.Push(llmtest.Reply{Text: "untrusted answer"})
	errOut, req := run("hi")
	if strings.Count(errOut, "nothing of them runs until you trust the folder: agentdesk project trust") != 1 {
		t.Errorf("run in an untrusted folder does not say so once:\n%s", errOut)
	}
	raw := string(req.Raw)
	if !strings.Contains(raw, "answer in haiku") || strings.Contains(raw, "HOOK-CONTEXT") || strings.Contains(raw, "deploy") ||
		slices.Contains(req.Tools, "mcp__fixture__echo") {
		t.Fatalf("untrusted: instructions only expected; tools %v\n%s", req.Tools, raw)
	}

	if out := c.ok("project", "trust", dir, "--yes"); !strings.Contains(out, "$CLAUDE_PROJECT_DIR/.claude/hooks/start.sh") ||
		!strings.Contains(out, "MCP server fixture: http "+srv.URL) || !strings.Contains(out, "allow Bash(echo ok:*)") {
		t.Errorf("trust does not show what will run:\n%s", out)
	}
	model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "mcp__fixture__echo", Args: `{"text":"ping-42"}`}}},
		llmtest.Reply{Text: "trusted answer"})
	errOut, req = run("hi again")
	raw = string(req.Raw)
	if strings.Contains(errOut, "until you trust") || !strings.Contains(raw, "HOOK-CONTEXT-1") || !strings.Contains(raw, "Deploys the fixture app") ||
		!slices.Contains(req.Tools, "mcp__fixture__echo") {
		t.Fatalf("trusted: want hook context, skill and MCP tool; tools %v\nstderr %s\n%s", req.Tools, errOut, raw)
	}
	reqs := model.Requests()
	if last := reqs[len(reqs)-1]; !strings.Contains(string(last.Raw), "ping-42") {
		t.Errorf("the MCP tool's result did not come back:\n%s", last.Raw)
	}

	model.Push(llmtest.Reply{Text: "reviewed"})
	if _, req = run("/review main.go"); !strings.Contains(string(req.Raw), "Please review main.go carefully.") {
		t.Errorf("/review was not expanded:\n%s", req.Raw)
	}

	writeHook(t, hook, "HOOK-CONTEXT-2") // what runs changed: it waits for trust again
	model.Push(llmtest.Reply{Text: "changed answer"})
	errOut, req = run("and now")
	if !strings.Contains(errOut, "changed since you trusted them") || strings.Contains(string(req.Raw), "HOOK-CONTEXT") {
		t.Errorf("a changed hook ran or was not announced:\nstderr %s\n%s", errOut, req.Raw)
	}
	if out := c.ok("project", "show", dir); !strings.HasPrefix(out, dir+": changed") {
		t.Errorf("show after the change:\n%s", out)
	}
}

func writeHook(t *testing.T, path, text string) {
	t.Helper()
	body := "#!/bin/sh\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"" + text + "\"}}'\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
