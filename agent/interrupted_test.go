package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/storage"
)

// storeEntry writes an entry straight to the database, as a process that
// is then killed leaves it.
func (e *env) storeEntry(session string, en Entry) {
	e.t.Helper()
	body, err := encodeEntry(en)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.db.AppendMessage(context.Background(), storage.Message{SessionID: session, Role: string(en.Role), Parts: body}); err != nil {
		e.t.Fatal(err)
	}
}

// A session left by a crash mid batch (two calls, one result stored)
// gets one "interrupted" result for the other call when it is loaded,
// once, shown in the transcript; the next request answers every call, in
// both wire formats, and nothing runs again.
func TestInterruptedBatchIsAnsweredOnLoad(t *testing.T) {
	for _, w := range []struct {
		name string
		srv  func(testing.TB) *llmtest.Server
	}{{"openai", llmtest.NewOpenAI}, {"anthropic", llmtest.NewAnthropic}} {
		t.Run(w.name, func(t *testing.T) {
			e := newEnvOn(t, w.srv(t))
			s := e.newSession()
			e.idle(s)
			id := s.ID()
			s.Close()
			e.storeEntry(id, Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "do two things"}}})
			e.storeEntry(id, Entry{Role: llm.RoleAssistant, Parts: []llm.Part{
				{Kind: llm.PartToolCall, CallID: "c1", Name: "list_dir", Args: `{"path":"."}`},
				{Kind: llm.PartToolCall, CallID: "c2", Name: "run_command", Args: `{"command":"sleep 30"}`}}})
			e.storeEntry(id, Entry{Role: llm.RoleTool, Parts: []llm.Part{{Kind: llm.PartToolResult, CallID: "c1", Name: "list_dir", Text: "FAST RESULT"}}})

			s = e.resume(id)
			e.idle(s)
			s.Close()
			s = e.resume(id) // a second load adds nothing
			var interrupted []Entry
			for _, en := range s.Entries() {
				if en.Role == llm.RoleTool && en.Parts[0].CallID == "c2" {
					interrupted = append(interrupted, en)
				}
			}
			if len(interrupted) != 1 || interrupted[0].Parts[0].Text != InterruptedResult || !interrupted[0].Parts[0].IsError {
				t.Fatalf("results for the cut call = %+v, want one %q", interrupted, InterruptedResult)
			}
			e.server.Push(llmtest.Reply{Text: "carrying on"})
			e.send(s, "go on")
			req := e.server.Requests()[0]
			if bad := req.Unanswered(); bad != "" {
				t.Fatalf("the next request would be rejected: %s\n%+v", bad, req.Messages)
			}
			var results []string
			for _, m := range req.Messages {
				results = append(results, m.ToolResults...)
			}
			if got := strings.Join(results, "|"); !strings.Contains(got, "FAST RESULT") || !strings.Contains(got, InterruptedResult) {
				t.Fatalf("results sent = %q", got)
			}
			if n := len(e.approver.requests); n != 0 {
				t.Fatalf("the interrupted command was offered again (%d approvals)", n)
			}
		})
	}
}

// Each result of a batch is its own stored message, written when its
// call ends, not when the batch does.
func TestEachToolResultIsStoredAsItsCallEnds(t *testing.T) {
	e := newEnv(t)
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "list_dir", Args: `{"path":"."}`}, {Name: "list_dir", Args: `{"path":"."}`}}},
		llmtest.Reply{Text: "done"})
	s := e.newSession()
	e.send(s, "look twice")
	rows, err := e.db.Messages(context.Background(), s.ID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, r := range rows {
		if r.Role != string(RoleHost) {
			roles = append(roles, r.Role)
		}
	}
	if got := strings.Join(roles, ","); got != "user,assistant,tool,tool,assistant" {
		t.Fatalf("stored roles = %s", got)
	}
	if bad := e.server.Requests()[1].Unanswered(); bad != "" {
		t.Fatal(bad)
	}
}
