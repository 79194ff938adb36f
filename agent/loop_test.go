package agent

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

func TestToolRoundTrip(t *testing.T) {
	e := newEnv(t)
	e.file("notes.txt", "the answer is 42\n")
	e.server.Push(
		llmtest.Reply{Text: "Let me look.", ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		llmtest.Reply{Text: "It says **42**."},
	)
	s := e.newSession()
	e.send(s, "what does notes.txt say?")

	reqs := e.server.WaitRequests(t, 2)
	second := reqs[1]
	assertAlternating(t, second)
	if got := second.Roles(); !reflect.DeepEqual(got, []string{"user", "assistant", "tool"}) {
		t.Fatalf("roles = %v", got)
	}
	if res := second.Messages[2].ToolResults; len(res) != 1 || !strings.Contains(res[0], "the answer is 42") {
		t.Fatalf("tool result sent back = %q", res)
	}
	if second.Messages[2].ToolCallIDs[0] != second.Messages[1].ToolCallIDs[0] {
		t.Error("the result must answer the call's id")
	}
	var roles []llm.Role
	for _, en := range s.Entries() {
		if en.Role != RoleHost {
			roles = append(roles, en.Role)
		}
	}
	if !reflect.DeepEqual(roles, []llm.Role{llm.RoleUser, llm.RoleAssistant, llm.RoleTool, llm.RoleAssistant}) {
		t.Fatalf("stored roles = %v", roles)
	}
	if len(e.approver.requests) != 0 {
		t.Error("a read inside the project must not ask")
	}
}

func TestDenialStopsTheBatchAndIsReadable(t *testing.T) {
	e := newEnv(t)
	e.approver.answers = []Decision{Deny}
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			{Name: "write_file", Args: `{"path":"a.txt","content":"x"}`},
			{Name: "run_command", Args: `{"command":"touch b.txt"}`},
		}},
		llmtest.Reply{Text: "Understood."},
	)
	s := e.newSession()
	e.send(s, "write a and b")

	if len(e.approver.requests) != 1 || e.approver.requests[0].Tool != "write_file" {
		t.Fatalf("approvals asked = %+v; the denial must stop the batch before the command", e.approver.requests)
	}
	results := toolResults(e.server.WaitRequests(t, 2)[1])
	if len(results) != 2 || !strings.Contains(results[0], "denied") || !strings.Contains(results[1], "not run") {
		t.Fatalf("results = %q", results)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(e.project.Path, f)); err == nil {
			t.Errorf("%s was created despite the denial", f)
		}
	}
}

