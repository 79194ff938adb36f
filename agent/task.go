package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
	"github.com/agentdesk/agentdesk/storage"
)

// The task tool (Claude Code's Task, later called Agent) hands a piece of
// work to a subagent: a fresh-context child run with the agent's own
// instructions and tools, whose final answer comes back as the result.

const taskToolName = "task"

// Bounds of delegation.
const (
	// MaxTaskAnswerBytes bounds the answer returned to the parent; the
	// child's session keeps it whole.
	MaxTaskAnswerBytes = 32 << 10
	// maxAgentCatalogBytes bounds the agent list in the tool's
	// description, like the skills catalog in the system prompt.
	maxAgentCatalogBytes = 12 << 10
	maxAgentLineRunes    = 300
)

// GeneralPurpose is the built-in agent type offered beside the
// extensions' agents.
const GeneralPurpose = "general-purpose"

var generalPurpose = lifecycle.Agent{Name: GeneralPurpose, Type: GeneralPurpose,
	Description: "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks. Use it when a search or a piece of work would take many steps and only its result matters.",
	Prompt:      "You are a general-purpose agent. Do the task in the user message thoroughly with the tools you have, then answer with a concise report of what you found or did."}

// claudeToolNames maps Claude Code's tool names (as agents list them) to
// AgentDesk's built-ins. Names not here are not available to a child.
var claudeToolNames = map[string][]string{
	"Read":      {"read_file"},
	"Grep":      {"grep"},
	"Glob":      {"glob"},
	"LS":        {"list_dir"},
	"Bash":      {"run_command"},
	"Edit":      {"edit_file"},
	"MultiEdit": {"edit_file"},
	"Write":     {"write_file"},
	"LSP":       {"lsp"},
	// The catalog's tools (catalogtools.go), offered to a child beside
	// the built-ins when it has something to load or find.
	"Skill":      {skillToolName},
	"ToolSearch": {searchToolName},
}

// childTools maps an agent's allowlist (Claude Code's names, or ours) to
// the tools a child may call. No list means every built-in and every MCP
// tool, as in Claude Code. What cannot be mapped is returned, never
// silently widened into something else; a pattern such as Bash(git
// diff:*) grants the tool, whose calls still go through approval, and is
// noted. MCP tools are named as Claude Code names them: a whole name
// (mcp__plugin_x_srv__search) or a server's prefix (mcp__plugin_x_srv)
// for all its tools; a disallowed one is kept as false.
// ToolsText words an agent's allowlist (Claude Code's names) for people:
// as written, then what AgentDesk lacks and so does not give the agent.
func ToolsText(allow []string) string {
	text := strings.Join(allow, ", ")
	if _, unavailable, _ := childTools(allow, nil); len(unavailable) > 0 {
		text += " (" + unavailableNote + strings.Join(unavailable, ", ") + ")"
	}
	return text
}

const unavailableNote = "not available in AgentDesk, so not given to it: "

func childTools(allow, deny []string) (only map[string]bool, unavailable, notes []string) {
	only = map[string]bool{}
	if allow == nil || slices.Contains(allow, "*") {
		for _, names := range claudeToolNames {
			for _, n := range names {
				only[n] = true
			}
		}
		only[allMCPTools] = true
	}
	for _, raw := range allow {
		name, pattern, _ := strings.Cut(raw, "(")
		name = strings.TrimSpace(name)
		mapped := mapTool(name)
		switch {
		case name == "*":
		case isMCPName(name):
			only[name] = true
		case mapped == nil:
			unavailable = append(unavailable, raw)
		default:
			for _, n := range mapped {
				only[n] = true
			}
			if pattern != "" {
				notes = append(notes, raw+": the pattern is not enforced; every call still needs approval as usual")
			}
		}
	}
	for _, raw := range deny {
		name, _, _ := strings.Cut(raw, "(")
		name = strings.TrimSpace(name)
		if isMCPName(name) {
			only[name] = false
		}
		for _, n := range mapTool(name) {
			delete(only, n)
			if n == skillToolName || n == searchToolName {
				only[n] = false // not implied by anything else (catalogAllowed)
			}
		}
	}
	return only, unavailable, notes
}

// allMCPTools in an allowlist grants every MCP tool.
const allMCPTools = "mcp__*"

// isMCPName reports whether an allowlist entry names MCP tools.
func isMCPName(name string) bool { return strings.HasPrefix(name, "mcp__") && name != allMCPTools }

// mcpAllowed reports whether an allowlist (nil: everything) lets a thread
// call the MCP tool name: not disallowed, and granted by name, by its
// server's prefix, or by allMCPTools.
func mcpAllowed(only map[string]bool, name string) bool {
	if only == nil {
		return true
	}
	granted := only[allMCPTools]
	for entry, ok := range only {
		if !isMCPName(entry) || (entry != name && !strings.HasPrefix(name, entry+"__")) {
			continue
		}
		if !ok {
			return false
		}
		granted = true
	}
	return granted
}

