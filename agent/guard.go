package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// Guard hooks around tool calls (see docs/extensions.md, "What each event
// may and may not do"). An extension can make a call less likely to run, never more:
// a deny stops it before anyone is asked, an ask or a rewrite forces the
// dialog, and nothing a hook says skips it.

// DefaultStopHookLimit is how many times Stop hooks may continue one turn.
const DefaultStopHookLimit = lifecycle.DefaultStopHookLimit

// SessionEndBudget bounds how long quitting (the app, or `agentdesk run`)
// waits for SessionEnd hooks, whatever their own timeouts: quitting must
// stay quick.
const SessionEndBudget = 10 * time.Second

// PermissionMode is Claude Code's name for an approval policy, which hooks
// get as permission_mode.
func (p Policy) PermissionMode() string {
	switch p {
	case PolicyAutoEdits:
		return "acceptEdits"
	case PolicyNever:
		return "bypassPermissions"
	case PolicyReadsOnly:
		return "plan" // Claude Code's read-only mode
	}
	return "default"
}

// guardedCall is a tool call after PreToolUse: the arguments to run (a
// valid rewrite, or the model's own) and what the approval must show.
type guardedCall struct {
	args    json.RawMessage
	preview tools.Preview
	// forced says why the user must be asked even where the policy or a
	// grant would let the call run; empty when nothing forces it.
	forced string
	// original is the model's call when a hook rewrote it.
	original        *tools.Preview
	originalSummary string
	// context is what PreToolUse hooks added; it goes into the result.
	context []lifecycle.ContextBlock
}

// toolEvent is a call as guard hooks see it; a child's call carries its
// agent id and type, as in Claude Code.
func (s *Session) toolEvent(th *thread, tool tools.Tool, name, callID string, args json.RawMessage) lifecycle.ToolEvent {
	ev := lifecycle.ToolEvent{SessionID: s.info.ID, ProjectDir: s.project, TranscriptPath: s.transcriptPath(), PermissionMode: s.permissionMode(),
		Tool: name, ClaudeTool: tools.ClaudeName(name), Input: tools.ToClaudeInput(name, args, s.project), CallID: callID}
	if m, ok := tool.(*mcpTool); ok {
		// Hooks see Claude Code's name (a collision's suffix is ours) and
		// the identity; matchers try both names, so a guard written for
		// either spelling still stops the call.
		id := m.d.ID
		ev.MCP = &id
		if m.d.ClaudeName != "" && m.d.ClaudeName != name {
			ev.ClaudeTool = m.d.ClaudeName
		}
	}
	if name == taskToolName {
		ev.ClaudeAliases = []string{"Agent"} // Claude Code's newer name for Task
	}
	if th != s.main {
		ev.AgentID, ev.AgentType = th.session, th.agentType
	}
	return ev
}

// preToolUse runs the PreToolUse hooks for a valid call. A deny returns
// the result the model reads instead of the call's.
func (s *Session) preToolUse(ctx context.Context, th *thread, box *toolbox, tool tools.Tool, call llm.Part, args json.RawMessage, p tools.Preview) (guardedCall, *tools.Result) {
	g := guardedCall{args: args, preview: p}
	v := s.a.cfg.Lifecycle.PreToolUse(s.reporting(ctx), s.toolEvent(th, tool, call.Name, call.CallID, args))
	s.notices(ctx, v.Notices)
	g.context = s.budget(ctx, v.Blocks)
	if v.Blocked() {
		s.host(ctx, Host{Kind: HostNotice, Source: v.Reasons[0].Source, Label: v.Reasons[0].Label, Event: lifecycle.EventPreToolUse,
			Text: "denied " + box.Describe(call.Name, args) + ": " + noticeReasons(v.Verdict)})
		res := tools.Result{Text: "not run: an extension's PreToolUse hook denied this call.\n" + v.ReasonText(), IsError: true}
		return g, &res
	}
	if v.Ask {
		g.forced = "An extension asks you to approve this call" + withReason(v.AskReason)
	}
	if v.UpdatedInput != nil {
		s.rewrite(ctx, &g, box, tool, call, v)
	}
	return g, nil
}

// rewrite applies a hook's updatedInput if the tool accepts it, and then
// always asks, showing the original and the rewrite. A rewrite the tool
// rejects is not applied; the original call is asked about instead.
func (s *Session) rewrite(ctx context.Context, g *guardedCall, box *toolbox, tool tools.Tool, call llm.Part, v lifecycle.ToolVerdict) {
	args := tools.FromClaudeInput(call.Name, v.UpdatedInput, s.project)
	p, err := tool.Preview(args)
	if err != nil {
		s.host(ctx, Host{Kind: HostNotice, Label: v.RewrittenBy, Event: lifecycle.EventPreToolUse,
			Text: "rewrote " + call.Name + " into an invalid call (" + err.Error() + "); the rewrite was not applied"})
		g.forced = v.RewrittenBy + " tried to rewrite this call (the rewrite was invalid and is not applied)"
		return
	}
	original := g.preview
	g.original, g.originalSummary = &original, box.Describe(call.Name, g.args)
	g.args, g.preview = args, p
	g.forced = v.RewrittenBy + " rewrote this call; check the rewrite against the original"
}