func TestAllowOnceAndAlwaysForSession(t *testing.T) {
	e := newEnv(t)
	e.approver.answers = []Decision{AllowSession, AllowOnce}
	edit := func(n string) llmtest.Reply {
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"` + n + `","content":"x"}`}}}
	}
	e.server.Push(edit("one.txt"), llmtest.Reply{Text: "ok"}, edit("two.txt"), llmtest.Reply{Text: "ok"},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"true"}`}}}, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "one")
	e.send(s, "two")
	e.send(s, "run")
	for _, f := range []string{"one.txt", "two.txt"} {
		if _, err := os.Stat(filepath.Join(e.project.Path, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if len(e.approver.requests) != 2 || e.approver.requests[1].Tool != "run_command" {
		t.Fatalf("requests = %+v: 'always' for write_file must cover the second edit but not the command", e.approver.requests)
	}
	if e.approver.requests[1].Preview.Command != "true" || e.approver.requests[1].Preview.Dir == "" {
		t.Errorf("a command approval shows the exact command and its folder: %+v", e.approver.requests[1].Preview)
	}
}

func TestToolErrorsBecomeResults(t *testing.T) {
	e := newEnv(t)
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"missing.txt"}`}, {Name: "no_such_tool", Args: `{}`}}},
		llmtest.Reply{Text: "The file does not exist."},
	)
	s := e.newSession()
	e.send(s, "read missing.txt")
	results := toolResults(e.server.WaitRequests(t, 2)[1])
	if len(results) != 2 || results[0] == "" || !strings.Contains(results[1], "unknown tool") {
		t.Fatalf("results = %q", results)
	}
	for _, en := range s.Entries() {
		if en.Role == llm.RoleTool {
			for _, p := range en.Parts {
				if !p.IsError {
					t.Errorf("result %q must be marked as an error", p.Text)
				}
			}
		}
	}
}

func TestStopMidStreamKeepsPartialAndLeaksNothing(t *testing.T) {
	e := newEnv(t)
	hold := make(chan struct{})
	defer close(hold)
	e.server.Push(llmtest.Reply{Text: "partial answer that never ends", Hold: hold})
	s := e.newSession()
	before := runtime.NumGoroutine()
	s.Submit("go")
	e.server.WaitRequests(t, 1)
	waitFor(t, "the first delta", func() bool { _, st := s.Bus().Drain(); return st.Active || hasAssistant(s) })
	s.Stop()
	e.idle(s)
	if got := hostTexts(s, HostStopped); len(got) != 1 {
		t.Fatalf("stopped notices = %v", got)
	}
	if !hasAssistant(s) {
		t.Error("the partial answer must be kept")
	}
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before+2 })
}

func TestStopMidToolKillsTheCommand(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	s := e.newSession()
	// Inside the project: the one place a confined command may write.
	marker := filepath.Join(e.project.Path, "started")
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command",
		Args: `{"command":"touch ` + marker + ` && sleep 1000"}`}}}, llmtest.Reply{Text: "after"})
	s.Submit("run it")
	waitFor(t, "the command to start", func() bool { _, err := os.Stat(marker); return err == nil })
	began := time.Now()
	s.Stop()
	e.idle(s)
	if took := time.Since(began); took > 10*time.Second {
		t.Fatalf("stop took %v", took)
	}
	for _, en := range s.Entries() {
		if en.Role == llm.RoleTool && !en.Parts[0].IsError {
			t.Error("a stopped command's result must be an error the model can read")
		}
	}
}

func TestQueuedPromptFiresUserPromptSubmitOnceWhenActive(t *testing.T) {
	e := newEnv(t)
	hold := make(chan struct{})
	e.server.Push(llmtest.Reply{Text: "first", Hold: hold}, llmtest.Reply{Text: "second"})
	s := e.newSession()
	s.Submit("one")
	e.server.WaitRequests(t, 1)
	s.Submit("two")
	if q := s.Queued(); !reflect.DeepEqual(q, []string{"two"}) {
		t.Fatalf("queued = %v", q)
	}
	if n := e.life.count("UserPromptSubmit:two"); n != 0 {
		t.Fatalf("UserPromptSubmit fired %d times for a prompt still queued", n)
	}
	close(hold)
	e.idle(s)
	if n := e.life.count("UserPromptSubmit:two"); n != 1 {
		t.Fatalf("UserPromptSubmit for the queued prompt fired %d times, want 1", n)
	}
	reqs := e.server.Requests()
	if got := joined(reqs[1].LastMessage()); got != "two" {
		t.Errorf("second request ends with %q", got)
	}
}

func TestHiddenContextPlacementAndVisibility(t *testing.T) {
	e := newEnv(t)
	e.life.setEnabled("ext")
	e.life.start[lifecycle.SourceStartup] = "RULES: be brief"
	e.life.prompt = func(ev lifecycle.PromptEvent) lifecycle.HookResult {
		return lifecycle.HookResult{Blocks: []lifecycle.ContextBlock{{Source: "ext", Event: lifecycle.EventUserPromptSubmit, Text: "MODE: full"}},
			Notices: []lifecycle.Notice{{Kind: lifecycle.NoticeStatus, Source: "ext", Label: "Ext", Text: "EXT:FULL"}}}
	}
	s := e.newSession()
	e.send(s, "hello there")
	r := e.server.WaitRequests(t, 1)[0]
	assertAlternating(t, r)
	if strings.Count(r.System, "RULES: be brief") != 1 || !strings.Contains(r.System, `<extension-context source="ext" event="SessionStart">`) {
		t.Fatalf("system prompt lacks the SessionStart block exactly once:\n%s", r.System)
	}
	user := r.Messages[0]
	if len(user.Texts) != 2 || !strings.Contains(user.Texts[0], "MODE: full") || user.Texts[1] != "hello there" {
		t.Fatalf("user message parts = %q; want the context part first and the prompt unchanged", user.Texts)
	}
	for _, en := range s.Entries() {
		if en.Role == llm.RoleUser && en.Message().Text() != "hello there" {
			t.Errorf("visible text = %q: hidden context must not show as text", en.Message().Text())
		}
	}
	if chips := hostTexts(s, HostStatus); !reflect.DeepEqual(chips, []string{"EXT:FULL"}) {
		t.Errorf("status chips = %v", chips)
	}
	if strings.Contains(string(r.Raw), "EXT:FULL") {
		t.Error("a systemMessage must never reach the model")
	}

	e.life.setEnabled() // disabled: its context leaves the very next request
	e.send(s, "again")
	r = e.server.Requests()[1]
	if strings.Contains(string(r.Raw), "MODE: full") || strings.Contains(r.System, "RULES") {
		t.Fatalf("a disabled extension's context is still sent:\n%s", r.Raw)
	}
}

func TestResumeRestoresTheExactRequest(t *testing.T) {
	e := newEnv(t)
	e.life.setEnabled("ext")
	e.life.start[lifecycle.SourceStartup] = "RULES v1"
	e.life.start[lifecycle.SourceResume] = "RULES v1"
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "list_dir", Args: `{"path":"."}`}}}, llmtest.Reply{Text: "done"})
	s := e.newSession()
	e.send(s, "look around")
	before := e.server.Requests()[1]
	id := s.ID()
	s.Close()
	e.db.Close()

	e.open() // restart
	s = e.resume(id)
	e.send(s, "and now?")
	after := e.server.Requests()[2]
	if after.System != before.System {
		t.Fatalf("system prompt changed across restart with identical SessionStart output:\nbefore %q\nafter  %q", before.System, after.System)
	}
	if !reflect.DeepEqual(after.Messages[:len(after.Messages)-2], before.Messages) {
		t.Fatalf("restored conversation differs:\nbefore %+v\nafter  %+v", before.Messages, after.Messages)
	}
	if n := countHost(s, HostContext); n != 1 {
		t.Errorf("identical resume output added a context marker: %d markers", n)
	}
}

func TestHostCommandsNeverReachHooksOrModel(t *testing.T) {
	e := newEnv(t)
	s := e.newSession()
	e.send(s, "/help")
	e.send(s, "/compact")
	if n := e.life.count("UserPromptSubmit"); n != 0 {
		t.Fatalf("host commands fired UserPromptSubmit %d times", n)
	}
	if n := len(e.server.Requests()); n != 0 {
		t.Fatalf("host commands made %d model requests", n)
	}
	if got := hostTexts(s, HostInfo); len(got) != 2 || !strings.Contains(got[0], "/ralph") || !strings.Contains(got[1], "Nothing to compact") {
		t.Fatalf("answers = %q", got)
	}
}

// Claude with extended thinking: the thinking of a tool-calling message is
// stored with its signature (and redacted thinking with its data) and goes
// back leading that message, in the turn and after a restart. The fake
// refuses a tool loop without it, as the API does.
func TestAnthropicThinkingSurvivesTheToolLoopAndARestart(t *testing.T) {
	e := newEnv(t)
	e.server, e.thinking = llmtest.NewAnthropic(t), 2048
	e.file("notes.txt", "the answer is 42\n")
	e.server.Push(
		llmtest.Reply{Reasoning: "I should read it.", Signature: "sig-a", Redacted: "opaque", ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		llmtest.Reply{Reasoning: "It says 42.", Text: "It says 42."},
	)
	s := e.newSession()
	e.send(s, "what does notes.txt say?")
	if errs := hostTexts(s, HostError); len(errs) != 0 {
		t.Fatalf("errors: %q", errs)
	}
	e.server.WaitRequests(t, 2)

	// After a restart the stored thinking still satisfies the API when the
	// model calls a tool again and the loop continues.
	id := s.ID()
	s.Close()
	e.open()
	s = e.resume(id)
	e.server.Push(
		llmtest.Reply{Reasoning: "Read it again.", ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		llmtest.Reply{Text: "Still 42."},
	)
	e.send(s, "and now?")
	if errs := hostTexts(s, HostError); len(errs) != 0 {
		t.Fatalf("errors after restart: %q", errs)
	}
	reqs := e.server.WaitRequests(t, 4)
	first := reqs[2].Body["messages"].([]any)[1].(map[string]any)["content"].([]any)
	if b := first[0].(map[string]any); b["type"] != "thinking" || b["signature"] != "sig-a" {
		t.Errorf("the restored first answer starts with %v, want its signed thinking", b)
	}
	if b := first[1].(map[string]any); b["type"] != "redacted_thinking" || b["data"] != "opaque" {
		t.Errorf("then %v, want the redacted thinking unchanged", b)
	}
}

func TestProviderErrorIsShownAndTurnEnds(t *testing.T) {
	e := newEnv(t)
	e.server.Push(llmtest.Reply{Status: 401, ErrorBody: llmtest.OpenAIError(401, "bad key", "invalid_api_key")})
	s := e.newSession()
	e.send(s, "hi")
	errs := hostTexts(s, HostError)
	if len(errs) != 1 || !strings.Contains(errs[0], "API key") {
		t.Fatalf("errors = %q", errs)
	}
}

func TestSessionTitleFromFirstPrompt(t *testing.T) {
	e := newEnv(t)
	s := e.newSession()
	e.send(s, "fix the parser\nit breaks on empty input")
	list, _ := e.agent.Sessions(context.Background(), e.project)
	if len(list) != 1 || list[0].Title != "fix the parser" {
		t.Fatalf("sessions = %+v", list)
	}
}

func hasAssistant(s *Session) bool {
	for _, en := range s.Entries() {
		if en.Role == llm.RoleAssistant {
			return true
		}
	}
	return false
}

func countHost(s *Session, kind HostKind) int { return len(hostTexts(s, kind)) }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A prompt the model never answered goes back (the host entry carries it)
// and leaves the conversation: the next prompt is sent alone, also after
// a restart, never glued to the failed one.
func TestUnansweredPromptIsReturnedNotMerged(t *testing.T) {
	e := newEnv(t)
	e.server.Push(llmtest.Reply{Status: 500, ErrorBody: llmtest.OpenAIError(500, "server melted", "server_error")}, llmtest.Reply{Text: "hello"})
	s := e.newSession()
	e.send(s, "first try")
	var failed *Host
	for _, en := range s.Entries() {
		if en.Host != nil && en.Host.Kind == HostError {
			failed = en.Host
		}
	}
	if failed == nil || failed.Prompt != "first try" || failed.Unsent == 0 {
		t.Fatalf("the error must hand the prompt back: %+v", failed)
	}
	e.send(s, "second try")
	req := e.server.Requests()[len(e.server.Requests())-1]
	var users []string
	for _, m := range req.Messages {
		if m.Role == "user" {
			users = append(users, joined(m))
		}
	}
	if len(users) != 1 || users[0] != "second try" {
		t.Fatalf("user messages sent = %q; the failed prompt must not be sent again", users)
	}
	s.Close()
	r := e.resume(s.ID())
	for _, m := range r.messages(r.main) {
		if m.Role == "user" && strings.Contains(m.Text(), "first try") {
			t.Fatal("after a restart the failed prompt is back in the context")
		}
	}
	e.server.Push(llmtest.Reply{Text: "the summary"})
	e.send(r, "/compact")
	summary := e.server.Requests()[len(e.server.Requests())-1]
	if text := joined(summary.Messages[0]); strings.Contains(text, "first try") || !strings.Contains(text, "second try") {
		t.Fatalf("the summary request must leave the unanswered prompt out: %q", text)
	}
}
