package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/storage"
)

// MaxChildTurns is the host's ceiling on one child's model calls, whatever
// its definition's maxTurns says.
const MaxChildTurns = 50

// Child run outcomes, shown on the child's entry (Ralph adds its own).
const (
	ChildRunning = "running"
	ChildDone    = "done"
	ChildFailed  = "failed"
	ChildStopped = "stopped"
)

// childDef is one fresh-context child: a Ralph round or a delegated task.
// It sees its own instructions, the base policy, the tool schema,
// AGENTS.md and its prompt, never the parent's conversation.
type childDef struct {
	agentType string // hooks' agent_type: "ralph", "general-purpose", "ext:name"
	kind      string // the child session's storage kind
	title     string
	// instructions is the system prompt section the child adds after
	// AGENTS.md: Ralph's round rules, a plugin agent's body.
	instructions string
	// skills narrows the skills catalog to these names; nil keeps all of
	// it, empty drops it.
	skills []string
	only   map[string]bool // tools it may call (see childTools); nil: all
	model  string          // "" : the parent's
	turns  int             // model calls; 0: MaxChildTurns
	round  int             // Ralph's round, for SubagentStart
	prompt string          // its first user message
}

// childRun is how a child ended.
type childRun struct {
	id    string // the child's session
	final llm.Message
	err   error
}

// runChild runs def as a child of this session: its own session row
// linked to this one, SubagentStart before its first request (the context
// goes into this child only), SubagentStop after its answer (a block
// continues it once). started is told the child's session before any
// hook or model call, so the parent's entry can point at it.
func (s *Session) runChild(ctx context.Context, def childDef, started func(id string)) childRun {
	child, err := s.a.cfg.DB.CreateSession(ctx, storage.Session{ID: newID(), ProjectID: s.info.ProjectID,
		ParentID: s.info.ID, Kind: def.kind, Title: def.title})
	if err != nil {
		return childRun{err: err}
	}
	started(child.ID)
	res := s.a.cfg.Lifecycle.SubagentStart(s.reporting(ctx), lifecycle.SubagentEvent{SessionID: child.ID, ParentSessionID: s.info.ID,
		ProjectDir: s.project, PermissionMode: s.permissionMode(), AgentID: child.ID, AgentType: def.agentType, Round: def.round})
	s.notices(ctx, res.Notices)

	th := &thread{session: child.ID, only: def.only, skills: def.skills, agentType: def.agentType, model: def.model, maxSteps: childTurns(def.turns),
		status: def.title}
	if s.a.cfg.TranscriptDir != "" {
		th.transcript = &transcript{path: TranscriptFile(s.a.cfg.TranscriptDir, child.ID), session: child.ID, project: s.project}
	}
	blocks := s.budget(ctx, res.Blocks)
	system := func() string { return s.childSystem(th, blocks, def) }
	run := childRun{id: child.ID}
	if _, run.err = s.append(ctx, th, Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: def.prompt}}}); run.err != nil {
		return run
	}
	if run.final, run.err = s.converse(ctx, th, system, 0); run.err == nil {
		run.final, run.err = s.subagentStop(ctx, th, system, run.final)
	}
	return run
}

// status shows text in the status bar for th; "" returns the bar to th's
// resting status. A child's steps are shown under what it is doing
// ("explorer: find main › running read_file main.go"), and when one ends
// the bar goes back to it rather than to nothing while the child goes on.
func (s *Session) status(th *thread, text string) {
	switch {
	case th.status == "":
	case text == "":
		text = th.status
	default:
		text = th.status + " › " + text
	}
	s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID, Status: text})
}

func childTurns(n int) int {
	if n <= 0 {
		return MaxChildTurns
	}
	return n
}

// subagentStop fires SubagentStop after the child's answer. A block
// continues the child once with the reasons as a hidden note; after that
// the hooks hear stop_hook_active and a second block only shows.
func (s *Session) subagentStop(ctx context.Context, th *thread, system func() string, final llm.Message) (llm.Message, error) {
	for active := false; ctx.Err() == nil; active = true {
		v := s.a.cfg.Lifecycle.SubagentStop(s.reporting(ctx), lifecycle.SubagentStopEvent{SessionID: s.info.ID, ProjectDir: s.project,
			TranscriptPath: s.transcriptPath(), PermissionMode: s.permissionMode(), AgentID: th.session, AgentType: th.agentType,
			AgentTranscript: th.transcript.file(), LastMessage: final.Text(), Active: active})
		s.notices(ctx, v.Notices)
		if !v.Blocked() {
			return final, nil
		}
		first := v.Reasons[0]
		if active {
			s.host(ctx, Host{Kind: HostNotice, Source: first.Source, Label: first.Label, Event: lifecycle.EventSubagentStop,
				Text: fmt.Sprintf("asked %s to continue again; it ends (once per run): %s", th.agentType, noticeReasons(v))})
			return final, nil
		}
		s.host(ctx, Host{Kind: HostNotice, Source: first.Source, Label: first.Label, Event: lifecycle.EventSubagentStop,
			Text: fmt.Sprintf("asked %s to continue: %s", th.agentType, noticeReasons(v))})
		var parts []llm.Part
		for _, r := range v.Reasons {
			parts = append(parts, llm.Part{Kind: llm.PartContext, Source: r.Source, Event: lifecycle.EventSubagentStop, Text: r.Text})
		}
		if _, err := s.append(ctx, th, Entry{Role: llm.RoleUser, Parts: parts, Tokens: estimateParts(parts)}); err != nil {
			return final, err
		}
		var err error
		if final, err = s.converse(ctx, th, system, 0); err != nil {
			return final, err
		}
	}
	return final, ctx.Err()
}

// childSystem is a child's system prompt: the same base and AGENTS.md as
// the session, its skills (all, or those the agent names) fitted to the
// catalog's budget like the session's and without paths (the skill tool
// loads them, when its allowlist grants it), the child's instructions,
// and only the SubagentStart context of enabled extensions.
func (s *Session) childSystem(th *thread, blocks []lifecycle.ContextBlock, def childDef) string {
	enabled := map[string]bool{}
	for _, id := range s.view().Enabled() {
		enabled[id] = true
	}
	var ext []lifecycle.ContextBlock
	for _, b := range blocks {
		if enabled[b.Source] && strings.TrimSpace(b.Text) != "" {
			ext = append(ext, b)
		}
	}
	// A child delegates to no one: its skills have the whole budget.
	fit := listing.FitTo(s.catalogEntries(s.threadCatalog(th), nil), listing.Budget(s.window()))
	s.mu.Lock()
	agents := s.agents
	s.mu.Unlock()
	return systemPrompt{Project: s.project, Agents: agents, Skills: skillsSection(fit),
		Extra: def.instructions, Extension: ext}.String()
}
