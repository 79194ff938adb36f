package agent

import (
	"context"
	"encoding/json"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// toolbox is what one thread may call during one turn: the project's
// built-in tools, narrowed to an allowlist for a child agent, and the
// turn's extra tools (the task tool, extension MCP tools). It is built at
// a turn boundary and kept for the whole turn, so the tool list in the
// request prefix never changes mid-turn; only MCP tools tool_search found
// join it, after all the others (mcpshelf.go).
type toolbox struct {
	set   *tools.Set
	only  map[string]bool // tools this thread may use (see childTools); nil: all
	extra []tools.Tool
	found *mcpShelf // deferred MCP tools; the found ones are offered
}

// extras are the extra tools and then the found MCP tools.
func (b *toolbox) extras() []tools.Tool {
	return append(append([]tools.Tool(nil), b.extra...), b.found.offered()...)
}

// describer is an extra tool that words its own calls for the transcript
// and the approval dialog.
type describer interface {
	Describe(args json.RawMessage) string
}

// Specs describes the tools to the model: built-ins in their stable
// order, then the extras in the order given, then the found MCP tools in
// the order found.
func (b *toolbox) Specs() []llm.ToolSpec {
	var specs []llm.ToolSpec
	for _, spec := range b.set.Specs() {
		if b.only == nil || b.only[spec.Name] {
			specs = append(specs, spec)
		}
	}
	for _, t := range b.extras() {
		specs = append(specs, t.Spec())
	}
	return specs
}

// Lookup finds a tool the thread may call by the name the model used.
func (b *toolbox) Lookup(name string) (tools.Tool, bool) {
	if t, ok := b.set.Lookup(name); ok {
		if b.only != nil && !b.only[name] {
			return nil, false
		}
		return t, true
	}
	for _, t := range b.extras() {
		if t.Spec().Name == name {
			return t, true
		}
	}
	return nil, false
}

// Describe is a one-line summary of a call, as tools.Set.Describe.
func (b *toolbox) Describe(name string, args json.RawMessage) string {
	if _, ok := b.set.Lookup(name); ok {
		return b.set.Describe(name, args)
	}
	for _, t := range b.extras() {
		if t.Spec().Name != name {
			continue
		}
		if d, ok := t.(describer); ok {
			return tools.OneLine(d.Describe(args))
		}
		return tools.OneLine(name + " " + string(args))
	}
	return b.set.Describe(name, args) // says "unknown tool"
}

// toolboxFor picks th's tools for the turn about to start; ctx is the
// turn's (starting MCP servers honours Stop).
func (s *Session) toolboxFor(ctx context.Context, th *thread) *toolbox {
	extra := s.extraTools(ctx, th)
	return &toolbox{set: s.tools, only: th.only, extra: extra, found: th.mcp}
}

// extraTools are the tools beyond the built-ins that th gets this turn:
// the task tool (subagents: the main thread only), the catalog's (a
// child's as its allowlist grants), the
// lsp tool when a language server covers the project, then the
// extensions' MCP tools. The MCP tools are fitted first: tool_search is
// offered when some of them wait for it.
func (s *Session) extraTools(ctx context.Context, th *thread) []tools.Tool {
	var extra []tools.Tool
	extra = append(extra, s.taskTools(th)...)
	mcp := s.mcpTools(ctx, th)
	extra = append(extra, s.catalogTools(th)...)
	extra = append(extra, s.lspTools(ctx, th)...)
	extra = append(extra, mcp...)
	return extra
}