// permissionRequest runs the PermissionRequest hooks just before the
// approval dialog. A deny answers for the user: no dialog, and the result
// the model reads is the reason. An allow is never honoured: the dialog
// is shown, and the chat says the extension asked to skip it.
func (s *Session) permissionRequest(ctx context.Context, th *thread, box *toolbox, name string, g guardedCall) *tools.Result {
	tool, _ := box.Lookup(name)
	v := s.a.cfg.Lifecycle.PermissionRequest(s.reporting(ctx), s.toolEvent(th, tool, name, "", g.args))
	s.notices(ctx, v.Notices)
	if v.Blocked() {
		s.host(ctx, Host{Kind: HostNotice, Source: v.Reasons[0].Source, Label: v.Reasons[0].Label, Event: lifecycle.EventPermissionRequest,
			Text: "denied " + box.Describe(name, g.args) + ": " + noticeReasons(v.Verdict)})
		return &tools.Result{Text: "not run: an extension's PermissionRequest hook denied this call.\n" + v.ReasonText(), IsError: true}
	}
	for _, a := range v.Allows {
		s.host(ctx, Host{Kind: HostNotice, Source: a.Source, Label: a.Label, Event: lifecycle.EventPermissionRequest,
			Text: "answered allow for " + box.Describe(name, g.args) + withReason(a.Text) + "; extensions never approve, so you are asked"})
	}
	return nil
}

// noticeReasons words a verdict's reasons for a notice that already
// carries the first extension's name.
func noticeReasons(v lifecycle.Verdict) string {
	if len(v.Reasons) == 1 {
		return v.Reasons[0].Text
	}
	return v.ReasonText()
}

func withReason(r string) string {
	if r = strings.TrimSpace(r); r != "" {
		return ": " + r
	}
	return ""
}

// postToolUse runs the PostToolUse hooks, or for a call that failed the
// PostToolUseFailure hooks (as Claude Code does), and puts what they said
// inside the call's result: extra user messages would change the request
// prefix.
func (s *Session) postToolUse(ctx context.Context, th *thread, tool tools.Tool, name, callID string, g guardedCall, res tools.Result) tools.Result {
	ev := s.toolEvent(th, tool, name, callID, g.args)
	event, hooks := lifecycle.EventPostToolUse, s.a.cfg.Lifecycle.PostToolUse
	if res.IsError {
		event, hooks = lifecycle.EventPostToolUseFailure, s.a.cfg.Lifecycle.PostToolUseFailure
		ev.Error = res.Text
	} else {
		ev.Response = tools.ClaudeResponse(name, ev.Input, res)
	}
	v := hooks(s.reporting(ctx), ev)
	s.notices(ctx, v.Notices)
	post := v.Blocks
	for _, r := range v.Reasons {
		post = append(post, lifecycle.ContextBlock{Source: r.Source, Event: event, Text: r.Text})
	}
	return withFeedback(res, append(g.context, s.budget(ctx, post)...))
}

// withFeedback appends hook context to a tool result, each block wrapped
// with its source like any extension context.
func withFeedback(res tools.Result, blocks []lifecycle.ContextBlock) tools.Result {
	for _, b := range blocks {
		if strings.TrimSpace(b.Text) != "" {
			res.Text += "\n\n" + llm.ContextText(b.Source, b.Event, b.Text)
		}
	}
	return res
}

// stopHooks runs the Stop hooks after the model answered without tool
// calls. A block continues the turn with the reasons as a hidden note, at
// most the limit's times per prompt; the user's Stop always wins.
func (s *Session) stopHooks(ctx context.Context) error {
	limit := s.a.cfg.StopHookLimit()
	for round := 0; ctx.Err() == nil; round++ {
		v := s.a.cfg.Lifecycle.Stop(s.reporting(ctx), lifecycle.StopEvent{SessionID: s.info.ID, ProjectDir: s.project,
			TranscriptPath: s.transcriptPath(), PermissionMode: s.permissionMode(), Active: round > 0})
		s.notices(ctx, v.Notices)
		if !v.Blocked() || ctx.Err() != nil {
			return nil
		}
		first := v.Reasons[0]
		if round >= limit {
			s.host(ctx, Host{Kind: HostNotice, Source: first.Source, Label: first.Label, Event: lifecycle.EventStop,
				Text: fmt.Sprintf("asked to continue again; the turn ends (at most %d times per prompt, see Preferences): %s", limit, noticeReasons(v))})
			return nil
		}
		s.host(ctx, Host{Kind: HostNotice, Source: first.Source, Label: first.Label, Event: lifecycle.EventStop,
			Text: fmt.Sprintf("asked to continue (%d/%d): %s", round+1, limit, noticeReasons(v))})
		var parts []llm.Part
		for _, r := range v.Reasons {
			parts = append(parts, llm.Part{Kind: llm.PartContext, Source: r.Source, Event: lifecycle.EventStop, Text: r.Text})
		}
		note, err := s.append(ctx, s.main, Entry{Role: llm.RoleUser, Parts: parts, Tokens: estimateParts(parts)})
		if err != nil {
			return err
		}
		if _, err := s.converse(ctx, s.main, s.system, note.Seq); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// End fires SessionEnd for this session (reason: lifecycle.EndClear,
// EndExit or EndOther) and waits for its hooks, bounded by ctx and their
// own timeouts. Their output is ignored.
func (s *Session) End(ctx context.Context, reason string) {
	s.a.cfg.Lifecycle.SessionEnd(ctx, lifecycle.SessionEndEvent{SessionID: s.info.ID, ProjectDir: s.project,
		TranscriptPath: s.transcriptPath(), Reason: reason})
}

func (s *Session) permissionMode() string { return s.a.cfg.Policy().PermissionMode() }

// transcriptPath is the session's JSONL transcript for hooks, "" when
// there is none.
func (s *Session) transcriptPath() string { return s.transcript.file() }
