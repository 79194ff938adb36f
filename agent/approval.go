package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// Decision is the user's answer to an approval request.
type Decision int

const (
	Deny Decision = iota
	AllowOnce
	AllowSession // allow this and every like call for the rest of the session
	// RunUnconfined allows this one run_command call and lifts the sandbox
	// from it: an explicit choice, never remembered as a grant, offered
	// only when the request says CanRunUnconfined.
	RunUnconfined
)

// Policy is the approval policy chosen in Preferences.
type Policy string

const (
	PolicyAsk       Policy = "ask"        // ask for every edit and command (default)
	PolicyAutoEdits Policy = "auto-edits" // edits inside the project run; commands ask
	PolicyNever     Policy = "never"      // never ask
	PolicyReadsOnly Policy = "reads"      // deny edits and commands without asking (headless)
)

// ParsePolicy accepts a stored or command-line policy name.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyAsk, PolicyAutoEdits, PolicyNever, PolicyReadsOnly:
		return p, nil
	case "":
		return PolicyAsk, nil
	case "all":
		return PolicyNever, nil
	}
	return "", fmt.Errorf("unknown approval policy %q (want ask, auto-edits, never or reads)", s)
}

// ApprovalRequest is one tool call waiting for the user.
type ApprovalRequest struct {
	ID      int64
	Session string
	// Agent is the agent_type of the child making the call ("" for the
	// conversation itself): the same approval applies, and says who asks.
	Agent   string
	Tool    string
	Summary string // one line, e.g. "run_command go test ./..."
	Preview tools.Preview
	// Forced says why this call asks although the policy or an earlier
	// "always allow" would have let it run (an extension's PreToolUse hook
	// asked, or rewrote the call). Its answer allows this call only.
	Forced string
	// Original is the call as the model wrote it when a hook rewrote it;
	// Preview and Summary are then the rewrite.
	Original        *tools.Preview
	OriginalSummary string
	// ProjectID and ProposedRule back "Always allow in this project": the
	// allow rule offered for the call (Claude Code syntax, see
	// permissions.Propose), "" when none fits or the call is Forced.
	ProjectID    int64
	ProposedRule string
	// MCPServer is, for an MCP tool, the identity of its server
	// (extension and server): the rule "Always allow in this project"
	// saves covers that server's tools only, never another's spelled alike.
	MCPServer string
	// CanRunUnconfined offers "Run unconfined": the call is a command the
	// sandbox would confine.
	CanRunUnconfined bool
}

// ForDisplay is r made safe to show: the model or a hook wrote the call,
// so what could drive a terminal or reorder a label is written as a
// visible escape (\x1b, \u202e) and the call still reads exactly as it
// runs.
func (r ApprovalRequest) ForDisplay() ApprovalRequest {
	v := safetext.Visible
	r.Tool, r.Summary, r.Forced, r.OriginalSummary = v(r.Tool), v(r.Summary), v(r.Forced), v(r.OriginalSummary)
	r.ProposedRule = v(r.ProposedRule)
	r.Agent = v(r.Agent) // a plugin's agent name
	r.Preview = previewForDisplay(r.Preview)
	if r.Original != nil {
		original := previewForDisplay(*r.Original)
		r.Original = &original
	}
	return r
}

func previewForDisplay(p tools.Preview) tools.Preview {
	v := safetext.Visible
	p.Title, p.Detail, p.Diff, p.Command = v(p.Title), v(p.Detail), v(p.Diff), v(p.Command)
	return p
}

// Approver asks the user. Request blocks until answered or ctx ends; an
// ended ctx counts as a denial.
type Approver interface {
	Request(ctx context.Context, req ApprovalRequest) Decision
}

// Approvals is the in-process approval service: the loop blocks in
// Request, a view shows the pending request and calls Answer. The first
// answer wins; later answers, and answers to requests that were
// cancelled, are ignored. Notify is called without locks held and must
// not block (a view schedules its dialog on the UI goroutine).
type Approvals struct {
	Notify func(ApprovalRequest)
	// Withdrawn, if set, is called when a pending request ends without an
	// answer (its turn was stopped), so the view can close the dialog.
	Withdrawn func(id int64)

	mu      sync.Mutex
	next    int64
	pending map[int64]chan Decision
}

// Request implements Approver.
func (a *Approvals) Request(ctx context.Context, req ApprovalRequest) Decision {
	ch := make(chan Decision, 1)
	a.mu.Lock()
	if a.pending == nil {
		a.pending = map[int64]chan Decision{}
	}
	a.next++
	req.ID = a.next
	a.pending[req.ID] = ch
	a.mu.Unlock()

	if a.Notify != nil {
		a.Notify(req)
	}
	select {
	case d := <-ch:
		return d
	case <-ctx.Done():
		if a.take(req.ID) != nil && a.Withdrawn != nil {
			a.Withdrawn(req.ID)
		}
		return Deny
	}
}

func (a *Approvals) take(id int64) chan Decision {
	a.mu.Lock()
	defer a.mu.Unlock()
	ch := a.pending[id]
	delete(a.pending, id)
	return ch
}

// Answer resolves a pending request; it reports whether this answer was
// the one that counted.
func (a *Approvals) Answer(id int64, d Decision) bool {
	ch := a.take(id)
	if ch == nil {
		return false
	}
	ch <- d
	return true
}

// grants remembers "always allow for this session" answers.
type grants struct {
	mu  sync.Mutex
	set map[string]bool
}

// grantKey scopes an always-allow: edits by tool, commands by the exact
// command, so allowing `go test ./...` does not allow `rm -rf`.
func grantKey(kind tools.Kind, tool string, p tools.Preview) string {
	if kind == tools.Command {
		return tool + "\x00" + p.Command
	}
	return tool
}

// grantKeyOf is grantKey, except that an MCP tool is granted by its
// identity (extension, server, tool): the name the model calls it by is
// not proof of who answers it.
func grantKeyOf(tool tools.Tool, kind tools.Kind, name string, p tools.Preview) string {
	if m, ok := tool.(*mcpTool); ok {
		return "mcp\x00" + m.d.ID.Key()
	}
	return grantKey(kind, name, p)
}

func (g *grants) has(key string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.set[key]
}

func (g *grants) add(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.set == nil {
		g.set = map[string]bool{}
	}
	g.set[key] = true
}
