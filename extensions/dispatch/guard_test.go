//go:build unix

package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// recordingApprover answers every approval request with one decision and
// keeps the requests.
type recordingApprover struct {
	mu       sync.Mutex
	answer   agent.Decision
	requests []agent.ApprovalRequest
	before   func(n int) // when set, called with the request's number (from 1) before it is answered
}

func (a *recordingApprover) Request(_ context.Context, req agent.ApprovalRequest) agent.Decision {
	a.mu.Lock()
	a.requests = append(a.requests, req)
	n, before := len(a.requests), a.before
	a.mu.Unlock()
	if before != nil {
		before(n)
	}
	return a.answer
}

func (a *recordingApprover) asked() []agent.ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]agent.ApprovalRequest(nil), a.requests...)
}

// guardsEnv is the guards fixture plugin installed over loopback HTTPS,
// trusted and enabled, under a real loop with an approver and a policy.
type guardsEnv struct {
	*loopEnv
	approver *recordingApprover
}

// waitRun waits until the run history holds a run of event, and returns
// it (a guard against hanging, not a timing assertion).
func (g *guardsEnv) waitRun(event string) storage.HookRun {
	g.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		g.m.Flush()
		runs, err := g.db.HookRuns(context.Background(), "guards", 50)
		if err != nil {
			g.t.Fatal(err)
		}
		for _, r := range runs {
			if r.Event == event {
				return r
			}
		}
	}
	g.t.Fatalf("no %s run in the run history", event)
	return storage.HookRun{}
}

// awayWindow is a window without the focus: the loop notifies.
type awayWindow struct{}

func (awayWindow) Away() bool            { return true }
func (awayWindow) Notify(string, string) {}

func newGuardsEnv(t *testing.T, policy agent.Policy, answer agent.Decision) *guardsEnv {
	l := newLoopEnv(t, map[string]*gittest.Repo{"guards": repo(t, testdataFiles(t, "guards"))}, "guards")
	g := &guardsEnv{loopEnv: l, approver: &recordingApprover{answer: answer}}
	l.agent = agent.New(agent.Config{DB: l.db, Lifecycle: l.disp, Skills: l.disp, Commands: l.disp, Approver: g.approver, TranscriptDir: t.TempDir(), Attention: awayWindow{},
		Policy: func() agent.Policy { return policy }, HomeDir: filepath.Join(l.home, "home"),
		Provider: func() (llm.Provider, llm.Config, error) {
			cfg := l.model.Config()
			p, err := agent.NewProvider(cfg)
			return p, cfg, err
		}})
	return g
}

