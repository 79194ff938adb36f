package lifecycle

import (
	"context"
	"encoding/json"
	"strings"
)

// Guard and lifecycle events beyond the three context events. Guard hooks
// may make a tool call less likely to run or a turn go on; nothing they
// say skips AgentDesk's own approval.
const (
	EventPreToolUse          = "PreToolUse"
	EventPostToolUse         = "PostToolUse"
	EventPostToolUseFailure  = "PostToolUseFailure"
	EventPermissionRequest   = "PermissionRequest"
	EventUserPromptExpansion = "UserPromptExpansion"
	EventNotification        = "Notification"
	EventStop                = "Stop"
	EventSessionEnd          = "SessionEnd"
	EventPreCompact          = "PreCompact"
)

// SessionEnd reasons, as Claude Code names them.
const (
	EndClear = "clear"             // the session was deleted
	EndExit  = "prompt_input_exit" // the app quit, or `agentdesk run` finished
	EndOther = "other"
)

// DefaultStopHookLimit is how many times Stop hooks may continue one
// turn unless Preferences say otherwise; MaxStopHookLimit caps the
// setting.
const (
	DefaultStopHookLimit = 3
	MaxStopHookLimit     = 10
)

// Notification types, as Claude Code names them.
const (
	NotifyPermission = "permission_prompt" // an approval waits for the user
	NotifyIdle       = "idle_prompt"       // a turn ended: the agent waits for the user
)

// PreCompact triggers.
const (
	CompactManual = "manual" // the user asked (/compact)
	CompactAuto   = "auto"   // the threshold or an overflow
)

// Guard is what the loop asks extensions around tool calls and turn ends.
// Like Lifecycle, calls never fail: problems come back as notices, and a
// failed or timed-out hook has no opinion.
type Guard interface {
	// PreToolUse runs before a tool call is approved or run.
	PreToolUse(ctx context.Context, ev ToolEvent) ToolVerdict
	// PermissionRequest runs when the approval dialog is about to be
	// shown for a call (never where the policy or a grant lets it run, or
	// nobody can be asked). A block answers for the user: the dialog is
	// not shown and the call is denied. An allow is never honoured.
	PermissionRequest(ctx context.Context, ev ToolEvent) PermissionVerdict
	// PostToolUse runs after a call ran; its context and block reasons go
	// into that call's result.
	PostToolUse(ctx context.Context, ev ToolEvent) Verdict
	// PostToolUseFailure runs instead of PostToolUse when the call ran and
	// failed (ev.Error); like PostToolUse, what it says goes into that
	// call's result. A call the user or a hook denied never ran: neither
	// event fires for it.
	PostToolUseFailure(ctx context.Context, ev ToolEvent) Verdict
	// Stop runs when the model answered without tool calls; Block means
	// the turn goes on with Reason as a hidden note.
	Stop(ctx context.Context, ev StopEvent) Verdict
	// SessionEnd runs when a session ends; its output is ignored. It
	// returns when the hooks are done or ctx ends.
	SessionEnd(ctx context.Context, ev SessionEndEvent)
	// UserPromptExpansion runs when an extension's slash command was
	// expanded, before anything is sent. Block means the command is not
	// sent (Reasons say why); its context joins that turn's user message.
	UserPromptExpansion(ctx context.Context, ev ExpansionEvent) Verdict
	// Notification runs when AgentDesk would notify the user (see
	// agent.Attention); its output is ignored (runs and failures are
	// recorded). It returns when the hooks are done or ctx ends.
	Notification(ctx context.Context, ev NotificationEvent)
	// PreCompact runs before a compaction; its context joins the
	// compaction request. It cannot veto.
	PreCompact(ctx context.Context, ev CompactEvent) HookResult
	// SubagentStop runs when a child answered without tool calls; Block
	// means the child goes on with Reason as a hidden note.
	SubagentStop(ctx context.Context, ev SubagentStopEvent) Verdict
}

// ToolEvent is one tool call, as guard hooks see it: Claude Code's tool
// name and field names, besides AgentDesk's own name.
type ToolEvent struct {
	SessionID      string
	ProjectDir     string
	TranscriptPath string
	PermissionMode string
	Tool           string // AgentDesk's name, e.g. run_command
	ClaudeTool     string // Claude Code's name, e.g. Bash; "" when it has none
	// ClaudeAliases are other Claude Code names a matcher may use for the
	// tool (the task tool is Task, and Agent in newer versions).
	ClaudeAliases []string
	// MCP is the identity of an MCP tool (nil for the loop's own tools):
	// hooks get it as agentdesk_mcp_tool, so one can tell two extensions'
	// tools apart even when their Claude Code names are alike.
	MCP *ToolID
	// AgentID and AgentType name the child making the call; empty for the
	// main conversation.
	AgentID, AgentType string
	Input              json.RawMessage // tool_input, with Claude Code's field names
	CallID             string          // tool_use_id
	Response           json.RawMessage // tool_response (PostToolUse only)
	Error              string          // the failed call's result (PostToolUseFailure only)
}

