package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// wires runs a test against both fake wire formats.
var wires = []struct {
	name      string
	start     func(testing.TB) *llmtest.Server
	truncated string // the format's finish reason for an answer cut at max_tokens
}{
	{"openai", llmtest.NewOpenAI, "length"},
	{"anthropic", llmtest.NewAnthropic, "max_tokens"},
}

func TestTruncatedAnswerIsKeptMarkedAndItsToolCallsNeverRun(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			e := newEnvOn(t, w.start(t))
			e.approver.answers = []Decision{AllowOnce}
			e.server.Push(llmtest.Reply{Text: "Here is the start of a long", Finish: w.truncated,
				ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","content":"x"}`}}})
			s := e.newSession()
			e.send(s, "write a lot")

			if got := hostTexts(s, HostTruncated); len(got) != 1 || !strings.Contains(got[0], "truncated") {
				t.Fatalf("truncated notices = %q", got)
			}
			if errs := hostTexts(s, HostError); len(errs) != 0 {
				t.Fatalf("a truncated answer is not a failure: %q", errs)
			}
			assertNoToolRan(t, e, s)
			if text := lastAssistantText(s); text != "Here is the start of a long" {
				t.Fatalf("kept text = %q", text)
			}
			// The state survives a restart.
			id := s.ID()
			s.Close()
			e.open()
			if got := hostTexts(e.resume(id), HostTruncated); len(got) != 1 {
				t.Fatalf("after reopening, truncated notices = %q", got)
			}
		})
	}
}

func TestFinishReasonErrorFailsTheTurnAndRunsNoTool(t *testing.T) {
	e := newEnv(t)
	e.approver.answers = []Decision{AllowOnce}
	// ds4-server's bytes for a tool call the model never closed: the
	// arguments so far, then finish_reason "error".
	e.server.Push(llmtest.Reply{Text: "Creating it.", Finish: "error",
		ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","con`}}})
	s := e.newSession()
	e.send(s, "create a.txt")

	errs := hostTexts(s, HostError)
	if len(errs) != 1 || !strings.Contains(errs[0], "failed while writing the answer") || !strings.Contains(errs[0], `"error"`) {
		t.Fatalf("errors = %q", errs)
	}
	assertNoToolRan(t, e, s)
	if text := lastAssistantText(s); text != "Creating it." {
		t.Fatalf("the partial text is kept as written, got %q", text)
	}
}

func TestKeepalivesKeepALongPrefillAlive(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			e := newEnvOn(t, w.start(t))
			// Shortened clock: no byte for 600 ms would be a timeout, and the
			// prefill takes 12 × 100 ms of keepalives before the first event.
			e.deadlines = func(c *llm.Config) { c.FirstByteTimeout, c.IdleTimeout = 600*time.Millisecond, 600*time.Millisecond }
			e.server.Push(llmtest.Reply{Text: "done prefilling", Keepalives: 12, KeepaliveEvery: 100 * time.Millisecond})
			s := e.newSession()
			statuses := watchStatuses(s)
			e.send(s, "a very long prompt")

			if errs := hostTexts(s, HostError); len(errs) != 0 {
				t.Fatalf("keepalives must keep the call alive: %q", errs)
			}
			if text := lastAssistantText(s); text != "done prefilling" {
				t.Fatalf("answer = %q", text)
			}
			if got := statuses(); !strings.Contains(got, "prefilling… ") {
				t.Fatalf("statuses shown = %q, want a prefilling status", got)
			}
		})
	}
}

func TestSilenceAfterKeepalivesStillTimesOut(t *testing.T) {
	e := newEnv(t)
	e.deadlines = func(c *llm.Config) { c.FirstByteTimeout, c.IdleTimeout = 300*time.Millisecond, 200*time.Millisecond }
	hold := make(chan struct{})
	defer close(hold)
	e.server.Push(llmtest.Reply{Keepalives: 1, KeepaliveEvery: 10 * time.Millisecond, FirstByteDelay: 0, Text: "never", Hold: hold})
	s := e.newSession()
	e.send(s, "hi")
	if errs := hostTexts(s, HostError); len(errs) != 1 {
		t.Fatalf("errors = %q, want the silence reported", errs)
	}
}

func assertNoToolRan(t *testing.T, e *env, s *Session) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(e.project.Path, "a.txt")); err == nil {
		t.Fatal("the tool call of an unfinished answer ran")
	}
	if len(e.approver.requests) != 0 {
		t.Fatalf("approval was asked for an unfinished tool call: %+v", e.approver.requests)
	}
	for _, en := range s.Entries() {
		if en.Role == llm.RoleTool || len(en.Message().ToolCalls()) > 0 {
			t.Fatalf("stored %s entry with tool parts: %+v", en.Role, en.Parts)
		}
	}
	if n := len(e.server.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1 (the turn ends)", n)
	}
}

func lastAssistantText(s *Session) string {
	text := ""
	for _, en := range s.Entries() {
		if en.Role == llm.RoleAssistant {
			text = en.Message().Text()
		}
	}
	return text
}

// watchStatuses returns a function listing the status lines the session
// published so far (nothing else drains the bus in these tests).
func watchStatuses(s *Session) func() string {
	return func() string {
		events, _ := s.Bus().Drain()
		var out []string
		for _, ev := range events {
			if ev.Kind == EventStatus {
				out = append(out, ev.Status)
			}
		}
		return strings.Join(out, " | ")
	}
}

func TestAPromptLargerThanTheWindowIsRefusedNotSent(t *testing.T) {
	e := newEnv(t)
	e.window = 2000
	s := e.newSession()
	e.send(s, strings.Repeat("word ", 3000)) // ~3,750 tokens
	errs := hostTexts(s, HostError)
	if len(errs) != 1 || !strings.Contains(errs[0], "more than the model's context window of 2000 tokens") {
		t.Fatalf("errors = %q", errs)
	}
	for _, r := range e.server.Requests() {
		if strings.Contains(strings.Join(r.LastMessage().Texts, ""), "word word") {
			t.Fatal("a request over the window was sent")
		}
	}
}