// answer sets how the fixture answers event.
func (g *guardsEnv) answer(event, mode string) {
	if err := os.WriteFile(filepath.Join(g.project, ".guards-"+event), []byte(mode), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

func (g *guardsEnv) stdin(event string) map[string]any {
	var in map[string]any
	if err := json.Unmarshal([]byte(g.dataFile("stdin-"+event+".json")), &in); err != nil {
		g.t.Fatalf("stdin of %s: %v", event, err)
	}
	return in
}

func (g *guardsEnv) exists(name string) bool {
	_, err := os.Stat(filepath.Join(g.project, name))
	return err == nil
}

func runCommand(cmd string) llmtest.Reply {
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"` + cmd + `"}`}}}
}

func TestGuardsTrustListsEveryEvent(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"guards": repo(t, testdataFiles(t, "guards"))})
	info := e.install("guards", "")
	trust, err := e.m.TrustPrompt(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, h := range trust.Hooks {
		events = append(events, h.Event)
	}
	if strings.Join(events, ",") != "UserPromptExpansion,PreToolUse,PreToolUse,PermissionRequest,PostToolUse,PostToolUseFailure,Stop,SessionEnd,Notification,PreCompact" || trust.Hooks[2].If != "Bash(git push *)" {
		t.Fatalf("trust prompt lists %v; every guard hook needs the user's trust", events)
	}
	for _, d := range info.Diagnostics {
		if strings.Contains(d, "not supported") {
			t.Errorf("a supported event is reported as unsupported: %s", d)
		}
	}
}

func TestGuardsPreToolUseDenyStopsTheCommandBeforeApproval(t *testing.T) {
	for _, mode := range []string{"deny", "exit2"} {
		t.Run(mode, func(t *testing.T) {
			g := newGuardsEnv(t, agent.PolicyAsk, agent.AllowOnce)
			g.answer("PreToolUse", mode)
			g.model.Push(runCommand("touch denied.txt"), llmtest.Reply{Text: "understood"})
			s := g.session()
			req := g.send(s, "make a file")

			if n := len(g.approver.asked()); n != 0 {
				t.Fatalf("a denied call reached the approval dialog (%d requests)", n)
			}
			if g.exists("denied.txt") {
				t.Fatal("the denied command ran")
			}
			var results []string
			for _, m := range req.Messages {
				results = append(results, m.ToolResults...)
			}
			if len(results) != 1 || !strings.Contains(results[0], "guards: ") || !strings.Contains(results[0], "not run") {
				t.Fatalf("the model must read the hook's reason as the result: %q", results)
			}
			in := g.stdin("PreToolUse")
			input, _ := in["tool_input"].(map[string]any)
			if in["tool_name"] != "Bash" || input["command"] != "touch denied.txt" || in["tool_use_id"] == "" ||
				in["hook_event_name"] != "PreToolUse" || in["permission_mode"] != "default" || in["cwd"] != g.project {
				t.Fatalf("PreToolUse stdin = %v", in)
			}
		})
	}
}

func TestGuardsPreToolUseAllowStillAsks(t *testing.T) {
	g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
	g.answer("PreToolUse", "allow")
	g.model.Push(runCommand("touch allowed.txt"), llmtest.Reply{Text: "ok"})
	s := g.session()
	g.send(s, "make a file")
	if n := len(g.approver.asked()); n != 1 {
		t.Fatalf("approval asked %d times; an extension's allow never skips it", n)
	}
	if g.exists("allowed.txt") {
		t.Fatal("the user denied, yet the command ran")
	}
}

// PermissionRequest runs when the dialog is about to be shown: a deny (JSON
// or exit 2) answers for the user; an allow is reported and the user is
// asked all the same.
func TestGuardsPermissionRequest(t *testing.T) {
	for mode, want := range map[string]string{"deny": "guards: ask again after lunch", "exit2": "guards: no dialogs today"} {
		t.Run(mode, func(t *testing.T) {
			g := newGuardsEnv(t, agent.PolicyAsk, agent.AllowOnce)
			g.answer("PermissionRequest", mode)
			g.model.Push(runCommand("touch denied.txt"), llmtest.Reply{Text: "understood"})
			s := g.session()
			req := g.send(s, "make a file")
			if n := len(g.approver.asked()); n != 0 || g.exists("denied.txt") {
				t.Fatalf("a PermissionRequest deny must answer instead of the dialog (%d requests; ran: %v)", n, g.exists("denied.txt"))
			}
			var results []string
			for _, m := range req.Messages {
				results = append(results, m.ToolResults...)
			}
			if len(results) != 1 || !strings.Contains(results[0], want) || !strings.Contains(results[0], "not run") {
				t.Fatalf("the model must read the hook's reason as the result: %q", results)
			}
			in := g.stdin("PermissionRequest")
			input, _ := in["tool_input"].(map[string]any)
			if in["hook_event_name"] != "PermissionRequest" || in["tool_name"] != "Bash" || input["command"] != "touch denied.txt" || in["permission_mode"] != "default" {
				t.Fatalf("PermissionRequest stdin = %v", in)
			}
		})
	}
	t.Run("allow", func(t *testing.T) {
		g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
		g.answer("PermissionRequest", "allow")
		g.model.Push(runCommand("touch allowed.txt"), llmtest.Reply{Text: "ok"})
		s := g.session()
		g.send(s, "make a file")
		if n := len(g.approver.asked()); n != 1 || g.exists("allowed.txt") {
			t.Fatalf("an allow must never skip the dialog (%d requests; ran: %v)", n, g.exists("allowed.txt"))
		}
		if notes := hosts(s, agent.HostNotice); len(notes) != 1 || !strings.Contains(notes[0], "extensions never approve") || !strings.Contains(notes[0], "safe enough") {
			t.Fatalf("the chat must say the allow was not honoured: %q", notes)
		}
	})
	t.Run("not where nobody is asked", func(t *testing.T) {
		g := newGuardsEnv(t, agent.PolicyNever, agent.Deny)
		g.answer("PermissionRequest", "deny")
		g.model.Push(runCommand("touch free.txt"), llmtest.Reply{Text: "ok"})
		g.send(g.session(), "make a file")
		if g.dataFile("count-PermissionRequest") != "" || !g.exists("free.txt") {
			t.Fatal("PermissionRequest must not fire where no dialog would be shown")
		}
	})
}

func TestGuardsAskAndRewriteForceTheDialog(t *testing.T) {
	g := newGuardsEnv(t, agent.PolicyNever, agent.AllowOnce)
	g.answer("PreToolUse", "ask")
	g.model.Push(runCommand("touch asked.txt"), llmtest.Reply{Text: "ok"}, runCommand("touch original.txt"), llmtest.Reply{Text: "ok"})
	s := g.session()
	g.send(s, "one")
	g.answer("PreToolUse", "rewrite")
	g.send(s, "two")
	asked := g.approver.asked()
	if len(asked) != 2 || !strings.Contains(asked[0].Forced, "guards wants a human") {
		t.Fatalf("requests = %+v; ask and rewrite must ask even under 'never ask'", asked)
	}
	if r := asked[1]; r.Original == nil || r.Original.Command != "touch original.txt" || r.Preview.Command != "touch rewritten.txt" {
		t.Fatalf("rewrite request = %+v", r)
	}
	if !g.exists("asked.txt") || !g.exists("rewritten.txt") || g.exists("original.txt") {
		t.Fatal("after approval, the asked call and the rewrite (not the original) must have run")
	}
}

func TestGuardsRewriteIsRefusedWhereNobodyCanBeAsked(t *testing.T) {
	g := newGuardsEnv(t, agent.PolicyNever, agent.Deny) // as `run --approve all` without a terminal answers
	g.answer("PreToolUse", "rewrite")
	g.model.Push(runCommand("touch original.txt"), llmtest.Reply{Text: "ok"})
	s := g.session()
	g.send(s, "go")
	if g.exists("rewritten.txt") || g.exists("original.txt") {
		t.Fatal("a rewritten call ran without anyone approving it")
	}
}

func TestGuardsPostToolUseContextReachesTheNextRequest(t *testing.T) {
	g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
	g.answer("PostToolUse", "context")
	os.WriteFile(filepath.Join(g.project, "notes.txt"), []byte("hello"), 0o644)
	g.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}}, llmtest.Reply{Text: "ok"})
	s := g.session()
	req := g.send(s, "read notes")
	var results []string
	for _, m := range req.Messages {
		results = append(results, m.ToolResults...)
	}
	if len(results) != 1 || !strings.Contains(results[0], "hello") ||
		!strings.Contains(results[0], `<extension-context source="guards" event="PostToolUse">`) || !strings.Contains(results[0], "guards post context 1") {
		t.Fatalf("tool result = %q", results)
	}
	in := g.stdin("PostToolUse")
	input, _ := in["tool_input"].(map[string]any)
	resp, _ := in["tool_response"].(map[string]any)
	if in["tool_name"] != "Read" || input["file_path"] != filepath.Join(g.project, "notes.txt") || !strings.Contains(resp["content"].(string), "hello") {
		t.Fatalf("PostToolUse stdin = %v", in)
	}
	if g.dataFile("count-PreToolUse") != "" {
		t.Error("the Bash-only PreToolUse hook ran for a read")
	}
}

// A read that fails runs the PostToolUseFailure hook instead of
// PostToolUse; its context or exit-2 reason lands inside that result.
func TestGuardsPostToolUseFailureContextGoesIntoTheFailedResult(t *testing.T) {
	for mode, want := range map[string]string{"context": "guards: the file may be in docs/", "exit2": "guards: never guess paths"} {
		t.Run(mode, func(t *testing.T) {
			g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
			g.answer("PostToolUseFailure", mode)
			g.answer("PostToolUse", "context")
			g.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"missing.txt"}`}}}, llmtest.Reply{Text: "ok"})
			s := g.session()
			req := g.send(s, "read it")
			var results []string
			for _, m := range req.Messages {
				results = append(results, m.ToolResults...)
			}
			if len(results) != 1 || !strings.Contains(results[0], "missing.txt") ||
				!strings.Contains(results[0], `<extension-context source="guards" event="PostToolUseFailure">`) || !strings.Contains(results[0], want) {
				t.Fatalf("tool result = %q", results)
			}
			if g.dataFile("count-PostToolUse") != "" {
				t.Error("PostToolUse ran for a failed call")
			}
			in := g.stdin("PostToolUseFailure")
			input, _ := in["tool_input"].(map[string]any)
			if in["hook_event_name"] != "PostToolUseFailure" || in["tool_name"] != "Read" || input["file_path"] != filepath.Join(g.project, "missing.txt") ||
				!strings.Contains(fmt.Sprint(in["error"]), "missing.txt") || in["is_interrupt"] != false || in["tool_response"] != nil {
				t.Fatalf("PostToolUseFailure stdin = %v", in)
			}
		})
	}
}

