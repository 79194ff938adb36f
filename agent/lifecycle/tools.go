package lifecycle

import (
	"context"
	"encoding/json"
)

// ToolSource offers tools beyond the loop's own: the enabled extensions'
// MCP server tools. The loop asks at each turn boundary and keeps the
// answer for the whole turn, so the tool list in the request prefix never
// changes mid-turn. Like Lifecycle it never fails: servers that could not
// start come back as notices, their tools left out.
type ToolSource interface {
	// Tools starts what is not started yet (bounded by its start timeout
	// and ctx) and returns the tools offered now.
	Tools(ctx context.Context, ev ToolsEvent) ToolSet
}

// DefaultMCPToolShare is the percentage of the model's context window
// the MCP tool definitions of one request may take unless Preferences
// say otherwise (tools past it wait for tool_search); MaxMCPToolShare
// caps the setting.
const (
	DefaultMCPToolShare = 10
	MaxMCPToolShare     = 100
)

// ToolsEvent is a turn about to start.
type ToolsEvent struct {
	SessionID  string
	ProjectDir string
}

// ToolSet is the tools offered for one turn and what the user should know
// about the ones that are not.
type ToolSet struct {
	Tools   []ToolDescriptor
	Notices []Notice
}

// ToolDescriptor is one tool the model may call, as the loop sees it. The
// loop asks the user before every call (an "always" answer covers this
// tool for the session), runs guard hooks with Name, and cancels Call's
// ctx on Stop.
type ToolDescriptor struct {
	Name string // as the model calls it: mcp__plugin_<plugin>_<server>__<tool>, unique in a request
	// ClaudeName is Claude Code's name for the tool: Name, or Name
	// without the suffix a collision added. Guard matchers and deny or ask
	// rules written for it still apply (they can only stop a call).
	ClaudeName string
	// ID is who offers the tool. "Always" answers are remembered by it,
	// never by Name: two extensions' servers may spell a name alike.
	ID          ToolID
	Description string          // for the model
	Schema      json.RawMessage // the input JSON Schema, validated
	// ReadOnlyHint is the server's claim that the tool changes nothing: it
	// may soften the risk shown to the user, never skip asking.
	ReadOnlyHint bool
	Source       string // extension id
	Label        string // for people: "Context Mode › context-mode: search"
	Call         func(ctx context.Context, args json.RawMessage) ToolResult
}

// ToolID names an MCP tool by what it is: the extension, its server and
// the server's own name for the tool.
type ToolID struct {
	Extension, Server, Tool string
}

// Key is the identity as one string (the names cannot contain NUL).
func (id ToolID) Key() string { return id.Extension + "\x00" + id.Server + "\x00" + id.Tool }

// ToolResult is what a call gives the model.
type ToolResult struct {
	Text    string
	IsError bool
}
