package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/storage"
)

// fakeLifecycle stands in for the extensions dispatcher: it records every
// call and answers with scripted context.
type fakeLifecycle struct {
	mu       sync.Mutex
	enabled  []string
	calls    []string
	start    map[string]string // source → SessionStart context
	prompt   func(lifecycle.PromptEvent) lifecycle.HookResult
	subagent func(lifecycle.SubagentEvent) lifecycle.HookResult
	roots    []skills.Root
	// Guard events: scripted answers; nil answers nothing.
	preTool    func(lifecycle.ToolEvent) lifecycle.ToolVerdict
	postTool   func(lifecycle.ToolEvent) lifecycle.Verdict
	postFail   func(lifecycle.ToolEvent) lifecycle.Verdict
	permission func(lifecycle.ToolEvent) lifecycle.PermissionVerdict
	expansion  func(lifecycle.ExpansionEvent) lifecycle.Verdict
	expansions []lifecycle.ExpansionEvent
	notified   chan lifecycle.NotificationEvent // Notification hooks, fired and forgotten by the loop
	stop       func(lifecycle.StopEvent) lifecycle.Verdict
	preCompact func(lifecycle.CompactEvent) lifecycle.HookResult
	subStop    func(lifecycle.SubagentStopEvent) lifecycle.Verdict
	toolEvents []lifecycle.ToolEvent
	subStops   []lifecycle.SubagentStopEvent
	ended      []lifecycle.SessionEndEvent
}

func (f *fakeLifecycle) record(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fakeLifecycle) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeLifecycle) count(prefix string) int {
	n := 0
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

func (f *fakeLifecycle) SessionStart(_ context.Context, ev lifecycle.SessionStartEvent) lifecycle.HookResult {
	f.record("SessionStart:" + ev.Source)
	f.mu.Lock()
	text, ok := f.start[ev.Source]
	f.mu.Unlock()
	if !ok {
		return lifecycle.HookResult{}
	}
	return lifecycle.HookResult{Blocks: []lifecycle.ContextBlock{{Source: "ext", Event: lifecycle.EventSessionStart, Text: text}}}
}

func (f *fakeLifecycle) UserPromptSubmit(_ context.Context, ev lifecycle.PromptEvent) lifecycle.HookResult {
	f.record("UserPromptSubmit:" + ev.Prompt)
	if f.prompt != nil {
		return f.prompt(ev)
	}
	return lifecycle.HookResult{}
}

func (f *fakeLifecycle) SubagentStart(_ context.Context, ev lifecycle.SubagentEvent) lifecycle.HookResult {
	f.record("SubagentStart:" + ev.AgentType)
	if f.subagent != nil {
		return f.subagent(ev)
	}
	return lifecycle.HookResult{}
}

func (f *fakeLifecycle) PreToolUse(_ context.Context, ev lifecycle.ToolEvent) lifecycle.ToolVerdict {
	f.record("PreToolUse:" + ev.ClaudeTool)
	f.mu.Lock()
	f.toolEvents = append(f.toolEvents, ev)
	f.mu.Unlock()
	if f.preTool != nil {
		return f.preTool(ev)
	}
	return lifecycle.ToolVerdict{}
}

func (f *fakeLifecycle) PostToolUse(_ context.Context, ev lifecycle.ToolEvent) lifecycle.Verdict {
	f.record("PostToolUse:" + ev.ClaudeTool)
	f.mu.Lock()
	f.toolEvents = append(f.toolEvents, ev)
	f.mu.Unlock()
	if f.postTool != nil {
		return f.postTool(ev)
	}
	return lifecycle.Verdict{}
}

func (f *fakeLifecycle) PermissionRequest(_ context.Context, ev lifecycle.ToolEvent) lifecycle.PermissionVerdict {
	f.record("PermissionRequest:" + ev.ClaudeTool)
	f.mu.Lock()
	f.toolEvents = append(f.toolEvents, ev)
	f.mu.Unlock()
	if f.permission != nil {
		return f.permission(ev)
	}
	return lifecycle.PermissionVerdict{}
}

func (f *fakeLifecycle) PostToolUseFailure(_ context.Context, ev lifecycle.ToolEvent) lifecycle.Verdict {
	f.record("PostToolUseFailure:" + ev.ClaudeTool)
	f.mu.Lock()
	f.toolEvents = append(f.toolEvents, ev)
	f.mu.Unlock()
	if f.postFail != nil {
		return f.postFail(ev)
	}
	return lifecycle.Verdict{}
}

func (f *fakeLifecycle) Stop(_ context.Context, ev lifecycle.StopEvent) lifecycle.Verdict {
	f.record(fmt.Sprintf("Stop:%v", ev.Active))
	if f.stop != nil {
		return f.stop(ev)
	}
	return lifecycle.Verdict{}
}

func (f *fakeLifecycle) SessionEnd(_ context.Context, ev lifecycle.SessionEndEvent) {
	f.record("SessionEnd:" + ev.Reason)
	f.mu.Lock()
	f.ended = append(f.ended, ev)
	f.mu.Unlock()
}

func (f *fakeLifecycle) UserPromptExpansion(_ context.Context, ev lifecycle.ExpansionEvent) lifecycle.Verdict {
	f.record("UserPromptExpansion:" + ev.Command)
	f.mu.Lock()
	f.expansions = append(f.expansions, ev)
	f.mu.Unlock()
	if f.expansion != nil {
		return f.expansion(ev)
	}
	return lifecycle.Verdict{}
}

func (f *fakeLifecycle) Notification(_ context.Context, ev lifecycle.NotificationEvent) {
	f.record("Notification:" + ev.Type)
	f.mu.Lock()
	ch := f.notified
	f.mu.Unlock()
	if ch != nil {
		ch <- ev
	}
}

func (f *fakeLifecycle) PreCompact(_ context.Context, ev lifecycle.CompactEvent) lifecycle.HookResult {
	f.record("PreCompact:" + ev.Trigger)
	if f.preCompact != nil {
		return f.preCompact(ev)
	}
	return lifecycle.HookResult{}
}

func (f *fakeLifecycle) SubagentStop(_ context.Context, ev lifecycle.SubagentStopEvent) lifecycle.Verdict {
	f.record(fmt.Sprintf("SubagentStop:%s:%v", ev.AgentType, ev.Active))
	f.mu.Lock()
	f.subStops = append(f.subStops, ev)
	f.mu.Unlock()
	if f.subStop != nil {
		return f.subStop(ev)
	}
	return lifecycle.Verdict{}
}

func (f *fakeLifecycle) Enabled(context.Context, string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.enabled...)
}

