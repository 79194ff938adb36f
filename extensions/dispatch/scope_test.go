//go:build unix

package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

// scopedPlugin is the MCP fixture plugin with a skill and a
// UserPromptSubmit hook that adds context, so each kind of contribution
// can be looked for in a request.
func scopedPlugin(t *testing.T) map[string]gittest.File {
	files := mcpPlugin(t)
	files["skills/scoped-skill/SKILL.md"] = gittest.File{Body: "---\nname: scoped-skill\ndescription: SCOPED-SKILL-DESC\n---\nbody\n"}
	files["hooks/hooks.json"] = gittest.File{Body: `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/prompt.sh"}]}]}}`}
	files["hooks/prompt.sh"] = gittest.File{Body: "#!/bin/sh\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"SCOPED-HOOK-CONTEXT\"}}'\n", Mode: 0o755}
	return files
}

func requestText(r llmtest.Request) string {
	parts := []string{r.System}
	for _, m := range r.Messages {
		parts = append(parts, m.Texts...)
	}
	return strings.Join(parts, "\n")
}

// An extension enabled only in project A: in a session of project B its
// skill, its hook's context and its MCP tools are absent and its server
// is not started; in a session of A all three are there.
func TestExtensionEnabledOnlyInOneProject(t *testing.T) {
	t.Setenv("MY_GREETING", "hi")
	l := newLoopEnv(t, map[string]*gittest.Repo{"mcpfix": repo(t, scopedPlugin(t))})
	e := withMCP(t, l, agent.AllowOnce)
	info := e.install("mcpfix", "")
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, dir := range []string{a, b} {
		os.MkdirAll(dir, 0o755)
	}
	a, _ = filepath.EvalSymlinks(a)
	tr, err := e.m.TrustPrompt(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.EnableIn(context.Background(), info.ID, tr.Hash, a); err != nil {
		t.Fatal(err)
	}

	e.project = b
	e.model.Push(llmtest.Reply{Text: "in b"})
	inB := e.send(e.session(), "hello")
	if slices.Contains(inB.Tools, echoTool) || strings.Contains(requestText(inB), "SCOPED-SKILL-DESC") ||
		strings.Contains(requestText(inB), "SCOPED-HOOK-CONTEXT") {
		t.Errorf("project B's request has what an extension enabled only in A brings: tools %q\n%s", inB.Tools, requestText(inB))
	}
	if st := e.server("fix").State; st != extensions.MCPNotStarted {
		t.Errorf("its server is %s after a session of project B, want not started", st)
	}

	e.project = a
	e.model.Push(llmtest.Reply{Text: "in a"})
	inA := e.send(e.session(), "hello")
	if !slices.Contains(inA.Tools, echoTool) || !strings.Contains(requestText(inA), "SCOPED-SKILL-DESC") ||
		!strings.Contains(requestText(inA), "SCOPED-HOOK-CONTEXT") {
		t.Errorf("project A's request lacks what the extension brings: tools %q\n%s", inA.Tools, requestText(inA))
	}
}

// A switched-off MCP tool is not in the request while its server's other
// tools are, and a call to it is refused without reaching the server.
func TestSwitchedOffToolIsNeverOffered(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	if err := e.m.SetToolOff(context.Background(), "mcpfix", "fix", "echo", true); err != nil {
		t.Fatal(err)
	}
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"x"}`}}}, llmtest.Reply{Text: "done"})
	last := e.send(s, "echo something")
	first := e.model.Requests()[0]
	if slices.Contains(first.Tools, echoTool) || !slices.Contains(first.Tools, envTool) {
		t.Errorf("tools offered %q: want env without the switched-off echo", first.Tools)
	}
	if got := toolResult(last); strings.HasPrefix(got, "x") || !strings.Contains(got, "unknown tool") {
		t.Errorf("the call to a switched-off tool answered %q", got)
	}
	if srv := e.server("fix"); !slices.Equal(srv.ToolsOff, []string{"echo"}) {
		t.Errorf("card: tools off %q", srv.ToolsOff)
	}
}

// A switched-off tool past the budget is not found by tool_search.
func TestSwitchedOffToolIsNotOnToolSearch(t *testing.T) {
	e := newManyEnv(t, 32768, "")
	if err := e.m.SetToolOff(context.Background(), "many", "fix", mcptest.Tide, true); err != nil {
		t.Fatal(err)
	}
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "tool_search", Args: `{"query":"tide"}`}}}, llmtest.Reply{Text: "done"})
	e.send(s, "when is high water?")
	reqs := e.model.Requests()
	if !slices.Contains(reqs[0].Tools, "tool_search") {
		t.Fatalf("no tool_search offered: %q", reqs[0].Tools)
	}
	if found := toolResult(reqs[1]); strings.Contains(found, tideTool) {
		t.Errorf("tool_search found the switched-off tool:\n%s", found)
	}
	if slices.Contains(reqs[1].Tools, tideTool) {
		t.Error("the switched-off tool was offered after tool_search")
	}
}

// The language servers of an extension enabled only in project A cover
// A's files, not B's, and reading a file of B starts none.
func TestLanguageServersOnlyInTheirProject(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"gopls-lsp": repo(t, lspPlugin("gopls"))})
	info := e.install("gopls-lsp", "")
	a, b := t.TempDir(), t.TempDir()
	a, _ = filepath.EvalSymlinks(a)
	b, _ = filepath.EvalSymlinks(b)
	for _, dir := range []string{a, b} {
		os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	}
	tr, err := e.m.TrustPrompt(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.EnableIn(context.Background(), info.ID, tr.Hash, a); err != nil {
		t.Fatal(err)
	}
	d := e.newDispatcher(testPATH)
	ctx := context.Background()
	if !d.Covers(ctx, a) || d.Covers(ctx, b) {
		t.Fatalf("covers A %v, B %v; want only A", d.Covers(ctx, a), d.Covers(ctx, b))
	}
	d.FileRead(ctx, b, filepath.Join(b, "main.go"), "package main\n")
	live, err := liveShow(ctx, e.m, d, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := live.LSPServers[0].State; st != extensions.LSPNotStarted {
		t.Errorf("after reading a file of B its language server is %s, want not started", st)
	}
}
