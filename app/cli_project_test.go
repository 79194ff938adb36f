package main

import (
	"encoding/json"
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
	dir, docs := t.TempDir(), t.TempDir()
	writeFiles(t, docs, map[string]string{"notes.txt": "NOTES-BESIDE-THE-PROJECT\n"})
	hook := filepath.Join(dir, ".claude/hooks/start.sh")
	writeFiles(t, dir, map[string]string{
		"CLAUDE.md": "Project rule: answer in haiku.\n",
		".claude/settings.json": `{"permissions": {"allow": ["Bash(echo ok:*)"], "deny": ["Read(./secrets/**)"], "additionalDirectories": ["` + docs + `"]},
  "env": {"PROJECT_FLAVOUR": "mint", "DEPLOY_TOKEN": "t0k-in-the-file"},
  "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/start.sh"}]}]}}`,
		".claude/commands/review.md":     "---\ndescription: Review a file\n---\nPlease review $ARGUMENTS carefully.\n",
		".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys the fixture app\n---\nRun make deploy.\n",
		".claude/agents/checker.md":      "---\nname: checker\ndescription: Checks the fixture\ntools: Read\n---\nYou are CHECKER-BODY: check what you are asked.\n",
		"secrets/key.txt":                "SECRET-BYTES\n",
		".mcp.json":                      `{"mcpServers": {"fixture": {"type": "http", "url": "` + srv.URL + `"}}}`,
	})
	writeHook(t, hook, `HOOK-CONTEXT-1 flavour '"$PROJECT_FLAVOUR"'`)

	model := llmtest.NewOpenAI(t)
	c := newCLI(t, "AGENTDESK_BASE_URL="+model.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	run := func(prompt string, flags ...string) (string, llmtest.Request) {
		t.Helper()
		before := len(model.Requests())
		out, errOut, code := c.run("", append(append([]string{"run", "--project", dir, "--new"}, flags...), prompt)...)
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
	if strings.Contains(errOut, "until you trust") || !strings.Contains(raw, "HOOK-CONTEXT-1 flavour mint") || !strings.Contains(raw, "Deploys the fixture app") ||
		!slices.Contains(req.Tools, "mcp__fixture__echo") {
		t.Fatalf("trusted: want hook context, skill and MCP tool; tools %v\nstderr %s\n%s", req.Tools, errOut, raw)
	}
	var shown struct {
		RecentRuns []struct {
			Event string   `json:"event"`
			Argv  []string `json:"argv"`
			Exit  int      `json:"exit"`
		} `json:"recent_runs"`
	}
	if err := json.Unmarshal([]byte(c.ok("project", "show", dir, "--json")), &shown); err != nil || len(shown.RecentRuns) == 0 ||
		shown.RecentRuns[0].Event != "SessionStart" || !strings.HasSuffix(shown.RecentRuns[0].Argv[0], ".claude/hooks/start.sh") {
		t.Errorf("project show lacks the hook's run: %v %+v", err, shown)
	}
	reqs := model.Requests()
	if last := reqs[len(reqs)-1]; !strings.Contains(string(last.Raw), "ping-42") {
		t.Errorf("the MCP tool's result did not come back:\n%s", last.Raw)
	}

	model.Push(llmtest.Reply{Text: "reviewed"})
	if _, req = run("/review main.go"); !strings.Contains(string(req.Raw), "Please review main.go carefully.") {
		t.Errorf("/review was not expanded:\n%s", req.Raw)
	}

	// The project's agent through task: the child's request starts from the agent's body.
	model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "t1", Name: "task", Args: `{"subagent_type":"checker","description":"check","prompt":"Check README"}`}}},
		llmtest.Reply{Text: "checked: fine"}, llmtest.Reply{Text: "the checker says fine"})
	before := len(model.Requests())
	run("delegate")
	if reqs := model.Requests()[before:]; len(reqs) < 2 || !strings.Contains(string(reqs[1].Raw), "CHECKER-BODY") {
		t.Errorf("the project's agent did not run as the child:\n%v", reqs)
	}

	// The project's allow rule runs a command under --approve reads, which
	// would refuse it otherwise; its deny rule refuses a read under --approve all.
	// The command also gets the settings' env, less the credential-named
	// variable; the additional directory is readable.
	model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "run_command", Args: `{"command":"echo ok ALLOWED-RAN flavour=$PROJECT_FLAVOUR token=$DEPLOY_TOKEN."}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r2", Name: "read_file", Args: `{"path":"` + filepath.Join(docs, "notes.txt") + `"}`}}},
		llmtest.Reply{Text: "ran"})
	run("echo", "--approve", "reads")
	if reqs := model.Requests(); !strings.Contains(strings.Join(toolResultsOf(reqs[len(reqs)-1]), "\n"), "ok ALLOWED-RAN flavour=mint token=.") {
		t.Errorf("the allowed command did not run under --approve reads with the settings' env:\n%s", reqs[len(reqs)-1].Raw)
	}
	if reqs := model.Requests(); !strings.Contains(strings.Join(toolResultsOf(reqs[len(reqs)-1]), "\n"), "NOTES-BESIDE-THE-PROJECT") {
		t.Errorf("the additional directory was not readable:\n%s", reqs[len(reqs)-1].Raw)
	}
	model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "d1", Name: "read_file", Args: `{"path":"secrets/key.txt"}`}}},
		llmtest.Reply{Text: "refused"})
	run("read the key", "--approve", "all")
	if reqs := model.Requests(); strings.Contains(string(reqs[len(reqs)-1].Raw), "SECRET-BYTES") ||
		!strings.Contains(strings.Join(toolResultsOf(reqs[len(reqs)-1]), "\n"), "Read(./secrets/**)") {
		t.Errorf("the denied read was not refused under --approve all:\n%s", reqs[len(reqs)-1].Raw)
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
