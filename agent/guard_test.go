package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

func command(cmd string) llmtest.Reply {
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"` + cmd + `"}`}}}
}

func reason(text string) []lifecycle.Reason {
	return []lifecycle.Reason{{Source: "guard", Label: "Guard", Text: text}}
}

func TestPreToolUseDenyStopsTheCallBeforeApproval(t *testing.T) {
	e := newEnv(t)
	e.approver.answers = []Decision{AllowOnce}
	e.life.preTool = func(ev lifecycle.ToolEvent) lifecycle.ToolVerdict {
		if ev.ClaudeTool == "Bash" && strings.Contains(string(ev.Input), "touch") {
			return lifecycle.ToolVerdict{Verdict: lifecycle.Verdict{Reasons: reason("no touching")}}
		}
		return lifecycle.ToolVerdict{}
	}
	e.server.Push(command("touch denied.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")

	if len(e.approver.requests) != 0 {
		t.Fatalf("a denied call must not reach the approval dialog: %+v", e.approver.requests)
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "denied.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	results := toolResults(e.server.WaitRequests(t, 2)[1])
	if len(results) != 1 || !strings.Contains(results[0], "Guard: no touching") || !strings.Contains(results[0], "not run") {
		t.Fatalf("the model must read the reason as the result: %q", results)
	}
	if got := hostTexts(s, HostNotice); len(got) != 1 || !strings.Contains(got[0], "no touching") {
		t.Fatalf("the user must see the denial: %q", got)
	}
	if n := e.life.count("PostToolUse"); n != 0 {
		t.Errorf("PostToolUse fired %d times for a call that never ran", n)
	}
}

func TestPreToolUseNeverApproves(t *testing.T) {
	e := newEnv(t)
	e.life.preTool = func(lifecycle.ToolEvent) lifecycle.ToolVerdict { return lifecycle.ToolVerdict{} } // "allow" merges to nothing
	e.server.Push(command("touch a.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")
	if len(e.approver.requests) != 1 {
		t.Fatalf("an allowing hook must still leave the call to the user: %d requests", len(e.approver.requests))
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "a.txt")); err == nil {
		t.Fatal("the user denied (the scripted default), yet the command ran")
	}
}

// PermissionRequest fires only where the dialog would be shown; a deny
// answers for the user (no dialog; the reason is the result).
func TestPermissionRequestDenyAnswersInsteadOfTheDialog(t *testing.T) {
	e := newEnv(t)
	e.approver.answers = []Decision{AllowOnce}
	e.life.permission = func(ev lifecycle.ToolEvent) lifecycle.PermissionVerdict {
		return lifecycle.PermissionVerdict{Verdict: lifecycle.Verdict{Reasons: reason("not on Fridays")}}
	}
	e.file("notes.txt", "hello")
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		command("touch denied.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "read, then make a file")

	if got := e.life.count("PermissionRequest:"); got != 1 {
		t.Fatalf("PermissionRequest fired %d times; want once, for the command only (a read asks nobody): %v", got, e.life.Calls())
	}
	if len(e.approver.requests) != 0 {
		t.Fatalf("a denied call must not reach the approval dialog: %+v", e.approver.requests)
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "denied.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	results := toolResults(e.server.WaitRequests(t, 3)[2])
	if last := results[len(results)-1]; !strings.Contains(last, "PermissionRequest") || !strings.Contains(last, "Guard: not on Fridays") {
		t.Fatalf("the model must read the reason as the result: %q", results)
	}
	if got := hostTexts(s, HostNotice); len(got) != 1 || !strings.Contains(got[0], "not on Fridays") {
		t.Fatalf("the user must see the denial: %q", got)
	}
	var ev lifecycle.ToolEvent
	for _, x := range e.life.toolEvents {
		if x.ClaudeTool == "Bash" {
			ev = x
		}
	}
	if !strings.Contains(string(ev.Input), "touch denied.txt") || ev.Tool != "run_command" {
		t.Errorf("PermissionRequest event = %+v", ev)
	}
}

// "allow" from a PermissionRequest hook is never honoured: the dialog is
// shown, and the chat says the extension asked to skip it.
func TestPermissionRequestAllowStillAsks(t *testing.T) {
	e := newEnv(t)
	e.life.permission = func(lifecycle.ToolEvent) lifecycle.PermissionVerdict {
		return lifecycle.PermissionVerdict{Allows: reason("trusted command")}
	}
	e.server.Push(command("touch a.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")
	if len(e.approver.requests) != 1 {
		t.Fatalf("an allowing hook must still leave the call to the user: %d requests", len(e.approver.requests))
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "a.txt")); err == nil {
		t.Fatal("the user denied (the scripted default), yet the command ran")
	}
	if got := hostTexts(s, HostNotice); len(got) != 1 || !strings.Contains(got[0], "extensions never approve") || !strings.Contains(got[0], "trusted command") {
		t.Fatalf("the user must be told the allow was not honoured: %q", got)
	}
}

// Where the policy lets a call run, no dialog would be shown, so
// PermissionRequest does not fire.
func TestPermissionRequestOnlyWhereTheDialogWouldShow(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.server.Push(command("touch a.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")
	if n := e.life.count("PermissionRequest"); n != 0 {
		t.Fatalf("PermissionRequest fired %d times where nobody is asked", n)
	}
}

func TestPreToolUseAskForcesTheDialogAndGrantsNothing(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.approver.answers = []Decision{AllowSession, Deny}
	e.life.preTool = func(ev lifecycle.ToolEvent) lifecycle.ToolVerdict {
		return lifecycle.ToolVerdict{Ask: true, AskReason: "Guard: reads secrets"}
	}
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"x.txt"}`}}}, llmtest.Reply{Text: "ok"},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"x.txt"}`}}}, llmtest.Reply{Text: "ok"})
	e.file("x.txt", "secret")
	s := e.newSession()
	e.send(s, "read it")
	e.send(s, "again")
	if len(e.approver.requests) != 2 {
		t.Fatalf("ask must force the dialog every time, whatever the policy or an earlier 'always': %d requests", len(e.approver.requests))
	}
	if r := e.approver.requests[0]; !strings.Contains(r.Forced, "reads secrets") {
		t.Errorf("the dialog must say why it asks: %+v", r)
	}
	results := toolResults(e.server.WaitRequests(t, 4)[3])
	if last := results[len(results)-1]; !strings.Contains(last, "denied") {
		t.Errorf("the second read was denied by the user: %q", last)
	}
}

func TestPreToolUseRewriteAlwaysAsksAndShowsBoth(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.approver.answers = []Decision{AllowOnce}
	e.life.preTool = func(ev lifecycle.ToolEvent) lifecycle.ToolVerdict {
		return lifecycle.ToolVerdict{UpdatedInput: json.RawMessage(`{"command":"touch safe.txt","timeout":5000}`), RewrittenBy: "Guard"}
	}
	e.server.Push(command("touch unsafe.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")
	if len(e.approver.requests) != 1 {
		t.Fatalf("a rewrite must ask even under 'never ask': %d requests", len(e.approver.requests))
	}
	r := e.approver.requests[0]
	if r.Original == nil || r.Original.Command != "touch unsafe.txt" || r.Preview.Command != "touch safe.txt" || !strings.Contains(r.Forced, "Guard rewrote") {
		t.Fatalf("the dialog must show the original and the rewrite: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "safe.txt")); err != nil {
		t.Fatalf("the approved rewrite did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "unsafe.txt")); err == nil {
		t.Fatal("the original ran instead of the rewrite")
	}
}

func TestPreToolUseInvalidRewriteIsNotApplied(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.life.preTool = func(ev lifecycle.ToolEvent) lifecycle.ToolVerdict {
		return lifecycle.ToolVerdict{UpdatedInput: json.RawMessage(`{"file_path":"/etc/passwd","content":"x"}`), RewrittenBy: "Guard"}
	}
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","content":"x"}`}}}, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "write")
	if len(e.approver.requests) != 1 || e.approver.requests[0].Original != nil || !strings.Contains(e.approver.requests[0].Preview.Title, "a.txt") {
		t.Fatalf("an invalid rewrite leaves the original, which must then be asked about: %+v", e.approver.requests)
	}
	if got := hostTexts(s, HostNotice); len(got) != 1 || !strings.Contains(got[0], "not applied") {
		t.Fatalf("the user must see the rewrite was refused: %q", got)
	}
}

