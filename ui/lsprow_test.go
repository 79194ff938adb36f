package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// fakeCodeIntel is a language server that finds the caller broken after
// every write.
type fakeCodeIntel struct{}

func (fakeCodeIntel) Covers(context.Context, string) bool              { return true }
func (fakeCodeIntel) FileRead(context.Context, string, string, string) {}
func (fakeCodeIntel) Query(context.Context, string, lifecycle.CodeQuery) lifecycle.ToolResult {
	return lifecycle.ToolResult{Text: "No results."}
}
func (fakeCodeIntel) FileWritten(context.Context, string, string, string) string {
	return "Diagnostics from gopls:\nmain.go:6:14 error undefined: greet (compiler)\nmain.go:9:2 warning x declared and not used (compiler)"
}

// lspRowSession runs one turn whose edit gets diagnostics.
func lspRowSession(t *testing.T) (*harness, *UI) {
	server := llmtest.NewOpenAI(t)
	server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Args: `{"path":"util.go","old_string":"func greet","new_string":"func hello"}`}}},
		llmtest.Reply{Text: "Renamed `greet` to `hello`; **main.go** still calls `greet`, fixing it next."},
	)
	h := newHarness(t, harnessOptions{provider: fakeProvider(server), policy: agent.PolicyNever, codeIntel: fakeCodeIntel{}})
	if err := os.WriteFile(filepath.Join(h.project, "util.go"), []byte("package main\n\nfunc greet() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := h.open(true)
	u.main.Resize(fyne.NewSize(1000, 560))
	u.chat.onSend("Rename greet to hello")
	h.loop.waitFor(t, "the answer", func() bool { return strings.Contains(windowText(u.main), "fixing it next") })
	h.loop.waitFor(t, "the turn to end", func() bool { return u.chat.session != nil && !u.chat.session.Busy() })
	h.relayout(u.main)
	h.loop.runQueued()
	return h, u
}

// A write whose result carries a language server's diagnostics shows them
// on its tool row, counted, with the first error named.
func TestToolRowShowsDiagnostics(t *testing.T) {
	_, u := lspRowSession(t)
	text := windowText(u.main)
	if !strings.Contains(text, "⚠ 1 error, 1 warning from gopls: main.go:6:14 error undefined: greet (compiler)") {
		t.Errorf("the tool row does not show the diagnostics:\n%s", text)
	}
}