func (f *fakeLifecycle) SkillRoots(context.Context, string) []skills.Root {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]skills.Root(nil), f.roots...)
}

func (f *fakeLifecycle) setEnabled(ids ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.enabled = ids
}

// scriptedApprover answers approval requests from a queue (Deny when
// empty) and records them.
type scriptedApprover struct {
	mu        sync.Mutex
	answers   []Decision
	requests  []ApprovalRequest
	requested chan ApprovalRequest
}

func (a *scriptedApprover) Request(ctx context.Context, req ApprovalRequest) Decision {
	a.mu.Lock()
	a.requests = append(a.requests, req)
	d := Deny
	if len(a.answers) > 0 {
		d, a.answers = a.answers[0], a.answers[1:]
	}
	ch := a.requested
	a.mu.Unlock()
	if ch != nil {
		ch <- req
		<-ctx.Done()
		return Deny
	}
	return d
}

// env is an agent on a temp database, project and home, talking to a fake
// OpenAI-compatible server.
type env struct {
	t        *testing.T
	server   *llmtest.Server
	db       *storage.DB
	dbPath   string
	life     *fakeLifecycle
	approver *scriptedApprover
	agent    *Agent
	project  storage.Project
	home     string
	window   int
	thinking int // the provider config's ThinkingBudget
	policy   Policy
	// deadlines sets the provider config's FirstByteTimeout and
	// IdleTimeout when non-nil.
	deadlines func(*llm.Config)
	commands  lifecycle.CommandSource // extension slash commands; nil: none
	attention Attention               // nil: none, as on the command line
	agents    lifecycle.AgentSource   // extension agents; nil: none
	models    func(string) string     // subagent model aliases; nil: none
	mcp       lifecycle.ToolSource    // extension MCP tools; nil: none
	styles    lifecycle.StyleSource   // extension output styles; nil: none
	codeIntel lifecycle.CodeIntel     // language servers; nil: none
	// scoped, when set, is the Lifecycle and SkillSource instead of life
	// (view_test.go).
	scoped *scopedLifecycle
}