// UserPromptExpansion sees the expanded command (matcher: its name); a
// block (JSON or exit 2) keeps it from being sent, plain text is context
// for that turn.
func TestGuardsUserPromptExpansion(t *testing.T) {
	for mode, want := range map[string]string{"block": "guards: no reviews before tests pass", "exit2": "guards: reviews are closed"} {
		t.Run(mode, func(t *testing.T) {
			g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
			g.answer("UserPromptExpansion", mode)
			s := g.session()
			s.Submit("/review src/x.go")
			g.idle(s)
			if n := len(g.model.Requests()); n != 0 {
				t.Fatalf("a blocked command reached the model (%d requests)", n)
			}
			if notes := hosts(s, agent.HostNotice); len(notes) != 1 || !strings.Contains(notes[0], want) || !strings.Contains(notes[0], "not sent") {
				t.Fatalf("the chat must say why nothing was sent: %q", notes)
			}
			in := g.stdin("UserPromptExpansion")
			if in["hook_event_name"] != "UserPromptExpansion" || in["expansion_type"] != "slash_command" || in["command_name"] != "guards:review" ||
				in["command_args"] != "src/x.go" || in["command_source"] != "plugin" || !strings.Contains(fmt.Sprint(in["prompt"]), "GUARDS-REVIEW of src/x.go") {
				t.Fatalf("UserPromptExpansion stdin = %v", in)
			}
		})
	}
	t.Run("context", func(t *testing.T) {
		g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
		g.answer("UserPromptExpansion", "context")
		g.model.Push(llmtest.Reply{Text: "reviewed"})
		s := g.session()
		req := g.send(s, "/guards:review src/x.go")
		text := strings.Join(req.LastMessage().Texts, "\n")
		if !strings.Contains(text, `<extension-context source="guards" event="UserPromptExpansion">`) || !strings.Contains(text, "guards: review the tests first") ||
			!strings.Contains(text, "GUARDS-REVIEW of src/x.go") {
			t.Fatalf("the user message = %q", text)
		}
	})
	t.Run("other text is no command", func(t *testing.T) {
		g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
		g.answer("UserPromptExpansion", "block")
		g.model.Push(llmtest.Reply{Text: "hi"})
		g.send(g.session(), "review my code")
		if g.dataFile("count-UserPromptExpansion") != "" {
			t.Fatal("UserPromptExpansion ran for a prompt that is no command")
		}
	})
}

