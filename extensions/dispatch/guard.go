package dispatch

import (
	"context"
	"encoding/json"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
)

// The guard and lifecycle events (docs/extensions.md, "What each event may
// and may not do").
// They run through the same dispatch as the context events: same
// matchers, argv, environment, bounds and run records. What differs is
// how their answers merge: any extension may block, none can approve.

// guardResult is one extension's guard answer: the first of its hooks
// that decided, in manifest order.
type guardResult struct {
	blocked   bool
	reason    string
	ask       bool
	askReason string
	allowed   bool // answered allow: reported where it matters, never honoured
	allow     string
	updated   json.RawMessage
}

func (g *guardResult) add(out hookrun.Output) {
	switch out.Decision {
	case hookrun.Block:
		if !g.blocked {
			g.blocked, g.reason = true, out.Reason
		}
	case hookrun.Ask:
		if !g.ask {
			g.ask, g.askReason = true, out.Reason
		}
	case hookrun.Allow:
		if !g.allowed {
			g.allowed, g.allow = true, out.Reason
		}
	}
	if g.updated == nil && out.UpdatedInput != nil {
		g.updated = out.UpdatedInput
	}
}

// mergeVerdict joins the extensions' context, notices and blocks in
// installation order.
func mergeVerdict(results []extResult) lifecycle.Verdict {
	v := lifecycle.Verdict{HookResult: mergeContext(results)}
	for _, r := range results {
		if r.guard.blocked {
			v.Reasons = append(v.Reasons, lifecycle.Reason{Source: r.id, Label: r.label, Text: r.guard.reason})
		}
	}
	return v
}

func toolCall(event string, ev lifecycle.ToolEvent) call {
	name := ev.ClaudeTool
	if name == "" {
		name = ev.Tool
	}
	in := map[string]any{"tool_name": name, "tool_input": ev.Input}
	if ev.CallID != "" {
		in["tool_use_id"] = ev.CallID
	}
	if ev.Response != nil {
		in["tool_response"] = ev.Response
	}
	if event == lifecycle.EventPostToolUseFailure {
		// A call the user stopped runs no hooks (Stop ends them too), so
		// the failures hooks see are never interrupts.
		in["error"], in["is_interrupt"] = ev.Error, false
	}
	if ev.MCP != nil {
		in["agentdesk_mcp_tool"] = map[string]string{"extension": ev.MCP.Extension, "server": ev.MCP.Server, "tool": ev.MCP.Tool}
	}
	if ev.AgentType != "" { // a child's call, as Claude Code marks one
		in["agent_id"], in["agent_type"] = ev.AgentID, ev.AgentType
	}
	return call{event: event, match: ev.Tool, aliases: append([]string{ev.ClaudeTool}, ev.ClaudeAliases...), session: ev.SessionID,
		project: ev.ProjectDir, transcript: ev.TranscriptPath, mode: ev.PermissionMode, input: in}
}

// PreToolUse implements lifecycle.Guard. Any extension's deny denies; an
// ask from any forces the dialog; the first rewrite (installation order)
// is offered, the loop decides whether it applies. An allow is recorded
// in the run history and nothing else.
func (d *Dispatcher) PreToolUse(ctx context.Context, ev lifecycle.ToolEvent) lifecycle.ToolVerdict {
	results := d.run(ctx, toolCall(lifecycle.EventPreToolUse, ev))
	v := lifecycle.ToolVerdict{Verdict: mergeVerdict(results)}
	for _, r := range results {
		if r.guard.ask && !v.Ask {
			v.Ask, v.AskReason = true, r.label+withColon(r.guard.askReason)
		}
		if r.guard.updated != nil && v.UpdatedInput == nil {
			v.UpdatedInput, v.RewrittenBy = r.guard.updated, r.label
		}
	}
	return v
}