func newEnv(t *testing.T) *env { return newEnvOn(t, llmtest.NewOpenAI(t)) }

// newEnvOn is newEnv talking to the given fake server.
func newEnvOn(t *testing.T, server *llmtest.Server) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{t: t, server: server, dbPath: filepath.Join(dir, "agentdesk.db"),
		life: &fakeLifecycle{start: map[string]string{}}, approver: &scriptedApprover{},
		home: filepath.Join(dir, "home"), window: 100000, policy: PolicyAsk}
	os.MkdirAll(filepath.Join(dir, "home", "src", "proj"), 0o755)
	e.open()
	p, err := e.agent.OpenProject(context.Background(), filepath.Join(e.home, "src", "proj"))
	if err != nil {
		t.Fatal(err)
	}
	e.project = p
	return e
}

// open (re)opens the database and the agent, as a restart does.
func (e *env) open() {
	e.t.Helper()
	db, err := storage.Open(context.Background(), e.dbPath)
	if err != nil {
		e.t.Fatal(err)
	}
	e.db = db
	e.t.Cleanup(func() { db.Close() })
	var life lifecycle.Lifecycle = e.life
	var skillSource SkillSource = e.life
	if e.scoped != nil {
		life, skillSource = e.scoped, e.scoped
	}
	e.agent = New(Config{DB: db, Lifecycle: life, Skills: skillSource, Approver: e.approver, HomeDir: e.home,
		TranscriptDir: filepath.Join(filepath.Dir(e.dbPath), "transcripts"),
		Policy:        func() Policy { return e.policy }, Commands: e.commands, Attention: e.attention,
		Agents: e.agents, SubagentModel: e.models, Styles: e.styles, CodeIntel: e.codeIntel, MCP: e.mcp,
		Provider: func() (llm.Provider, llm.Config, error) {
			cfg := e.server.Config()
			cfg.ContextWindow = e.window
			cfg.ThinkingBudget = e.thinking
			if e.deadlines != nil {
				e.deadlines(&cfg)
			}
			p, err := NewProvider(cfg)
			return p, cfg, err
		}})
}

func (e *env) newSession() *Session {
	e.t.Helper()
	s, err := e.agent.NewSession(context.Background(), e.project)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { s.Close() })
	e.idle(s)
	return s
}

func (e *env) resume(id string) *Session {
	e.t.Helper()
	s, err := e.agent.OpenSession(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { s.Close() })
	e.idle(s)
	return s
}

// idle waits for the session's jobs to finish (guard timeout only).
func (e *env) idle(s *Session) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.WaitIdle(ctx); err != nil {
		e.t.Fatal("session did not become idle")
	}
}

// send submits a prompt and waits for the turn to end.
func (e *env) send(s *Session, prompt string) {
	e.t.Helper()
	s.Submit(prompt)
	e.idle(s)
}

func (e *env) file(rel, body string) string {
	path := filepath.Join(e.project.Path, rel)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

func hostTexts(s *Session, kind HostKind) []string {
	var out []string
	for _, en := range s.Entries() {
		if en.Host != nil && en.Host.Kind == kind {
			out = append(out, en.Host.Text)
		}
	}
	return out
}

func assertAlternating(t *testing.T, r llmtest.Request) {
	t.Helper()
	if r.SystemMessages != 1 {
		t.Errorf("request has %d system messages, want exactly 1", r.SystemMessages)
	}
	prev := ""
	for i, role := range r.Roles() {
		if i == 0 && role != "user" {
			t.Errorf("first message is %s, want user", role)
		}
		if role == prev && role != "tool" {
			t.Errorf("two %s messages in a row at %d: %v", role, i, r.Roles())
		}
		prev = role
	}
}

func joined(m llmtest.Msg) string { return strings.Join(m.Texts, "\n") }

// toolResults collects every tool result a request sends back, in order
// (OpenAI sends one tool message per result).
func toolResults(r llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		out = append(out, m.ToolResults...)
	}
	return out
}