// Notification hooks run when AgentDesk notifies (here: the window is
// away), matched on notification_type; nothing waits for them, and a
// failing one is only recorded.
func TestGuardsNotification(t *testing.T) {
	for _, mode := range []string{"none", "fail"} {
		t.Run(mode, func(t *testing.T) {
			g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
			g.answer("Notification", mode)
			g.model.Push(runCommand("touch a.txt"), llmtest.Reply{Text: "ok"})
			s := g.session()
			req := g.send(s, "make a file")
			run := g.waitRun("Notification") // fired and forgotten: the turn did not wait for it
			s.Close()                        // waits for any other hook the loop fired
			if got := strings.TrimSpace(g.dataFile("count-Notification")); got != "1" {
				t.Fatalf("Notification ran %q times; want once (the permission_prompt matcher leaves out idle_prompt)", got)
			}
			in := g.stdin("Notification")
			if in["hook_event_name"] != "Notification" || in["notification_type"] != "permission_prompt" ||
				in["message"] != "AgentDesk needs your permission to use Bash" || in["title"] != "AgentDesk: make a file" || in["session_id"] != s.ID() {
				t.Fatalf("Notification stdin = %v", in)
			}
			if notes := hosts(s, agent.HostNotice); len(notes) != 0 {
				t.Fatalf("a Notification hook's output must not reach the chat: %q", notes)
			}
			if text := strings.Join(req.LastMessage().Texts, ""); strings.Contains(text, "guards") {
				t.Fatalf("a Notification hook's output reached the model: %q", text)
			}
			if (mode == "fail") != strings.Contains(run.Error, "status 1") {
				t.Fatalf("the run history must record the Notification run and its failure: %+v", run)
			}
		})
	}
}

