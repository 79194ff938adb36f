package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// MaxMCPToolBytes bounds the extensions' MCP tool names, descriptions and
// schemas in one request (they count in the context like everything
// else); tools past it are left out of the turn with a note.
const MaxMCPToolBytes = 96 << 10

// EventMCP is the Event of a notice about an MCP server or tool: not a
// hook's, so the status bar does not count it as a failing hook.
const EventMCP = "MCP"

// mcpTools wraps this turn's MCP tools as tools of the loop, within
// MaxMCPToolBytes. During a user turn they are the list the turn started
// with (freezeMCP), so a server that changes its tools mid-turn reaches
// neither the conversation nor a child of that turn before the next user
// turn; outside one (a Ralph round) the ToolSource is asked. A child
// thread with an allowlist gets only the MCP tools it grants.
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
	out, left := fitMCPTools(set.Tools, th.only, MaxMCPToolBytes)
	if len(left) > 0 {
		s.leftOutNotice(ctx, left)
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

// fitMCPTools wraps the descriptors a thread may use (all, or those its
// allowlist grants: see mcpAllowed) in order while their names, descriptions and schemas
// fit in limit bytes, and names the ones left out.
func fitMCPTools(descs []lifecycle.ToolDescriptor, only map[string]bool, limit int) (fit []tools.Tool, left []string) {
	used := 0
	for _, d := range descs {
		// Agents' allowlists are written in Claude Code's names.
		if !mcpAllowed(only, d.Name) && (d.ClaudeName == "" || !mcpAllowed(only, d.ClaudeName)) {
			continue
		}
		size := len(d.Name) + len(d.Description) + len(d.Schema)
		if used+size > limit {
			left = append(left, d.Name)
			continue
		}
		used += size
		fit = append(fit, &mcpTool{d: d})
	}
	return fit, left
}

// leftOutNotice says once per session and set which MCP tools did not fit.
func (s *Session) leftOutNotice(ctx context.Context, left []string) {
	key := strings.Join(left, ",")
	s.mu.Lock()
	seen := s.mcpLeftOut == key
	s.mcpLeftOut = key
	s.mu.Unlock()
	if seen {
		return
	}
	s.host(ctx, Host{Kind: HostNotice, Extension: true, Event: EventMCP, Text: fmt.Sprintf(
		"%d MCP tools are left out of this session's requests: the extensions' tool descriptions are limited to %d KiB (%s)",
		len(left), MaxMCPToolBytes>>10, tools.OneLine(strings.Join(left, ", ")))})
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
