// Package lifecycle is the contract between the agent loop and
// extensions: the Lifecycle interface, the events it carries, and what
// hooks give back (HookResult, ContextBlock, Notice). The loop calls it,
// extensions implement it, app wires the two; neither side needs the
// other's package.
package lifecycle

import "context"

// Hook event names, as extensions know them.
const (
	EventSessionStart     = "SessionStart"
	EventUserPromptSubmit = "UserPromptSubmit"
	EventSubagentStart    = "SubagentStart"
	EventSubagentStop     = "SubagentStop"
)

// SessionStart sources.
const (
	SourceStartup = "startup"
	SourceResume  = "resume"
	SourceCompact = "compact"
)

// Lifecycle is how the loop lets extensions add context. The loop calls
// it, extensions implement it, app wires it. Calls may run hook
// processes; they honour ctx and never fail the turn: problems come back
// as notices.
type Lifecycle interface {
	SessionStart(ctx context.Context, ev SessionStartEvent) HookResult
	UserPromptSubmit(ctx context.Context, ev PromptEvent) HookResult
	SubagentStart(ctx context.Context, ev SubagentEvent) HookResult
	// Enabled lists the extensions whose context may be sent in a
	// session of project, in installation order: as the job ctx belongs
	// to sees them (TurnScope), else as they are now. Context from any
	// other source is left out of the next request.
	Enabled(ctx context.Context, project string) []string
	// Guard runs the hooks around tool calls, turn ends, compaction and
	// session ends.
	Guard
}

// TurnScope is implemented by a Lifecycle that gives each job of a
// session (a prompt's turn, a SessionStart, a Ralph run) one view of the
// enabled extensions: the loop calls BeginTurn first and passes the
// returned context to every call of the job, so all of them (hooks of
// every event, tools, commands, subagents) see the same extensions and a
// tool call does not read the registry.
type TurnScope interface {
	BeginTurn(ctx context.Context, projectDir string) context.Context
}

// SessionStartEvent fires when a session starts, resumes or compacts.
type SessionStartEvent struct {
	SessionID      string
	ProjectDir     string
	TranscriptPath string // the session's JSONL transcript; "" when there is none
	PermissionMode string // the approval policy in Claude Code's words
	Source         string // SourceStartup, SourceResume or SourceCompact
	Model          string
}

// PromptEvent fires once per real user prompt, before generation.
type PromptEvent struct {
	SessionID      string
	ProjectDir     string
	TranscriptPath string
	PermissionMode string
	Prompt         string
}

// SubagentEvent fires before a child's first request: each Ralph round,
// each delegated task.
type SubagentEvent struct {
	SessionID       string // the child's session
	ParentSessionID string
	ProjectDir      string
	PermissionMode  string
	AgentID         string
	AgentType       string // "ralph", "general-purpose", or an extension agent's namespaced name
	Round           int    // Ralph's round; 0 for other children
}

// ContextBlock is context one extension returned for one event.
type ContextBlock struct {
	Source string // extension id
	Event  string
	Text   string
	Hash   string // of Text; equal hashes mean nothing new to add
}

// NoticeKind says what a Notice is about.
type NoticeKind string

const (
	NoticeStatus  NoticeKind = "status"  // a hook's systemMessage: a chip, never sent to the model
	NoticeBlocked NoticeKind = "blocked" // a hook asked to block; the prompt stays authoritative
	NoticeFailure NoticeKind = "failure" // a hook failed; shown once until it recovers
	NoticeMCP     NoticeKind = "mcp"     // an MCP server or tool is unavailable; its card says why
)

// Notice is a user-visible line an extension produced.
type Notice struct {
	Kind   NoticeKind
	Source string // extension id
	Label  string // display name
	Text   string
}

// HookResult is what one lifecycle event produced, merged across
// extensions in installation order.
type HookResult struct {
	Blocks  []ContextBlock
	Notices []Notice
}

// NopLifecycle is the Lifecycle with no extensions.
type NopLifecycle struct{ NopGuard }

func (NopLifecycle) SessionStart(context.Context, SessionStartEvent) HookResult { return HookResult{} }
func (NopLifecycle) UserPromptSubmit(context.Context, PromptEvent) HookResult   { return HookResult{} }
func (NopLifecycle) SubagentStart(context.Context, SubagentEvent) HookResult    { return HookResult{} }
func (NopLifecycle) Enabled(context.Context, string) []string                   { return nil }

type statusKey struct{}

// WithStatus gives a lifecycle call a way to say what it is doing.
func WithStatus(ctx context.Context, report func(string)) context.Context {
	return context.WithValue(ctx, statusKey{}, report)
}

// ReportStatus shows a short line (such as a hook's statusMessage) in
// the status bar while a lifecycle call runs. It does nothing outside one.
func ReportStatus(ctx context.Context, status string) {
	if report, ok := ctx.Value(statusKey{}).(func(string)); ok {
		report(status)
	}
}