func TestPostToolUseFeedbackGoesInsideTheResult(t *testing.T) {
	e := newEnv(t)
	e.file("notes.txt", "hello")
	e.life.postTool = func(ev lifecycle.ToolEvent) lifecycle.Verdict {
		v := lifecycle.Verdict{Reasons: reason("style check failed")}
		v.Blocks = []lifecycle.ContextBlock{{Source: "guard", Event: lifecycle.EventPostToolUse, Text: "3 lint warnings"}}
		return v
	}
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}}, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "read")
	second := e.server.WaitRequests(t, 2)[1]
	if got := second.Roles(); len(got) != 3 {
		t.Fatalf("feedback must not add messages: roles %v", got)
	}
	res := toolResults(second)[0]
	for _, want := range []string{"hello", `<extension-context source="guard" event="PostToolUse">`, "3 lint warnings", "style check failed"} {
		if !strings.Contains(res, want) {
			t.Errorf("result lacks %q: %q", want, res)
		}
	}
	var post lifecycle.ToolEvent
	for _, ev := range e.life.toolEvents {
		if ev.Response != nil {
			post = ev
		}
	}
	if !strings.Contains(string(post.Response), "hello") || !strings.Contains(string(post.Input), filepath.Join(e.project.Path, "notes.txt")) {
		t.Errorf("PostToolUse input = %s / %s; want the result and Claude Code's absolute file_path", post.Input, post.Response)
	}
}

