package hookrun

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// Decision is what a guard hook (PreToolUse, PermissionRequest,
// PostToolUse, PostToolUseFailure, Stop, SubagentStop,
// UserPromptExpansion) decided.
type Decision string

const (
	// NoDecision: the hook has no opinion.
	NoDecision Decision = ""
	// Block denies a PreToolUse call, gives PostToolUse feedback, or
	// continues the turn for Stop (the child's, for SubagentStop). Reason
	// says why.
	Block Decision = "block"
	// Ask forces the approval dialog (PreToolUse only).
	Ask Decision = "ask"
	// Allow is recorded but never skips AgentDesk's approval.
	Allow Decision = "allow"
)

// isGuard reports a guard event: exit status 2 is a decision (stderr is
// its reason), and its JSON decisions are read (the kinds are
// agent/lifecycle's event table).
func isGuard(event string) bool { return lifecycle.EventKindOf(event).Guard() }

// isQuiet reports a guard event whose plain-text stdout is not context.
func isQuiet(event string) bool { return lifecycle.EventKindOf(event) == lifecycle.KindQuiet }

// exitTwo is a guard hook's exit 2: a block with stderr as the reason.
func exitTwo(event string, res Result) (Output, bool) {
	var f *Failure
	if !isGuard(event) || !errors.As(res.Err, &f) || f.Kind != ExitStatus || f.ExitCode != 2 {
		return Output{}, false
	}
	reason := strings.TrimSpace(strings.ToValidUTF8(string(res.Stderr), "\uFFFD"))
	if reason == "" {
		reason = "the hook exited with status 2 without a reason on stderr"
	}
	return Output{Decision: Block, Reason: reason}, true
}

// guardDecision reads a guard hook's JSON decision: PreToolUse's
// hookSpecificOutput.permissionDecision first, then the older top-level
// decision ("block"/"deny", "approve"/"allow", "ask"); continue:false
// blocks a tool call. For Stop and SubagentStop only "block" counts:
// continue:false asks to stop, which the turn does anyway.
func guardDecision(event string, v hookOutputJSON) (Decision, string) {
	if s := v.HookSpecificOutput; event == lifecycle.EventPermissionRequest && s != nil && len(s.Decision) > 0 && string(s.Decision) != "null" {
		return permissionRequestDecision(s.Decision)
	}
	if s := v.HookSpecificOutput; event == lifecycle.EventPreToolUse && s != nil && s.PermissionDecision != "" {
		switch s.PermissionDecision {
		case "deny":
			return Block, withDefault(s.PermissionDecisionReason, "the hook denied this call without a reason")
		case "ask":
			return Ask, s.PermissionDecisionReason
		case "allow":
			return Allow, s.PermissionDecisionReason
		}
		return NoDecision, "" // "defer" and unknown values: no opinion
	}
	switch {
	case v.Decision == "block" || (v.Decision == "deny" && asksPermission(event)):
		return Block, withDefault(v.Reason, "the hook blocked without a reason")
	case event == lifecycle.EventPreToolUse && v.Decision == "ask":
		return Ask, v.Reason
	case asksPermission(event) && (v.Decision == "approve" || v.Decision == "allow"):
		return Allow, v.Reason
	case event != lifecycle.EventStop && event != lifecycle.EventSubagentStop && v.Continue != nil && !*v.Continue:
		return Block, withDefault(v.StopReason, "the hook asked to stop (continue: false) without a reason")
	}
	return NoDecision, ""
}

func asksPermission(event string) bool {
	return event == lifecycle.EventPreToolUse || event == lifecycle.EventPermissionRequest
}

// permissionRequestDecision reads PermissionRequest's
// hookSpecificOutput.decision: {"behavior": "deny"|"allow", "message": …}.
// Its updatedInput, updatedPermissions and interrupt are not read: an
// allow is reported and changes nothing, so nothing it carries applies.
func permissionRequestDecision(raw json.RawMessage) (Decision, string) {
	var d struct {
		Behavior string `json:"behavior"`
		Message  string `json:"message"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return NoDecision, ""
	}
	switch d.Behavior {
	case "deny":
		return Block, withDefault(d.Message, "the hook denied this call without a reason")
	case "allow":
		return Allow, d.Message
	}
	return NoDecision, ""
}

// updatedInput is PreToolUse's rewrite of tool_input, which must be an
// object.
func updatedInput(event string, v hookOutputJSON) (json.RawMessage, bool) {
	s := v.HookSpecificOutput
	if event != lifecycle.EventPreToolUse || s == nil || len(s.UpdatedInput) == 0 || string(s.UpdatedInput) == "null" {
		return nil, true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(s.UpdatedInput, &obj) != nil {
		return nil, false
	}
	return s.UpdatedInput, true
}
