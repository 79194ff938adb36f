package extensions

import (
	"context"
	"encoding/json"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
)

// The guard and lifecycle events (hooks.md, "Guard and lifecycle events").
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
	in := map[string]any{"tool_name": name, "tool_input": ev.Input, "tool_use_id": ev.CallID}
	if ev.Response != nil {
		in["tool_response"] = ev.Response
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

// PostToolUse implements lifecycle.Guard.
func (d *Dispatcher) PostToolUse(ctx context.Context, ev lifecycle.ToolEvent) lifecycle.Verdict {
	return mergeVerdict(d.run(ctx, toolCall(lifecycle.EventPostToolUse, ev)))
}

// Stop implements lifecycle.Guard. Stop hooks have no matcher.
func (d *Dispatcher) Stop(ctx context.Context, ev lifecycle.StopEvent) lifecycle.Verdict {
	c := call{event: lifecycle.EventStop, anyMatch: true, session: ev.SessionID, project: ev.ProjectDir,
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
		transcript: ev.TranscriptPath,
		input:      map[string]any{"reason": ev.Reason}})
}

// PreCompact implements lifecycle.Guard: the matcher sees the trigger.
func (d *Dispatcher) PreCompact(ctx context.Context, ev lifecycle.CompactEvent) lifecycle.HookResult {
	return d.dispatch(ctx, call{event: lifecycle.EventPreCompact, match: ev.Trigger, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath,
		input:      map[string]any{"trigger": ev.Trigger, "custom_instructions": ev.CustomInstructions}})
}
