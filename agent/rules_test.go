package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// A deny rule in the project's settings holds under "never ask" (the
// command line's --approve all), for reads too, and with no folder trust.
func TestProjectDenyRuleHoldsUnderApproveAll(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.file(".claude/settings.json", `{"permissions":{"deny":["Read(./secrets/**)"],"allow":["Bash"]}}`)
	e.file("secrets/key", "hunter2")
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"secrets/key"}`}}}, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "read it")
	results := toolResults(e.server.WaitRequests(t, 2)[1])
	if last := results[len(results)-1]; !strings.Contains(last, "denied by the permission rule Read(./secrets/**) (project settings)") || strings.Contains(last, "hunter2") {
		t.Fatalf("the deny rule must refuse the read: %q", last)
	}
}

// An edit of the project's agent configuration asks even under "never
// ask", and "always" grants nothing for it.
func TestEditOfAgentConfigurationAlwaysAsks(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.approver.answers = []Decision{AllowSession, Deny}
	write := llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":".claude/settings.json","content":"{}"}`}}}
	e.server.Push(write, llmtest.Reply{Text: "ok"}, write, llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "change settings")
	e.send(s, "again")
	if len(e.approver.requests) != 2 || !strings.Contains(e.approver.requests[0].Forced, "agent configuration") {
		t.Fatalf("each write into .claude/ must ask: %+v", e.approver.requests)
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, ".claude", "settings.json")); err != nil {
		t.Fatalf("the first, allowed write did not happen: %v", err)
	}
}

func TestGuardsTheGuardsPaths(t *testing.T) {
	for path, want := range map[string]bool{".claude/settings.json": true, "CLAUDE.md": true, "sub/CLAUDE.local.md": true,
		".mcp.json": true, "./.claude/agents/x.md": true, "src/claude.go": false, "README.md": false} {
		if got := guardsTheGuards(tools.Edit, []byte(`{"path":"`+path+`"}`)) != ""; got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
}

// A rule the user saved for the project applies: an allow runs the
// command without asking, even under "reads only"; the project's own
// allow rule does not (it waits for folder trust).
func TestSavedAllowRuleRunsWithoutAsking(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyReadsOnly
	e.file(".claude/settings.json", `{"permissions":{"allow":["Bash(touch b.txt)"]}}`)
	if err := e.db.AddPermissionRule(context.Background(), e.project.ID, "allow", "Bash(touch a.txt)"); err != nil {
		t.Fatal(err)
	}
	e.server.Push(command("touch a.txt"), command("touch b.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make files")
	if _, err := os.Stat(filepath.Join(e.project.Path, "a.txt")); err != nil {
		t.Fatalf("the saved allow rule did not let the command run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "b.txt")); err == nil {
		t.Fatal("the untrusted project's allow rule let a command run")
	}
}

// "Always allow in this project": the dialog is offered a rule for the
// call, the rule saved through AllowInProject lets the next identical
// call run without asking, and a guarded edit is offered no rule.
func TestAllowInProjectProposalSavedAndApplied(t *testing.T) {
	e := newEnv(t)
	e.approver.answers = []Decision{AllowOnce}
	e.server.Push(command("touch a.txt"), llmtest.Reply{Text: "ok"})
	s := e.newSession()
	e.send(s, "make a file")
	if len(e.approver.requests) != 1 {
		t.Fatalf("%d approval requests, want 1", len(e.approver.requests))
	}
	req := e.approver.requests[0]
	if req.ProposedRule != "Bash(touch:*)" || req.ProjectID != e.project.ID {
		t.Fatalf("proposed %q for project %d, want Bash(touch:*) for %d", req.ProposedRule, req.ProjectID, e.project.ID)
	}
	if err := e.agent.AllowInProject(context.Background(), req, "Bash(touch:*)"); err != nil {
		t.Fatal(err)
	}
	if err := e.agent.AllowInProject(context.Background(), req, "Bash(unclosed"); err == nil {
		t.Error("an unparsable rule was saved")
	}
	e.server.Push(command("touch b.txt"), llmtest.Reply{Text: "ok"})
	e.send(s, "another")
	if len(e.approver.requests) != 1 {
		t.Fatalf("the saved rule did not cover the next call: %d requests", len(e.approver.requests))
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, "b.txt")); err != nil {
		t.Fatal("the allowed command did not run")
	}
	if _, err := os.Stat(filepath.Join(e.project.Path, ".claude")); err == nil {
		t.Error("the rule was written into the project's .claude/")
	}
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"CLAUDE.md","content":"x"}`}}}, llmtest.Reply{Text: "ok"})
	e.send(s, "edit the guards")
	if n := len(e.approver.requests); n != 2 || e.approver.requests[1].ProposedRule != "" {
		t.Errorf("a guarded edit was offered a project rule: %+v", e.approver.requests[n-1])
	}
}
