package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// ds4-server's failures, in the bytes it sends on each endpoint
// (ds4_server.c): a tool call the model never closed ("unterminated tool
// call": finish_reason "error" on /v1/chat/completions; on /v1/messages a
// tool_use block left open and stop_reason "end_turn", which the SDK turns
// into a complete-looking call with input {}), and a prefill that fails
// after the keepalives began (an in-band "event: error").
func TestDs4FailuresFailTheTurnAndRunNoTool(t *testing.T) {
	cases := []struct {
		name  string
		reply llmtest.Reply
		want  string // in the error shown
	}{
		{"unterminated tool call", llmtest.Reply{Text: "Creating it.", Unterminated: true,
			ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","con`}}}, "failed while writing the answer"},
		{"prefill failure after keepalives", llmtest.Reply{Keepalives: 2, KeepaliveEvery: 10 * time.Millisecond,
			ServerError: "prefill failed: out of memory"}, "prefill failed: out of memory"},
	}
	for _, w := range wires {
		for _, tt := range cases {
			t.Run(w.name+"/"+tt.name, func(t *testing.T) {
				e := newEnvOn(t, w.start(t))
				e.approver.answers = []Decision{AllowOnce}
				e.server.Push(tt.reply)
				s := e.newSession()
				e.send(s, "create a.txt")

				errs := hostTexts(s, HostError)
				if len(errs) != 1 || !strings.Contains(errs[0], tt.want) {
					t.Fatalf("errors = %q, want one containing %q", errs, tt.want)
				}
				assertNoToolRan(t, e, s)
				if text := lastAssistantText(s); text != tt.reply.Text {
					t.Fatalf("kept text = %q, want %q", text, tt.reply.Text)
				}
			})
		}
	}
}

// The same bytes with the tool call closed are an ordinary tool step:
// the detection above keys on the missing close, nothing else.
func TestDs4ClosedToolCallRuns(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			e := newEnvOn(t, w.start(t))
			e.approver.answers = []Decision{AllowOnce}
			e.server.Push(llmtest.Reply{Text: "Creating it.",
				ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","content":"x"}`}}},
				llmtest.Reply{Text: "done"})
			s := e.newSession()
			e.send(s, "create a.txt")
			if errs := hostTexts(s, HostError); len(errs) != 0 {
				t.Fatalf("errors = %q", errs)
			}
			tools := 0
			for _, en := range s.Entries() {
				if en.Role == llm.RoleTool {
					tools++
				}
			}
			if tools != 1 {
				t.Fatalf("%d tool results, want 1", tools)
			}
		})
	}
}