// mapTool resolves one tool name, Claude Code's or ours.
func mapTool(name string) []string {
	if names, ok := claudeToolNames[name]; ok {
		return names
	}
	for _, names := range claudeToolNames {
		if slices.Contains(names, name) {
			return []string{name}
		}
	}
	return nil
}

// taskAgents are the agents the model may delegate to now: the
// extensions' and the built-in general-purpose one, or none at all when
// no extension offers an agent.
func (s *Session) taskAgents() []lifecycle.Agent { return s.view().Agents().Agents }

// Subagents is what the model of a session in project may delegate to
// now (for the Agents view): the built-in general-purpose agent and the
// enabled extensions' agents, with their conflicts; nothing when no
// extension offers an agent.
func (a *Agent) Subagents(project string) lifecycle.AgentSet {
	return a.subagents(context.Background(), project)
}

// subagents is Subagents as the job ctx belongs to sees the extensions.
func (a *Agent) subagents(ctx context.Context, project string) lifecycle.AgentSet {
	if a.cfg.Agents == nil {
		return lifecycle.AgentSet{}
	}
	set := a.cfg.Agents.Agents(ctx, project)
	if len(set.Agents) > 0 {
		set.Agents = append([]lifecycle.Agent{generalPurpose}, set.Agents...)
	}
	return set
}

// taskTools is the task tool for th this turn, if th may delegate: only
// the conversation itself (a child never starts another child).
func (s *Session) taskTools(th *thread) []tools.Tool {
	if th != s.main {
		return nil
	}
	agents := s.taskAgents()
	if len(agents) == 0 {
		return nil
	}
	desc := agentCatalogIntro + s.listed().agents // the skills list's budget, shared
	return []tools.Tool{&taskTool{s: s, agents: agents, desc: desc}}
}

// taskTool is the delegation tool of one turn; its agent list is fixed
// for the turn like every tool spec.
type taskTool struct {
	s      *Session
	agents []lifecycle.Agent
	desc   string // the description with the fitted agent list
}

type taskArgs struct {
	SubagentType string `json:"subagent_type" jsonschema:"required" jsonschema_description:"The agent to run, by a name from the list in this tool's description."`
	Description  string `json:"description" jsonschema:"required" jsonschema_description:"A short (3-5 word) description of the task, shown to the user."`
	Prompt       string `json:"prompt" jsonschema:"required" jsonschema_description:"The task for the agent, with everything it needs: it sees none of this conversation."`
}

var taskSchema = tools.SchemaOf(&taskArgs{})

func (t *taskTool) Spec() llm.ToolSpec {
	desc := t.desc
	if desc == "" {
		desc = agentCatalog(t.agents)
	}
	return llm.ToolSpec{Name: taskToolName, Description: desc, Parameters: taskSchema}
}

// Kind: delegating needs no approval of its own; each call the child
// makes is approved like the parent's.
func (t *taskTool) Kind() tools.Kind { return tools.ReadOnly }

func (t *taskTool) parse(args json.RawMessage) (taskArgs, lifecycle.Agent, error) {
	var a taskArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return a, lifecycle.Agent{}, fmt.Errorf("arguments are not a JSON object: %w", err)
	}
	if strings.TrimSpace(a.Prompt) == "" {
		return a, lifecycle.Agent{}, errors.New("prompt is empty: say what the agent should do")
	}
	for _, ag := range t.agents {
		if a.SubagentType == ag.Name || a.SubagentType == ag.Type {
			return a, ag, nil
		}
	}
	var names []string
	for _, ag := range t.agents {
		names = append(names, ag.Name)
	}
	return a, lifecycle.Agent{}, fmt.Errorf("no agent %q; available: %s", a.SubagentType, strings.Join(names, ", "))
}

func (t *taskTool) Preview(args json.RawMessage) (tools.Preview, error) {
	a, ag, err := t.parse(args)
	if err != nil {
		return tools.Preview{}, err
	}
	return tools.Preview{Title: "Delegate to " + ag.Name, Detail: a.Description}, nil
}

func (t *taskTool) Run(ctx context.Context, args json.RawMessage) tools.Result {
	a, ag, err := t.parse(args)
	if err != nil {
		return tools.Result{Text: err.Error(), IsError: true}
	}
	t.s.markUsed(listing.KindAgent, ag.Name)
	return t.s.delegate(ctx, ag, a.Description, a.Prompt)
}

// Describe words a call for the transcript and the status bar.
func (t *taskTool) Describe(args json.RawMessage) string {
	var a taskArgs
	json.Unmarshal(args, &a)
	return "task " + a.SubagentType + ": " + a.Description
}

const agentCatalogIntro = "Delegate a task to a subagent. It starts with a fresh context (none of this conversation), works with its own instructions and tools, and its final answer comes back as this tool's result. Give it a complete, self-contained prompt. Use an agent when the task matches its description.\n\nAvailable agents:"

