package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// recordingCodeIntel is a language server that covers the project when
// covers is set and records what the loop tells it.
type recordingCodeIntel struct {
	covers bool
	mu     sync.Mutex
	read   []string
	wrote  []string
	asked  []lifecycle.CodeQuery
}

func (c *recordingCodeIntel) Covers(context.Context, string) bool { return c.covers }
func (c *recordingCodeIntel) FileRead(_ context.Context, _, path, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.read = append(c.read, path+"="+text)
}
func (c *recordingCodeIntel) FileWritten(_ context.Context, _, path, text string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wrote = append(c.wrote, path+"="+text)
	return "Diagnostics from fakels:\nmain.go:1:1 error broken (fake)"
}
func (c *recordingCodeIntel) Query(_ context.Context, _ string, q lifecycle.CodeQuery) lifecycle.ToolResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, q)
	return lifecycle.ToolResult{Text: "main.go:1:9: package main"}
}

// The lsp tool is offered only when a server covers the project, runs
// without asking (it only reads), gets the file's absolute path, text
// and 1-based position; read_file opens the file in the server and an
// approved edit's result gets the server's diagnostics.
func TestLSPToolAndDiagnosticsThroughTheLoop(t *testing.T) {
	ci := &recordingCodeIntel{}
	e := newEnv(t)
	e.codeIntel = ci
	e.open()
	e.file("main.go", "package main\n")
	s := e.newSession()
	e.server.Push(llmtest.Reply{Text: "no servers"})
	e.send(s, "hi")
	if tools := e.server.Requests()[0].Tools; strings.Contains(strings.Join(tools, ","), "lsp") {
		t.Fatalf("lsp offered without a covering server: %q", tools)
	}

	ci.covers = true
	e.approver.answers = []Decision{AllowOnce} // the edit; the lsp call must not ask
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "lsp", Args: `{"operation":"hover","filePath":"main.go","line":1,"character":9}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"main.go"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Args: `{"path":"main.go","old_string":"main","new_string":"mian"}`}}},
		llmtest.Reply{Text: "done"},
	)
	e.send(s, "look")
	reqs := e.server.Requests()
	if len(reqs) != 5 || !strings.Contains(strings.Join(reqs[1].Tools, ","), "lsp") {
		t.Fatalf("%d requests; tools %q", len(reqs), reqs[1].Tools)
	}
	if len(e.approver.requests) != 1 || e.approver.requests[0].Tool != "edit_file" {
		t.Errorf("approvals asked: %+v (only the edit should ask)", e.approver.requests)
	}
	main := e.project.Path + "/main.go"
	if len(ci.asked) != 1 || ci.asked[0].Path != main || ci.asked[0].Text != "package main\n" || ci.asked[0].Line != 1 || ci.asked[0].Character != 9 {
		t.Errorf("queries: %+v", ci.asked)
	}
	last := func(i int) string { m := reqs[i].Messages; return strings.Join(m[len(m)-1].ToolResults, "\n") }
	if got := last(2); got != "main.go:1:9: package main" {
		t.Errorf("lsp result %q", got)
	}
	if len(ci.read) != 1 || ci.read[0] != main+"=package main\n" {
		t.Errorf("files opened: %q", ci.read)
	}
	if len(ci.wrote) != 1 || ci.wrote[0] != main+"=package mian\n" {
		t.Errorf("files written: %q", ci.wrote)
	}
	if got := last(4); !strings.HasSuffix(got, "\n\nDiagnostics from fakels:\nmain.go:1:1 error broken (fake)") {
		t.Errorf("edit result %q", got)
	}
}