// A call that ran and failed fires PostToolUseFailure instead of
// PostToolUse, with the error; its context goes into that result.
func TestPostToolUseFailureReplacesPostToolUseForAFailedCall(t *testing.T) {
	e := newEnv(t)
	e.life.postFail = func(ev lifecycle.ToolEvent) lifecycle.Verdict {
		return lifecycle.Verdict{HookResult: lifecycle.HookResult{Blocks: []lifecycle.ContextBlock{
			{Source: "guard", Event: lifecycle.EventPostToolUseFailure, Text: "try list_dir first"}}}}
	}
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"missing.txt"}`}}}, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "read")
	if n := e.life.count("PostToolUse:"); n != 0 {
		t.Fatalf("PostToolUse fired %d times for a failed call", n)
	}
	if n := e.life.count("PostToolUseFailure:Read"); n != 1 {
		t.Fatalf("PostToolUseFailure fired %d times, want 1: %v", n, e.life.Calls())
	}
	res := toolResults(e.server.WaitRequests(t, 2)[1])[0]
	for _, want := range []string{"missing.txt", `<extension-context source="guard" event="PostToolUseFailure">`, "try list_dir first"} {
		if !strings.Contains(res, want) {
			t.Errorf("result lacks %q: %q", want, res)
		}
	}
	ev := e.life.toolEvents[len(e.life.toolEvents)-1]
	if !strings.Contains(ev.Error, "missing.txt") || ev.Response != nil {
		t.Errorf("PostToolUseFailure event = %+v; want the error, no response", ev)
	}
}

// A call the user denied never ran: neither post event fires.
func TestNoPostToolEventForADeniedCall(t *testing.T) {
	e := newEnv(t)
	e.server.Push(command("echo hi"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "run")
	if n := e.life.count("PostToolUse"); n != 0 {
		t.Fatalf("a post event fired for a denied call: %v", e.life.Calls())
	}
}

func TestStopHookContinuesAtMostTheLimit(t *testing.T) {
	e := newEnv(t)
	e.life.setEnabled("guard")
	e.life.stop = func(ev lifecycle.StopEvent) lifecycle.Verdict {
		return lifecycle.Verdict{Reasons: reason("tests still fail")}
	}
	for range 5 {
		e.server.Push(llmtest.Reply{Text: "done"})
	}
	s := e.newSession()
	e.send(s, "fix it")

	if n := len(e.server.Requests()); n != 1+DefaultStopHookLimit {
		t.Fatalf("model calls = %d, want the answer plus %d continuations", n, DefaultStopHookLimit)
	}
	want := []string{"Stop:false", "Stop:true", "Stop:true", "Stop:true"}
	var got []string
	for _, c := range e.life.Calls() {
		if strings.HasPrefix(c, "Stop:") {
			got = append(got, c)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Stop calls = %v, want %v (stop_hook_active after the first)", got, want)
	}
	notes := hostTexts(s, HostNotice)
	if len(notes) != DefaultStopHookLimit+1 || !strings.Contains(notes[0], "(1/3)") || !strings.Contains(notes[3], "turn ends") {
		t.Fatalf("each continuation must be shown, and the end: %q", notes)
	}
	last := e.server.Requests()[1]
	note := last.Messages[len(last.Messages)-1]
	if note.Role != "user" || !strings.Contains(joined(note), `event="Stop"`) || !strings.Contains(joined(note), "tests still fail") {
		t.Fatalf("the continuation must carry the reason as a hidden note: %+v", note)
	}
}

func TestUserStopWinsOverStopHooks(t *testing.T) {
	e := newEnv(t)
	var s *Session
	e.life.stop = func(ev lifecycle.StopEvent) lifecycle.Verdict {
		s.Stop()
		return lifecycle.Verdict{Reasons: reason("keep going")}
	}
	e.server.Push(llmtest.Reply{Text: "done"}, llmtest.Reply{Text: "more"})
	s = e.newSession()
	e.send(s, "go")
	if n := len(e.server.Requests()); n != 1 {
		t.Fatalf("model calls = %d; the user's Stop must end the turn", n)
	}
}

func TestSessionEndOnDeleteAndEnd(t *testing.T) {
	e := newEnv(t)
	s := e.newSession()
	s.End(context.Background(), lifecycle.EndExit)
	if err := e.agent.DeleteSession(context.Background(), s.ID()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for e.life.count("SessionEnd:") < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	e.life.mu.Lock()
	defer e.life.mu.Unlock()
	if len(e.life.ended) != 2 || e.life.ended[0].Reason != "prompt_input_exit" || e.life.ended[1].Reason != "clear" ||
		e.life.ended[1].ProjectDir != e.project.Path || e.life.ended[1].SessionID != s.ID() {
		t.Fatalf("SessionEnd events = %+v", e.life.ended)
	}
}

func TestPreCompactAddsContextToTheSummaryRequest(t *testing.T) {
	e := newEnv(t)
	e.life.setEnabled("guard")
	e.life.preCompact = func(ev lifecycle.CompactEvent) lifecycle.HookResult {
		return lifecycle.HookResult{Blocks: []lifecycle.ContextBlock{{Source: "guard", Event: lifecycle.EventPreCompact, Text: "keep the TODO list"}}}
	}
	e.server.Push(llmtest.Reply{Text: "first answer"}, llmtest.Reply{Text: "the summary"})
	s := e.newSession()
	e.send(s, "hello")
	e.send(s, "/compact focus on the parser")
	if e.life.count("PreCompact:manual") != 1 {
		t.Fatalf("calls = %v", e.life.Calls())
	}
	req := e.server.WaitRequests(t, 2)[1]
	text := joined(req.Messages[0])
	for _, want := range []string{"keep the TODO list", `event="PreCompact"`, "focus on the parser"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary request lacks %q: %q", want, text)
		}
	}
}

func TestToolEventsUseClaudeCodeNames(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","content":"x"}`}}}, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "write")
	ev := e.life.toolEvents[0]
	var in map[string]any
	json.Unmarshal(ev.Input, &in)
	if ev.Tool != "write_file" || ev.ClaudeTool != "Write" || in["file_path"] != filepath.Join(e.project.Path, "a.txt") || in["content"] != "x" ||
		ev.CallID == "" || ev.PermissionMode != "bypassPermissions" {
		t.Fatalf("PreToolUse event = %+v (input %v)", ev, in)
	}
}