// StopEvent is the model's answer ending a turn.
type StopEvent struct {
	SessionID      string
	ProjectDir     string
	TranscriptPath string
	PermissionMode string
	// Active is true when this turn already went on because of a Stop
	// hook (Claude Code's stop_hook_active), so a hook can let it end.
	Active bool
}

// SubagentStopEvent is a child's answer ending its run.
type SubagentStopEvent struct {
	SessionID       string // the parent's session
	ProjectDir      string
	TranscriptPath  string // the parent's
	PermissionMode  string
	AgentID         string // the child's session
	AgentType       string
	AgentTranscript string // the child's JSONL transcript (agent_transcript_path)
	LastMessage     string // the child's answer (last_assistant_message)
	Active          bool   // the child already went on because of a SubagentStop hook
}

// SessionEndEvent is a session ending.
type SessionEndEvent struct {
	SessionID      string
	ProjectDir     string
	TranscriptPath string
	Reason         string // EndClear, EndExit or EndOther
}

// ExpansionEvent is an extension's slash command expanded into a prompt.
type ExpansionEvent struct {
	SessionID      string
	ProjectDir     string
	TranscriptPath string
	PermissionMode string
	Command        string // command_name: "EXT:NAME", as Claude Code names plugin commands
	Short          string // NAME alone, which matchers may name too
	Args           string // command_args: the text after the name, as typed
	Prompt         string // the expanded prompt the model would get
}

// NotificationEvent is AgentDesk telling the user it needs them.
type NotificationEvent struct {
	SessionID      string
	ProjectDir     string
	TranscriptPath string
	PermissionMode string
	Type           string // NotifyPermission or NotifyIdle (notification_type, the matcher)
	Title          string
	Message        string
}

// CompactEvent is a compaction about to run.
type CompactEvent struct {
	SessionID          string
	ProjectDir         string
	TranscriptPath     string
	Trigger            string // CompactManual or CompactAuto
	CustomInstructions string
}

// Verdict is what a guard event decided, merged across extensions in
// installation order.
type Verdict struct {
	HookResult
	// Reasons are the blocks, one per blocking extension, in installation
	// order. For PreToolUse the call is denied, for PostToolUse they are
	// feedback in the result, for Stop the turn goes on with them.
	Reasons []Reason
}

// Reason is one extension's reason to block.
type Reason struct {
	Source string // extension id
	Label  string // display name
	Text   string
}

// Blocked says whether any extension blocked.
func (v Verdict) Blocked() bool { return len(v.Reasons) > 0 }

// ReasonText is the reasons for people and the model: one line each,
// "Label: reason".
func (v Verdict) ReasonText() string {
	var b strings.Builder
	for i, r := range v.Reasons {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(r.Label + ": " + r.Text)
	}
	return b.String()
}

// ToolVerdict is PreToolUse's answer.
type ToolVerdict struct {
	Verdict
	// Ask forces the approval dialog even where the policy or an earlier
	// grant would let the call run; AskReason says why.
	Ask       bool
	AskReason string
	// UpdatedInput is a hook's rewrite of tool_input (Claude Code's field
	// names), from the first extension that gave one; RewrittenBy names
	// it. The loop applies it only if it passes the tool's validation, and
	// then always asks.
	UpdatedInput json.RawMessage
	RewrittenBy  string
}

// PermissionVerdict is PermissionRequest's answer.
type PermissionVerdict struct {
	Verdict
	// Allows are the extensions that answered "allow", in installation
	// order (Text: their message). AgentDesk never lets an extension
	// approve: the dialog is shown anyway, and the user is told.
	Allows []Reason
}

// NopGuard is the Guard with no extensions.
type NopGuard struct{}

func (NopGuard) PreToolUse(context.Context, ToolEvent) ToolVerdict { return ToolVerdict{} }
func (NopGuard) PermissionRequest(context.Context, ToolEvent) PermissionVerdict {
	return PermissionVerdict{}
}
func (NopGuard) PostToolUse(context.Context, ToolEvent) Verdict              { return Verdict{} }
func (NopGuard) PostToolUseFailure(context.Context, ToolEvent) Verdict       { return Verdict{} }
func (NopGuard) Stop(context.Context, StopEvent) Verdict                     { return Verdict{} }
func (NopGuard) SessionEnd(context.Context, SessionEndEvent)                 {}
func (NopGuard) UserPromptExpansion(context.Context, ExpansionEvent) Verdict { return Verdict{} }
func (NopGuard) Notification(context.Context, NotificationEvent)             {}
func (NopGuard) PreCompact(context.Context, CompactEvent) HookResult         { return HookResult{} }
func (NopGuard) SubagentStop(context.Context, SubagentStopEvent) Verdict     { return Verdict{} }