// agentCatalog is the task tool's description: what it does and the
// agents, one line each, bounded.
func agentCatalog(agents []lifecycle.Agent) string {
	var b strings.Builder
	b.WriteString(agentCatalogIntro)
	var left []string
	for _, ag := range agents {
		line := "\n- " + ag.Name + ": " + oneLine(ag.Description, maxAgentLineRunes)
		if b.Len()+len(line) > maxAgentCatalogBytes {
			left = append(left, ag.Name)
			continue
		}
		b.WriteString(line)
	}
	if len(left) > 0 {
		more := fmt.Sprintf("\n- and %d more, without descriptions: %s", len(left), strings.Join(left, ", "))
		if len(more) > 2*maxAgentLineRunes {
			more = more[:2*maxAgentLineRunes] + "…"
		}
		b.WriteString(more)
	}
	return b.String()
}

// oneLine collapses whitespace and cuts s to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// delegate runs ag on prompt as a child of this session and returns its
// answer for the model. The transcript shows the run as one entry that
// follows its status.
func (s *Session) delegate(ctx context.Context, ag lifecycle.Agent, description, prompt string) tools.Result {
	only, unavailable, notes := childTools(ag.Tools, ag.DisallowedTools)
	model, note := s.childModel(ag.Model)
	if note != "" {
		notes = append(notes, note)
	}
	if len(unavailable) > 0 {
		notes = append(notes, unavailableNote+strings.Join(unavailable, ", "))
	}
	entry := Host{Kind: HostAgent, Agent: ag.Name, Label: ag.Label, Source: ag.Extension, Color: ag.Color,
		Text: description, Status: ChildRunning, Notes: notes}
	def := childDef{agentType: ag.Type, kind: storage.KindAgent, title: ag.Name + ": " + description,
		instructions: agentInstructions(ag, unavailable), skills: ag.Skills, only: only, model: model,
		turns: min(childTurns(ag.MaxTurns), MaxChildTurns), prompt: prompt}
	if ag.Type == GeneralPurpose {
		def.skills = nil // the built-in agent sees the whole skills catalog, like the session
	} else if def.skills == nil {
		def.skills = []string{}
	}
	run := s.runChild(ctx, def, func(id string) {
		entry.Child = id
		s.host(ctx, entry)
	})
	if run.id == "" {
		return tools.Result{Text: "the agent could not start: " + run.err.Error(), IsError: true}
	}
	answer := strings.TrimSpace(run.final.Text())
	switch {
	case ctx.Err() != nil:
		entry.Status = ChildStopped
	case run.err != nil:
		entry.Status, entry.Answer = ChildFailed, run.err.Error()
	default:
		entry.Status, entry.Answer = ChildDone, cutAnswer(answer, 2<<10, "")
	}
	s.host(ctx, entry)
	switch entry.Status {
	case ChildStopped:
		return tools.Result{Text: "not finished: the user stopped the turn", IsError: true}
	case ChildFailed:
		return tools.Result{Text: fmt.Sprintf("%s failed: %v", ag.Name, run.err), IsError: true}
	}
	if answer == "" {
		answer = "(the agent ended without an answer)"
	}
	return tools.Result{Text: cutAnswer(answer, MaxTaskAnswerBytes, "\n\n[answer cut at 32 KiB; the agent's session keeps it whole]")}
}

// cutAnswer keeps the first max bytes of s at a rune boundary, with note.
func cutAnswer(s string, max int, note string) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if note == "" {
		note = "…"
	}
	return s[:cut] + note
}

// agentInstructions is the child's section of the system prompt: who it
// is, how its answer is used, what it lacks, then the agent's own body.
func agentInstructions(ag lifecycle.Agent, unavailable []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Agent: %s\n\nYou are a subagent: another agent delegated the task in the user message to you. You see none of its conversation. When you are done, answer with the result it needs; that answer is all it receives.", ag.Name)
	if len(unavailable) > 0 {
		fmt.Fprintf(&b, " These tools your instructions mention are not available here: %s; work with the tools you have.", strings.Join(unavailable, ", "))
	}
	b.WriteString("\n\n")
	b.WriteString(strings.TrimSpace(ag.Prompt))
	return b.String()
}

// childModel resolves an agent's model: inherit (or none) is the
// session's; sonnet, opus and haiku are what Preferences map them to
// (the session's model unless set); anything else runs on the session's
// model, with a note. A child never switches provider.
func (s *Session) childModel(want string) (model, note string) {
	w := strings.ToLower(strings.TrimSpace(want))
	switch w {
	case "", "inherit":
		return "", ""
	case "sonnet", "opus", "haiku":
		if s.a.cfg.SubagentModel != nil {
			return s.a.cfg.SubagentModel(w), ""
		}
		return "", ""
	}
	return "", fmt.Sprintf("asks for model %q, which AgentDesk does not map: it runs on the session's model", want)
}