func TestGuardsStopContinuesExactlyTheLimit(t *testing.T) {
	g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
	g.answer("Stop", "block")
	for range agent.DefaultStopHookLimit + 2 {
		g.model.Push(llmtest.Reply{Text: "done"})
	}
	s := g.session()
	g.send(s, "finish")
	if n := len(g.model.Requests()); n != 1+agent.DefaultStopHookLimit {
		t.Fatalf("model calls = %d, want 1 + %d", n, agent.DefaultStopHookLimit)
	}
	if got := strings.TrimSpace(g.dataFile("count-Stop")); got != "4" {
		t.Fatalf("Stop ran %s times, want 4 (the last one's block ends the turn)", got)
	}
	in := g.stdin("Stop")
	if in["stop_hook_active"] != true {
		t.Error("stop_hook_active must be true once the turn went on")
	}
	// What Stop hooks such as ralph-loop's read: the last assistant line.
	transcript, _ := os.ReadFile(in["transcript_path"].(string))
	lines := strings.Split(strings.TrimSpace(string(transcript)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"role":"assistant"`) || !strings.Contains(last, `{"text":"done","type":"text"}`) {
		t.Fatalf("transcript at Stop ends with %s", last)
	}
	last := g.model.Requests()[agent.DefaultStopHookLimit]
	note := last.Messages[len(last.Messages)-1]
	if note.Role != "user" || !strings.Contains(strings.Join(note.Texts, ""), "guards: tests still fail (3)") {
		t.Fatalf("the last continuation must carry the reason: %+v", note)
	}
}

func TestGuardsSessionEndAndPreCompact(t *testing.T) {
	g := newGuardsEnv(t, agent.PolicyAsk, agent.Deny)
	g.answer("PreCompact", "context")
	g.model.Push(llmtest.Reply{Text: "hi"}, llmtest.Reply{Text: "the summary"})
	s := g.session()
	g.send(s, "hello")
	g.send(s, "/compact keep it short")
	summary := g.model.Requests()[1]
	if text := strings.Join(summary.Messages[0].Texts, ""); !strings.Contains(text, "guards: keep the TODO list") {
		t.Fatalf("the summary request lacks the PreCompact context: %q", text)
	}
	if in := g.stdin("PreCompact"); in["trigger"] != "manual" || in["custom_instructions"] != "keep it short" {
		t.Fatalf("PreCompact stdin = %v", in)
	}
	s.End(context.Background(), lifecycle.EndExit)
	if in := g.stdin("SessionEnd"); in["reason"] != "prompt_input_exit" || in["session_id"] != s.ID() {
		t.Fatalf("SessionEnd stdin = %v", in)
	}
	g.m.Flush()
	runs, err := g.db.HookRuns(context.Background(), "guards", 20)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range runs {
		seen[r.Event] = true
	}
	for _, ev := range []string{"Stop", "PreCompact", "SessionEnd"} {
		if !seen[ev] {
			t.Errorf("no %s run in the run history: %+v", ev, runs)
		}
	}
}

// A hook with an "if" runs only for the calls it names, here a push in a
// compound command line, and not for other commands.
func TestGuardsIfConditionNarrowsTheHook(t *testing.T) {
	g := newGuardsEnv(t, agent.PolicyNever, agent.Deny)
	g.model.Push(runCommand("touch ok.txt"), llmtest.Reply{Text: "ok"}, runCommand("touch pushed.txt && git push origin main"), llmtest.Reply{Text: "ok"})
	s := g.session()
	g.send(s, "one")
	if g.dataFile("count-PushGuard") != "" || !g.exists("ok.txt") {
		t.Fatal("the push guard ran for a command without git push")
	}
	req := g.send(s, "two")
	if strings.TrimSpace(g.dataFile("count-PushGuard")) != "1" || g.exists("pushed.txt") {
		t.Fatal("the push guard must run for, and deny, a line with git push")
	}
	var results []string
	for _, m := range req.Messages {
		results = append(results, m.ToolResults...)
	}
	if last := results[len(results)-1]; !strings.Contains(last, "guards: no pushes") {
		t.Fatalf("result = %q", last)
	}
}

// The trust prompt shows the timeout that applies and lists the hooks
// that will not run apart, with why.
func TestTrustPromptEffectiveTimeoutsAndNotRun(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"timeouts","version":"1.0.0"}`},
		"hooks/hooks.json": {Body: `{"hooks":{"Stop":[{"hooks":[
			{"type":"command","command":"true"},
			{"type":"command","command":"sleep 1","timeout":300},
			{"type":"command","command":"echo 1","timeout":7},
			{"type":"command","command":"echo a && echo b"}]}]}}`},
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"timeouts": repo(t, files)})
	info := e.install("timeouts", "")
	trust, err := e.m.TrustPrompt(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range trust.Hooks {
		got = append(got, h.TimeoutText())
	}
	if strings.Join(got, " | ") != "5s, the default | 60s; it asks for 300s, the most is 60s | 7s" {
		t.Fatalf("timeouts = %q", got)
	}
	if len(trust.NotRun) != 1 || !strings.Contains(trust.NotRun[0].Inactive, "needs a shell") {
		t.Fatalf("not run = %+v", trust.NotRun)
	}
}