func withColon(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

// PermissionRequest implements lifecycle.Guard: any extension's deny
// denies; the allows are returned only to be reported.
func (d *Dispatcher) PermissionRequest(ctx context.Context, ev lifecycle.ToolEvent) lifecycle.PermissionVerdict {
	results := d.run(ctx, toolCall(lifecycle.EventPermissionRequest, ev))
	v := lifecycle.PermissionVerdict{Verdict: mergeVerdict(results)}
	for _, r := range results {
		if r.guard.allowed {
			v.Allows = append(v.Allows, lifecycle.Reason{Source: r.id, Label: r.label, Text: r.guard.allow})
		}
	}
	return v
}

// PostToolUse implements lifecycle.Guard.
func (d *Dispatcher) PostToolUse(ctx context.Context, ev lifecycle.ToolEvent) lifecycle.Verdict {
	return mergeVerdict(d.run(ctx, toolCall(lifecycle.EventPostToolUse, ev)))
}

// PostToolUseFailure implements lifecycle.Guard: PostToolUse's rules, for
// a call that failed.
func (d *Dispatcher) PostToolUseFailure(ctx context.Context, ev lifecycle.ToolEvent) lifecycle.Verdict {
	return mergeVerdict(d.run(ctx, toolCall(lifecycle.EventPostToolUseFailure, ev)))
}

// Stop implements lifecycle.Guard. Stop hooks have no matcher.
func (d *Dispatcher) Stop(ctx context.Context, ev lifecycle.StopEvent) lifecycle.Verdict {
	c := call{event: lifecycle.EventStop, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath, mode: ev.PermissionMode,
		input: map[string]any{"stop_hook_active": ev.Active}}
	return mergeVerdict(d.run(ctx, c))
}

// SubagentStop implements lifecycle.Guard: the matcher sees the agent
// type, as for SubagentStart; a block continues the child.
func (d *Dispatcher) SubagentStop(ctx context.Context, ev lifecycle.SubagentStopEvent) lifecycle.Verdict {
	c := call{event: lifecycle.EventSubagentStop, match: ev.AgentType, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath, mode: ev.PermissionMode,
		input: map[string]any{"agent_id": ev.AgentID, "agent_type": ev.AgentType, "agent_transcript_path": ev.AgentTranscript,
			"last_assistant_message": ev.LastMessage, "stop_hook_active": ev.Active}}
	return mergeVerdict(d.run(ctx, c))
}

// SessionEnd implements lifecycle.Guard: the matcher sees the reason; the
// output is ignored (runs and failures are still recorded).
func (d *Dispatcher) SessionEnd(ctx context.Context, ev lifecycle.SessionEndEvent) {
	d.run(ctx, call{event: lifecycle.EventSessionEnd, match: ev.Reason, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath, quiet: true,
		input: map[string]any{"reason": ev.Reason}})
}

// UserPromptExpansion implements lifecycle.Guard: the matcher sees the
// command's name, namespaced ("probe:review") or short ("review"). Any
// extension's block keeps the command from being sent.
func (d *Dispatcher) UserPromptExpansion(ctx context.Context, ev lifecycle.ExpansionEvent) lifecycle.Verdict {
	in := map[string]any{"expansion_type": "slash_command", "command_name": ev.Command, "command_args": ev.Args,
		"command_source": "plugin", "prompt": ev.Prompt}
	return mergeVerdict(d.run(ctx, call{event: lifecycle.EventUserPromptExpansion, match: ev.Command, aliases: []string{ev.Short},
		session: ev.SessionID, project: ev.ProjectDir, transcript: ev.TranscriptPath, mode: ev.PermissionMode, input: in}))
}

// Notification implements lifecycle.Guard: the matcher sees the
// notification type; the output is ignored (runs and failures are still
// recorded, and shown in the pane).
func (d *Dispatcher) Notification(ctx context.Context, ev lifecycle.NotificationEvent) {
	d.run(ctx, call{event: lifecycle.EventNotification, match: ev.Type, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath, mode: ev.PermissionMode, quiet: true,
		input: map[string]any{"notification_type": ev.Type, "title": ev.Title, "message": ev.Message}})
}

// PreCompact implements lifecycle.Guard: the matcher sees the trigger.
func (d *Dispatcher) PreCompact(ctx context.Context, ev lifecycle.CompactEvent) lifecycle.HookResult {
	return d.dispatch(ctx, call{event: lifecycle.EventPreCompact, match: ev.Trigger, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath,
		input:      map[string]any{"trigger": ev.Trigger, "custom_instructions": ev.CustomInstructions}})
}
