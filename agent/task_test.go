package agent

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/storage"
)

func TestChildToolsMapsClaudeNames(t *testing.T) {
	all := []string{"edit_file", "glob", "grep", "list_dir", "lsp", "read_file", "run_command", "skill", "tool_search", "write_file"}
	tests := []struct {
		name              string
		allow, deny       []string
		want, unavailable []string
		notes             int
	}{
		{name: "no list: every built-in", want: all},
		{name: "star", allow: []string{"*"}, want: all},
		{name: "feature-dev's explorer", allow: []string{"Glob", "Grep", "LS", "Read", "NotebookRead", "WebFetch", "TodoWrite", "WebSearch", "KillShell", "BashOutput"},
			want: []string{"glob", "grep", "list_dir", "read_file"}, unavailable: []string{"NotebookRead", "WebFetch", "TodoWrite", "WebSearch", "KillShell", "BashOutput"}},
		{name: "edits", allow: []string{"Edit", "MultiEdit", "Write", "Bash"}, want: []string{"edit_file", "run_command", "write_file"}},
		{name: "our own names", allow: []string{"read_file", "run_command"}, want: []string{"read_file", "run_command"}},
		{name: "a pattern grants the tool, noted", allow: []string{"Bash(git diff:*)", "Read"}, want: []string{"read_file", "run_command"}, notes: 1},
		{name: "disallowed removes", deny: []string{"Write", "Edit", "Bash"}, want: []string{"glob", "grep", "list_dir", "lsp", "read_file", "skill", "tool_search"}},
		{name: "Claude Code's Skill and ToolSearch are the catalog's tools", allow: []string{"Read", "Skill", "ToolSearch"}, want: []string{"read_file", "skill", "tool_search"}},
		{name: "Claude Code's LSP is the lsp tool", allow: []string{"Read", "LSP"}, want: []string{"lsp", "read_file"}},
		{name: "task is never given", allow: []string{"Task", "Agent"}, unavailable: []string{"Task", "Agent"}},
		{name: "MCP tools pass through to the MCP list", allow: []string{"Read", "mcp__github__search"}, want: []string{"mcp__github__search", "read_file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			only, unavailable, notes := childTools(tc.allow, tc.deny)
			var got []string
			for n, ok := range only {
				if ok && n != allMCPTools {
					got = append(got, n)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) || !slices.Equal(unavailable, tc.unavailable) || len(notes) != tc.notes {
				t.Errorf("got %q, unavailable %q, notes %q; want %q, %q, %d notes", got, unavailable, notes, tc.want, tc.unavailable, tc.notes)
			}
		})
	}
}

// agentList is a fixed AgentSource.
type agentList []lifecycle.Agent

func (l agentList) Agents(context.Context, string) lifecycle.AgentSet {
	return lifecycle.AgentSet{Agents: l}
}

var explorer = lifecycle.Agent{Name: "explorer", Type: "fx:explorer", Extension: "fx", Label: "Fixture", Color: "yellow",
	Description: "Explores the code base", Tools: []string{"Read", "Grep", "WebFetch"}, Model: "sonnet",
	Prompt: "EXPLORER BODY: trace the code."}

// agentEnv is an env whose extensions offer agents.
func agentEnv(t *testing.T, agents ...lifecycle.Agent) *env {
	e := newEnv(t)
	e.agents = agentList(agents)
	e.open()
	e.life.setEnabled("fx")
	return e
}

func TestTaskRunsTheAgentAsAFreshChild(t *testing.T) {
	e := agentEnv(t, explorer)
	e.life.subagent = func(ev lifecycle.SubagentEvent) lifecycle.HookResult {
		return lifecycle.HookResult{Blocks: []lifecycle.ContextBlock{{Source: "fx", Event: lifecycle.EventSubagentStart, Text: "SUBAGENT CONTEXT for " + ev.AgentType}}}
	}
	e.file("main.go", "package main\n")
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"find main","prompt":"Where is func main?"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"main.go"}`}}},
		llmtest.Reply{Text: "CHILD ANSWER: main.go"},
		llmtest.Reply{Text: "The explorer found it."},
	)
	s := e.newSession()
	statuses := watchStatuses(s)
	e.send(s, "PARENT SECRET: find main")
	assertChildStatuses(t, statuses())

	reqs := e.server.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (parent, child, child, parent)", len(reqs))
	}
	if !slices.Contains(reqs[0].Tools, "task") || !strings.Contains(string(reqs[0].Raw), "explorer: Explores the code base") {
		t.Errorf("the parent was not offered the task tool with the agent list: %q", reqs[0].Tools)
	}
	for i, child := range reqs[1:3] {
		if strings.Contains(string(child.Raw), "PARENT SECRET") {
			t.Errorf("child request %d carries the parent's conversation", i)
		}
		if !strings.Contains(child.System, "EXPLORER BODY") || !strings.Contains(child.System, "SUBAGENT CONTEXT for fx:explorer") ||
			!strings.Contains(child.System, "not available here: WebFetch") {
			t.Errorf("child system prompt lacks the body, the SubagentStart context or the unavailable tools:\n%s", child.System)
		}
		if !slices.Equal(child.Tools, []string{"read_file", "grep"}) {
			t.Errorf("child tools %q, want the allowlist [read_file grep]", child.Tools)
		}
	}
	if first := reqs[1].Messages[0]; len(reqs[1].Messages) != 1 || joined(first) != "Where is func main?" {
		t.Errorf("child's first request messages = %+v, want only the task prompt", reqs[1].Messages)
	}
	parent := reqs[3]
	if got := toolResults(parent); len(got) != 1 || got[0] != "CHILD ANSWER: main.go" {
		t.Errorf("parent's continuation tool results %q, want the child's answer", got)
	}
	if strings.Contains(parent.System, "EXPLORER BODY") || strings.Contains(reqs[0].System, "SUBAGENT CONTEXT") {
		t.Error("the child's prompt or context leaked into the parent's system prompt")
	}
	assertChildHooks(t, e, s)
}

// assertChildStatuses: while the child runs, the status bar names it,
// shows its calls under its name, and never goes blank.
func assertChildStatuses(t *testing.T, got string) {
	t.Helper()
	all := strings.Split(got, " | ")
	start := slices.Index(all, "running task explorer: find main")
	if start < 0 || !slices.Contains(all, "explorer: find main › running read_file main.go") {
		t.Fatalf("statuses %q lack the task or the child's call under its name", got)
	}
	for _, st := range all[start+1:] {
		if st == "" {
			break // the task is over
		}
		if !strings.HasPrefix(st, "explorer: find main") {
			t.Errorf("status %q while the child runs, in %q", st, got)
		}
	}
	if !slices.Contains(all[start:], "") {
		t.Errorf("the bar was not cleared when the task ended: %q", got)
	}
}

func assertChildHooks(t *testing.T, e *env, s *Session) {
	t.Helper()
	calls := e.life.Calls()
	if !slices.Contains(calls, "SubagentStart:fx:explorer") || !slices.Contains(calls, "SubagentStop:fx:explorer:false") {
		t.Errorf("hooks %q lack SubagentStart/SubagentStop for fx:explorer", calls)
	}
	var entry *Host
	for _, en := range s.Entries() {
		if en.Host != nil && en.Host.Kind == HostAgent {
			entry = en.Host
		}
	}
	if entry == nil || entry.Status != ChildDone || entry.Answer != "CHILD ANSWER: main.go" || entry.Color != "yellow" ||
		!strings.Contains(strings.Join(entry.Notes, "\n"), "WebFetch") {
		t.Fatalf("agent entry = %+v", entry)
	}
	child, err := e.db.Session(context.Background(), entry.Child)
	if err != nil || child.ParentID != s.ID() || child.Kind != storage.KindAgent {
		t.Fatalf("child session %+v (%v), want kind agent under %s", child, err, s.ID())
	}
	e.life.mu.Lock()
	defer e.life.mu.Unlock()
	var task, read *lifecycle.ToolEvent
	for i, ev := range e.life.toolEvents {
		switch ev.Tool {
		case "task":
			task = &e.life.toolEvents[i]
		case "read_file":
			read = &e.life.toolEvents[i]
		}
	}
	if task == nil || task.ClaudeTool != "Task" || !slices.Contains(task.ClaudeAliases, "Agent") || task.AgentType != "" {
		t.Errorf("task call as hooks see it: %+v", task)
	}
	if read == nil || read.AgentType != "fx:explorer" || read.AgentID != entry.Child || read.SessionID != s.ID() {
		t.Errorf("child's read_file as hooks see it: %+v", read)
	}
	if stop := e.life.subStops[0]; stop.LastMessage != "CHILD ANSWER: main.go" || stop.AgentID != entry.Child {
		t.Errorf("SubagentStop event = %+v", stop)
	}
}

func TestSubagentStopBlockContinuesTheChildOnce(t *testing.T) {
	e := agentEnv(t, explorer)
	e.life.subStop = func(ev lifecycle.SubagentStopEvent) lifecycle.Verdict {
		return lifecycle.Verdict{Reasons: []lifecycle.Reason{{Source: "fx", Label: "Fixture", Text: "CHECK AGAIN"}}}
	}
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"fx:explorer","description":"d","prompt":"p"}`}}},
		llmtest.Reply{Text: "first answer"},
		llmtest.Reply{Text: "second answer"},
		llmtest.Reply{Text: "parent done"},
	)
	s := e.newSession()
	e.send(s, "go")
	reqs := e.server.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	if last := joined(reqs[2].LastMessage()); !strings.Contains(last, "CHECK AGAIN") {
		t.Errorf("the continued child did not get the reason: %q", last)
	}
	if got := toolResults(reqs[3]); len(got) != 1 || got[0] != "second answer" {
		t.Errorf("parent got %q, want the continued child's answer", got)
	}
	if n := e.life.count("SubagentStop:fx:explorer:true"); n != 1 {
		t.Errorf("SubagentStop with stop_hook_active fired %d times, want 1: %q", n, e.life.Calls())
	}
}