// Extension context past the per-turn cap is dropped whole, later
// extensions first, and the chat says which; what fits is sent.
func TestExtensionContextCapPerTurn(t *testing.T) {
	e := newEnv(t)
	e.life.setEnabled("a", "b", "c")
	big := strings.Repeat("x", 30<<10)
	e.life.prompt = func(lifecycle.PromptEvent) lifecycle.HookResult {
		return lifecycle.HookResult{Blocks: []lifecycle.ContextBlock{
			{Source: "a", Event: lifecycle.EventUserPromptSubmit, Text: big},
			{Source: "b", Event: lifecycle.EventUserPromptSubmit, Text: big},
			{Source: "c", Event: lifecycle.EventUserPromptSubmit, Text: big}}}
	}
	e.file("n.txt", "hi")
	e.life.postTool = func(lifecycle.ToolEvent) lifecycle.Verdict {
		v := lifecycle.Verdict{}
		v.Blocks = []lifecycle.ContextBlock{{Source: "c", Event: lifecycle.EventPostToolUse, Text: strings.Repeat("y", 5<<10)}}
		return v
	}
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"n.txt"}`}}}, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "go")
	req := e.server.WaitRequests(t, 2)[1]
	prompt := joined(req.Messages[0])
	if !strings.Contains(prompt, `source="a"`) || !strings.Contains(prompt, `source="b"`) || strings.Contains(prompt, `source="c"`) {
		t.Fatalf("two 30 KiB blocks fit in 64 KiB, the third must be left out")
	}
	if res := toolResults(req)[0]; strings.Contains(res, "yyyy") {
		t.Fatal("the PostToolUse context passes the turn's cap and must be left out")
	}
	notes := strings.Join(hostTexts(s, HostNotice), "\n")
	if !strings.Contains(notes, "c's UserPromptSubmit context (30 KiB)") || !strings.Contains(notes, "c's PostToolUse context (5 KiB)") ||
		!strings.Contains(notes, "64 KiB cap") {
		t.Fatalf("notices = %q", notes)
	}
}

func TestFitBlocksDropsWholeBlocksInOrder(t *testing.T) {
	b := func(src string, n int) lifecycle.ContextBlock {
		return lifecycle.ContextBlock{Source: src, Text: strings.Repeat("x", n)}
	}
	kept, dropped, left := fitBlocks([]lifecycle.ContextBlock{b("a", 40), b("b", 70), b("c", 50), b("d", 10)}, 100)
	var k, d []string
	for _, x := range kept {
		k = append(k, x.Source)
	}
	for _, x := range dropped {
		d = append(d, x.Source)
	}
	if strings.Join(k, "") != "acd" || strings.Join(d, "") != "b" || left != 0 {
		t.Fatalf("kept %v dropped %v left %d", k, d, left)
	}
}

// fakeAttention is a window whose focus the test sets; it keeps the
// desktop notifications it was asked to show.
type fakeAttention struct {
	mu    sync.Mutex
	away  bool
	shown []string
}

func (a *fakeAttention) Away() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.away
}

func (a *fakeAttention) Notify(title, message string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.shown = append(a.shown, title+" | "+message)
}

func (a *fakeAttention) notifications() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.shown...)
}

// While the window has no focus, a waiting approval and a finished turn
// send a desktop notification and fire the Notification hooks.
func TestNotificationWhenAwayForApprovalAndTurnEnd(t *testing.T) {
	e := newEnv(t)
	at := &fakeAttention{away: true}
	e.attention = at
	e.life.notified = make(chan lifecycle.NotificationEvent, 4)
	e.open()
	e.server.Push(command("touch a.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")

	var events []lifecycle.NotificationEvent
	for range 2 {
		events = append(events, <-e.life.notified)
	}
	if events[0].Type != lifecycle.NotifyPermission || events[0].Message != "AgentDesk needs your permission to use Bash" ||
		events[1].Type != lifecycle.NotifyIdle || events[1].Message != "AgentDesk is waiting for your input" || events[1].SessionID != s.ID() {
		t.Fatalf("Notification events = %+v", events)
	}
	want := []string{"AgentDesk: make a file | AgentDesk needs your permission to use Bash", "AgentDesk: make a file | AgentDesk is waiting for your input"}
	if got := at.notifications(); !slices.Equal(got, want) {
		t.Fatalf("desktop notifications = %q, want %q", got, want)
	}
}

// With the window focused nobody is notified, and no hook fires.
func TestNoNotificationWhileTheWindowHasTheFocus(t *testing.T) {
	e := newEnv(t)
	at := &fakeAttention{}
	e.attention = at
	e.open()
	e.server.Push(command("touch a.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")
	s.Close() // waits for any hook the loop fired
	if n := e.life.count("Notification"); n != 0 || len(at.notifications()) != 0 {
		t.Fatalf("notified while focused: hooks %d, desktop %q", n, at.notifications())
	}
}