// answering is a plugin whose hooks answer event with a fixed script
// body (stdin is kept as stdin-EVENT.json in its data folder).
func answering(name string, hooks map[string]string, matchers map[string]string) map[string]gittest.File {
	files := map[string]gittest.File{".claude-plugin/plugin.json": {Body: `{"name": "` + name + `"}`}}
	var groups []string
	for event, body := range hooks {
		files["hooks/"+event+".sh"] = gittest.File{Mode: 0o755,
			Body: "#!/bin/sh\ncat > \"$CLAUDE_PLUGIN_DATA/stdin-" + event + ".json\"\n" + body + "\n"}
		groups = append(groups, fmt.Sprintf(`%q: [{"matcher": %q, "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/%s.sh"}]}]`,
			event, matchers[event], event))
	}
	files["hooks/hooks.json"] = gittest.File{Body: `{"hooks": {` + strings.Join(groups, ",") + `}}`}
	return files
}

// The new events merge like the other guard events, in installation
// order: any deny or block wins, every allow is reported, context is
// kept per extension, matchers pick the hooks.
func TestDispatchNewEventsMergeInInstallationOrder(t *testing.T) {
	alpha := answering("alpha", map[string]string{
		"PermissionRequest":   `printf '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","message":"alpha says fine"}}}'`,
		"UserPromptExpansion": `echo "alpha context"`,
		"PostToolUseFailure":  `printf '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"alpha hint"}}'`,
		"Notification":        `true`,
	}, map[string]string{"PermissionRequest": "Bash", "UserPromptExpansion": "review", "PostToolUseFailure": "run_command"})
	beta := answering("beta", map[string]string{
		"PermissionRequest":   `echo "beta says no" >&2; exit 2`,
		"UserPromptExpansion": `printf '{"decision":"block","reason":"beta blocks"}'`,
		"Notification":        `true`,
	}, map[string]string{"PermissionRequest": "Write", "UserPromptExpansion": "alpha:review", "Notification": "idle_prompt"})
	l := newLoopEnv(t, map[string]*gittest.Repo{"alpha": repo(t, alpha), "beta": repo(t, beta)}, "alpha", "beta")
	ctx := context.Background()
	dataOf := func(id, name string) string {
		info, err := l.m.Show(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := os.ReadFile(filepath.Join(info.DataDir, name))
		return string(body)
	}

	bash := lifecycle.ToolEvent{SessionID: "s1", ProjectDir: l.project, Tool: "run_command", ClaudeTool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}
	if v := l.disp.PermissionRequest(ctx, bash); v.Blocked() || len(v.Allows) != 1 || v.Allows[0].Source != "alpha" || v.Allows[0].Text != "alpha says fine" {
		t.Fatalf("Bash: %+v; want alpha's allow reported and no deny (beta's matcher is Write)", v)
	}
	write := lifecycle.ToolEvent{SessionID: "s1", ProjectDir: l.project, Tool: "write_file", ClaudeTool: "Write", Input: json.RawMessage(`{"file_path":"/x"}`)}
	if v := l.disp.PermissionRequest(ctx, write); !v.Blocked() || v.Reasons[0].Source != "beta" || v.Reasons[0].Text != "beta says no" {
		t.Fatalf("Write: %+v; want beta's exit-2 deny", v)
	}

	exp := lifecycle.ExpansionEvent{SessionID: "s1", ProjectDir: l.project, Command: "alpha:review", Short: "review", Args: "7", Prompt: "REVIEW 7"}
	v := l.disp.UserPromptExpansion(ctx, exp)
	if len(v.Blocks) != 1 || v.Blocks[0].Source != "alpha" || v.Blocks[0].Text != "alpha context" || !v.Blocked() || v.Reasons[0].Text != "beta blocks" {
		t.Fatalf("UserPromptExpansion: %+v", v)
	}
	other := exp
	other.Command, other.Short = "alpha:deploy", "deploy"
	if v := l.disp.UserPromptExpansion(ctx, other); v.Blocked() || len(v.Blocks) != 0 {
		t.Fatalf("no matcher names deploy, yet: %+v", v)
	}

	failed := bash
	failed.Error = "exit status 1"
	if v := l.disp.PostToolUseFailure(ctx, failed); len(v.Blocks) != 1 || v.Blocks[0].Text != "alpha hint" {
		t.Fatalf("PostToolUseFailure (matched by AgentDesk's tool name): %+v", v)
	}

	l.disp.Notification(ctx, lifecycle.NotificationEvent{SessionID: "s1", ProjectDir: l.project, Type: lifecycle.NotifyPermission, Message: "m"})
	if dataOf("alpha", "stdin-Notification.json") == "" || dataOf("beta", "stdin-Notification.json") != "" {
		t.Fatal("a permission_prompt notification must run alpha's catch-all hook and not beta's idle_prompt one")
	}
	var in map[string]any
	json.Unmarshal([]byte(dataOf("alpha", "stdin-PermissionRequest.json")), &in)
	if _, has := in["tool_use_id"]; has || in["tool_name"] != "Bash" {
		t.Fatalf("PermissionRequest stdin = %v (Claude Code sends no tool_use_id)", in)
	}
}

// A hook whose output nobody reads (Notification, SessionEnd) records its
// failure without taking the one chat notice a failure gets: the same
// failure of a prompt hook right after is still shown.
func TestQuietEventsLeaveTheFailureNoticeToTheOthers(t *testing.T) {
	missing := `[{"hooks": [{"type": "command", "command": "agentdesk-no-such-program"}]}]`
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "broken"}`},
		"hooks/hooks.json":           {Body: `{"hooks": {"Notification": ` + missing + `, "SessionEnd": ` + missing + `, "UserPromptSubmit": ` + missing + `}}`},
	}
	l := newLoopEnv(t, map[string]*gittest.Repo{"broken": repo(t, files)}, "broken")
	ctx := context.Background()
	l.disp.Notification(ctx, lifecycle.NotificationEvent{SessionID: "s1", ProjectDir: l.project, Type: lifecycle.NotifyIdle})
	l.disp.SessionEnd(ctx, lifecycle.SessionEndEvent{SessionID: "s1", ProjectDir: l.project, Reason: lifecycle.EndOther})
	res := l.disp.UserPromptSubmit(ctx, lifecycle.PromptEvent{SessionID: "s1", ProjectDir: l.project, Prompt: "hi"})
	if len(res.Notices) != 1 || res.Notices[0].Kind != lifecycle.NoticeFailure || !strings.Contains(res.Notices[0].Text, "agentdesk-no-such-program") {
		t.Fatalf("UserPromptSubmit notices = %+v; the failure must still be shown once", res.Notices)
	}
	l.m.Flush()
	runs, err := l.db.HookRuns(ctx, "broken", 10)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, r := range runs {
		failed[r.Event] = r.Error != ""
	}
	if !failed["Notification"] || !failed["SessionEnd"] {
		t.Fatalf("the quiet events' failures must be in the run history: %+v", runs)
	}
}
