package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// EventMCP is the Event of a notice about an MCP server or tool: not a
// hook's, so the status bar does not count it as a failing hook.
const EventMCP = "MCP"

// MCPToolBudget is the bytes the MCP tool names, descriptions and schemas
// of one request may take: percent of a window of windowTokens, at
// listing.BytesPerToken (13,107 bytes for 10% of 32k tokens). A window of
// 0 is listing.DefaultWindow, a percent of 0 the default share.
func MCPToolBudget(windowTokens, percent int) int {
	if windowTokens <= 0 {
		windowTokens = listing.DefaultWindow
	}
	if percent <= 0 {
		percent = lifecycle.DefaultMCPToolShare
	}
	return windowTokens * listing.BytesPerToken * percent / 100
}

// mcpToolShare is the percentage of the window the MCP tools may take.
func (a *Agent) mcpToolShare() int {
	if a.cfg.MCPToolShare == nil {
		return lifecycle.DefaultMCPToolShare
	}
	return min(max(a.cfg.MCPToolShare(), 1), lifecycle.MaxMCPToolShare)
}

// mcpTools wraps this turn's MCP tools as tools of the loop, those that
// fit the session's MCP tool budget (MCPToolBudget); the others wait on
// th's shelf for tool_search (mcpshelf.go). During a user turn they are
// the list the turn started with (freezeMCP), so a server that changes
// its tools mid-turn reaches neither the conversation nor a child of that
// turn before the next user turn (a Ralph run's rounds likewise keep
// the list the run started with); outside one the ToolSource is asked.
// A child thread with an allowlist gets only the MCP tools it grants.
func (s *Session) mcpTools(ctx context.Context, th *thread) []tools.Tool {
	if s.a.cfg.MCP == nil {
		return nil
	}
	s.mu.Lock()
	frozen := s.mcpTurn
	s.mu.Unlock()
	var set lifecycle.ToolSet
	if frozen != nil {
		set = *frozen
	} else {
		set = s.askMCP(ctx, th)
	}
	window, share := s.window(), s.a.mcpToolShare()
	budget := MCPToolBudget(window, share)
	out, deferred := fitMCPTools(set.Tools, th.only, budget)
	shelf := s.shelve(th, deferred)
	if th == s.main {
		s.countMCP(len(out), shelf)
		if len(deferred) > 0 {
			s.deferredNotice(ctx, deferred, budget, share, window)
		}
	}
	return out
}

// askMCP asks the ToolSource for the MCP tools offered now (starting
// servers on a session's first prompt) and tells its notices.
func (s *Session) askMCP(ctx context.Context, th *thread) lifecycle.ToolSet {
	set := s.a.cfg.MCP.Tools(s.reporting(ctx), lifecycle.ToolsEvent{SessionID: s.info.ID, ProjectDir: s.project})
	s.status(th, "")
	s.notices(ctx, set.Notices)
	return set
}

// freezeMCP takes the MCP tool list a user turn starts with; the
// returned func ends the turn's hold on it.
func (s *Session) freezeMCP(ctx context.Context) (thaw func()) {
	if s.a.cfg.MCP == nil {
		return func() {}
	}
	set := s.askMCP(ctx, s.main)
	s.mu.Lock()
	s.mcpTurn = &set
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.mcpTurn = nil
		s.mu.Unlock()
	}
}

// mcpToolSize is what a tool counts against the budget.
func mcpToolSize(d lifecycle.ToolDescriptor) int {
	return len(d.Name) + len(d.Description) + len(d.Schema)
}

// fitMCPTools wraps the descriptors a thread may use (all, or those its
// allowlist grants: see mcpAllowed) in order while their names,
// descriptions and schemas fit in limit bytes; the others are deferred.
// A tool too large for what is left does not stop a smaller one after it.
func fitMCPTools(descs []lifecycle.ToolDescriptor, only map[string]bool, limit int) (fit []tools.Tool, deferred []lifecycle.ToolDescriptor) {
	used := 0
	for _, d := range descs {
		// Agents' allowlists are written in Claude Code's names.
		if !mcpAllowed(only, d.Name) && (d.ClaudeName == "" || !mcpAllowed(only, d.ClaudeName)) {
			continue
		}
		size := mcpToolSize(d)
		if used+size > limit {
			deferred = append(deferred, d)
			continue
		}
		used += size
		fit = append(fit, &mcpTool{d: d})
	}
	return fit, deferred
}

// deferredNotice says once per session and set which MCP tools wait for
// tool_search, and why.
func (s *Session) deferredNotice(ctx context.Context, deferred []lifecycle.ToolDescriptor, budget, share, window int) {
	names := make([]string, len(deferred))
	for i, d := range deferred {
		names[i] = d.Name
	}
	key := strings.Join(names, ",")
	s.mu.Lock()
	seen := s.mcpLeftOut == key
	s.mcpLeftOut = key
	s.mu.Unlock()
	if seen {
		return
	}
	s.host(ctx, Host{Kind: HostNotice, Extension: true, Event: EventMCP, Text: fmt.Sprintf(
		"%d MCP tools wait for tool_search, which offers those the model looks for: MCP tools take at most %.1f KB of a request, %d%% of the model's %d-token window (Preferences → Advanced). Waiting: %s",
		len(deferred), float64(budget)/1000, share, window, tools.OneLine(strings.Join(names, ", ")))})
}

// mcpTool is an extension's MCP tool as a tool of the loop. Every call
// asks (Kind Command), unless the user chose "always" for this very tool
// in this session: the server's readOnlyHint only softens the wording.
type mcpTool struct {
	d lifecycle.ToolDescriptor
}

func (t *mcpTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: t.d.Name, Description: t.d.Description, Parameters: t.d.Schema}
}

func (t *mcpTool) Kind() tools.Kind { return tools.Command }

// Preview shows the tool, who offers it, the risk and the arguments. Its
// Command is empty, so an "always" answer covers the tool, not one set of
// arguments.
func (t *mcpTool) Preview(args json.RawMessage) (tools.Preview, error) {
	var obj map[string]any
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return tools.Preview{}, errors.New("the arguments must be a JSON object")
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, args, "", "  ")
	risk := "Risk: the server does not say this tool is read-only; it may change files, data or accounts it can reach."
	if t.d.ReadOnlyHint {
		risk = "Risk: the server says this tool only reads (a hint from the server, not a guarantee)."
	}
	return tools.Preview{Title: "MCP tool " + t.d.Label,
		Detail: "MCP tool " + t.d.Label + "\n" + risk + "\n\nArguments:\n" + pretty.String()}, nil
}

func (t *mcpTool) Run(ctx context.Context, args json.RawMessage) tools.Result {
	r := t.d.Call(ctx, args)
	return tools.Result{Text: r.Text, IsError: r.IsError}
}

// Describe is the call's line in the transcript and the dialog.
func (t *mcpTool) Describe(args json.RawMessage) string {
	return t.d.Label + " " + string(args)
}
