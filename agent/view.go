package agent

import (
	"context"
	"sync"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/skills"
)

// turnView is what a job of the session (a prompt's turn, a
// SessionStart, a Ralph run) sees of the extensions, read with the
// job's context and so from the dispatcher's snapshot of the turn
// (lifecycle.TurnScope): every request, child and tool of the job lists
// the same skills, agents and commands, each read once a job when first
// needed, like the job's tools. The extensions whose context is sent are
// asked for each request (from the same snapshot, at no cost), so an
// extension disabled in the middle of a turn sends nothing more.
type turnView struct {
	s   *Session
	ctx context.Context // the job's, or Background for a view between jobs

	rootsOnce, agentsOnce, commandsOnce sync.Once
	roots                               []skills.Root      // where skills come from (Agent.skillRoots)
	agents                              lifecycle.AgentSet // what the task tool may delegate to (Agent.subagents)
	commands                            lifecycle.CommandSet

	// catalog is the skills catalog of the job's first request, kept for
	// the rest of it (Session.Catalog), and listed the main thread's
	// lists as last fitted (Session.listed); nil until then. Both are
	// guarded by the session's mu.
	catalog *skills.Catalog
	listed  *listedCatalog
}

// listedCatalog is the main thread's catalog fitted to a budget with the
// session's used skills and agents first, and its two lists as the
// request shows them.
type listedCatalog struct {
	budget, used   int    // what it was fitted for: the budget and len(Session.used)
	skills, agents string // the system prompt's skills section, the task tool's agent list
}

// listed is the main thread's skills section and agent list, fitted
// once a job while the window and what the session used stay the same:
// every request of a turn shows them, twice each.
func (s *Session) listed() listedCatalog {
	v := s.view()
	budget := listing.Budget(s.window())
	s.mu.Lock()
	used, kept := len(s.used), v.listed
	s.mu.Unlock()
	if kept != nil && kept.budget == budget && kept.used == used {
		return *kept
	}
	f := s.fit(s.Catalog(), v.Agents().Agents)
	l := &listedCatalog{budget: budget, used: used, skills: skillsSection(f), agents: f.Render(listing.KindAgent, "agents")}
	s.mu.Lock()
	if s.turnView == v {
		v.listed = l
	}
	s.mu.Unlock()
	return *l
}

// Enabled are the extensions whose context may be sent.
func (v *turnView) Enabled() []string { return v.s.a.cfg.Lifecycle.Enabled(v.ctx, v.s.project) }

func (v *turnView) Roots() []skills.Root {
	v.rootsOnce.Do(func() { v.roots = v.s.a.skillRoots(v.ctx, v.s.project) })
	return v.roots
}

func (v *turnView) Agents() lifecycle.AgentSet {
	v.agentsOnce.Do(func() { v.agents = v.s.a.subagents(v.ctx, v.s.project) })
	return v.agents
}

func (v *turnView) Commands() lifecycle.CommandSet {
	v.commandsOnce.Do(func() { v.commands = v.s.a.commands(v.ctx, v.s.project) })
	return v.commands
}

// takeView fixes the running job's view of the extensions; the returned
// func ends the job's hold on it.
func (s *Session) takeView(ctx context.Context) (release func()) {
	v := &turnView{s: s, ctx: ctx}
	s.mu.Lock()
	s.turnView = v
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.turnView = nil
		s.mu.Unlock()
	}
}

// view is the running job's view of the extensions or, between jobs (the
// window's Skills and Agents views, a catalog's size), the one they give
// now.
func (s *Session) view() *turnView {
	s.mu.Lock()
	v := s.turnView
	s.mu.Unlock()
	if v != nil {
		return v
	}
	return &turnView{s: s, ctx: context.Background()}
}