// A delegated task's transcript is its own file (agent_transcript_path);
// deleting the conversation deletes it with the parent's.
func TestDeletingAConversationRemovesItsChildTranscripts(t *testing.T) {
	e := agentEnv(t, explorer)
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"d","prompt":"p"}`}}},
		llmtest.Reply{Text: "child answer"},
		llmtest.Reply{Text: "parent done"},
	)
	s := e.newSession()
	e.send(s, "go")
	e.life.mu.Lock()
	child := e.life.subStops[0].AgentTranscript
	e.life.mu.Unlock()
	files := []string{s.transcriptPath(), child}
	for _, f := range files {
		if _, err := os.Stat(f); f == "" || err != nil {
			t.Fatalf("transcript %q before the delete: %v", f, err)
		}
	}
	if child == files[0] {
		t.Fatal("the child wrote into the parent's transcript")
	}
	if err := e.agent.DeleteSession(context.Background(), s.ID()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, f := range files {
		for _, err := os.Stat(f); err == nil; _, err = os.Stat(f) {
			if time.Now().After(deadline) {
				t.Fatalf("%s outlived its deleted conversation", f)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestNoAgentsNoTaskTool(t *testing.T) {
	e := newEnv(t)
	e.server.Push(llmtest.Reply{Text: "hi"})
	s := e.newSession()
	e.send(s, "hello")
	if tools := e.server.Requests()[0].Tools; slices.Contains(tools, "task") {
		t.Errorf("task offered without agents: %q", tools)
	}
}

func TestTaskModelAliasesAndUnknownAgent(t *testing.T) {
	odd := explorer
	odd.Name, odd.Type, odd.Model = "odd", "fx:odd", "gpt-legendary"
	e := agentEnv(t, explorer, odd)
	e.models = func(alias string) string { return map[string]string{"sonnet": "local-big"}[alias] }
	e.open()
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"nobody","description":"d","prompt":"p"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"d","prompt":"p"}`}}},
		llmtest.Reply{Text: "from sonnet"},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"odd","description":"d","prompt":"p"}`}}},
		llmtest.Reply{Text: "from odd"},
		llmtest.Reply{Text: "done"},
	)
	s := e.newSession()
	e.send(s, "go")
	reqs := e.server.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	if got := toolResults(reqs[1]); len(got) != 1 || !strings.Contains(got[0], `no agent "nobody"; available: general-purpose, explorer, odd`) {
		t.Errorf("unknown agent result %q", got)
	}
	if reqs[2].Model != "local-big" || reqs[4].Model != reqs[0].Model {
		t.Errorf("models: sonnet child %q, odd child %q, parent %q", reqs[2].Model, reqs[4].Model, reqs[0].Model)
	}
	var notes []string
	for _, en := range s.Entries() {
		if en.Host != nil && en.Host.Kind == HostAgent && en.Host.Agent == "odd" {
			notes = en.Host.Notes
		}
	}
	if !strings.Contains(strings.Join(notes, "\n"), `asks for model "gpt-legendary"`) {
		t.Errorf("odd's notes %q lack the unmapped model", notes)
	}
}

// A child's command asks the same approver as the conversation's, naming
// the agent; a denial reaches the child as the call's result.
func TestChildCallsAreApprovedLikeTheParents(t *testing.T) {
	runner := lifecycle.Agent{Name: "runner", Type: "fx:runner", Description: "runs things", Tools: []string{"Bash"}, Prompt: "run"}
	e := agentEnv(t, runner)
	e.approver.answers = []Decision{Deny}
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"runner","description":"d","prompt":"p"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo hi"}`}}},
		llmtest.Reply{Text: "could not run it"},
		llmtest.Reply{Text: "done"},
	)
	s := e.newSession()
	e.send(s, "go")
	e.approver.mu.Lock()
	reqs := append([]ApprovalRequest(nil), e.approver.requests...)
	e.approver.mu.Unlock()
	if len(reqs) != 1 || reqs[0].Agent != "fx:runner" || reqs[0].Tool != "run_command" || reqs[0].Session == s.ID() {
		t.Fatalf("approval requests %+v, want one for the runner's command in its own session", reqs)
	}
	child := e.server.Requests()[2]
	if got := toolResults(child); len(got) != 1 || !strings.Contains(got[0], "denied") {
		t.Errorf("the child read %q, want the denial", got)
	}
}

// Stop while a child waits for approval stops the child and the turn.
func TestStopStopsTheChildAndTheParent(t *testing.T) {
	runner := lifecycle.Agent{Name: "runner", Type: "fx:runner", Description: "runs things", Tools: []string{"Bash"}, Prompt: "run"}
	e := agentEnv(t, runner)
	e.approver.requested = make(chan ApprovalRequest, 1)
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"runner","description":"d","prompt":"p"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo hi"}`}}},
		llmtest.Reply{Text: "never asked for"},
	)
	s := e.newSession()
	s.Submit("go")
	<-e.approver.requested
	s.Stop()
	e.idle(s)
	if n := len(e.server.Requests()); n != 2 {
		t.Errorf("%d requests after Stop, want 2 (the parent's, the child's)", n)
	}
	var status string
	for _, en := range s.Entries() {
		if en.Host != nil && en.Host.Kind == HostAgent {
			status = en.Host.Status
		}
	}
	if status != ChildStopped {
		t.Errorf("agent entry status %q, want %q", status, ChildStopped)
	}
	if e.life.count("SubagentStop") != 0 {
		t.Errorf("SubagentStop fired for a stopped child: %q", e.life.Calls())
	}
}
