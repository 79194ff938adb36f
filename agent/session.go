package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/agent/tools"
	"github.com/agentdesk/agentdesk/storage"
)

// Session is one open conversation. Work (session start, prompts, host
// commands) runs one job at a time on a worker goroutine; a prompt
// submitted while a job runs is queued and shown as queued.
type Session struct {
	a       *Agent
	info    storage.Session
	project string
	bus     *Bus
	tools   *tools.Set
	grants  grants
	// transcript is the JSONL file hooks read; nil without a TranscriptDir.
	transcript *transcript

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	main    *thread
	epoch   int
	summary string
	blocks  map[string]lifecycle.ContextBlock // SessionStart context of the current epoch, by source
	agents  []agentsFile
	catalog catalogCache
	// turnView is what the running job sees of the extensions (view.go);
	// nil between jobs.
	turnView *turnView
	// turnWindow is the context window of the running user turn; 0: none.
	turnWindow int
	used       map[string]bool // kind + "\x00" + name: skills and agents this session used (catalogtools.go)
	jobs       []string
	busy       bool
	stopJob    context.CancelFunc
	idle       chan struct{} // closed while no job runs
	usage      Usage
	titleSet   bool
	turnRoom   int // bytes of extension context the running turn may still add
	// mcpLeftOut names the MCP tools last deferred for size, told once.
	mcpLeftOut string
	// mcpTurn is the MCP tool list the running user turn started with
	// (nil between turns): every request of the turn, its children's
	// included, is offered from it (see mcpTools).
	mcpTurn *lifecycle.ToolSet
	// mcpFound are the deferred MCP tools tool_search found (shelfKey),
	// in the order found: offered for the rest of the session, after the
	// others (mcpshelf.go). mcpFitted of the main thread's MCP tools fit
	// the budget; mcpCount is what the status bar says of them.
	mcpFound  []string
	mcpFitted int
	mcpCount  MCPCount
	// style is the output style the main thread's turn uses (nil:
	// Default), fixed at its start (outputstyle.go); styleMissing the
	// chosen one not offered here, told once.
	style        *lifecycle.OutputStyle
	styleMissing string
	// One writer per session (lease.go): the lease while jobs run; the
	// pid of another process writing the session (0: none), whether it is
	// watched, and whether SessionStart(resume) waits for it to finish.
	lease         *storage.Lease
	inUse         int
	watching      bool
	resumePending bool
}

// thread is one model conversation: the session's main thread or a
// child's (a Ralph round, a delegated task). Entries with Seq >= start
// are in the model's context.
type thread struct {
	session string
	entries []Entry
	start   int64
	// only narrows the built-in and MCP tools to what a child agent's
	// allowlist grants (see childTools); nil: all of them.
	only map[string]bool
	// skills narrows a child's skills catalog to these names (its
	// agent's); nil: all of it (see childDef.skills).
	skills []string
	// A child's: its agent_type for hooks, the model it runs on ("" is
	// the session's) and its bound on model calls (0: maxStepsPerTurn).
	agentType string
	model     string
	maxSteps  int
	// transcript is the JSONL file hooks read for this thread; nil: none.
	transcript *transcript
	// status is what the status bar says between this thread's steps:
	// nothing for the conversation; for a child, what it is doing, under
	// which its own steps are shown (see Session.status).
	status string
	// mcp holds this thread turn's deferred MCP tools (mcpshelf.go).
	mcp *mcpShelf
}

// NewSession starts a new session in the project and fires
// SessionStart(startup).
func (a *Agent) NewSession(ctx context.Context, p storage.Project) (*Session, error) {
	info, err := a.cfg.DB.CreateSession(ctx, storage.Session{ID: newID(), ProjectID: p.ID, Title: "New session"})
	if err != nil {
		return nil, err
	}
	s, err := a.open(ctx, info, p.Path)
	if err != nil {
		return nil, err
	}
	s.writeTranscript()
	s.enqueue("\x00" + lifecycle.SourceStartup)
	return s, nil
}

// OpenSession resumes a stored session and fires SessionStart(resume).
// The transcript and the context of the current epoch are restored
// exactly, so the next request matches what was sent before the restart.
func (a *Agent) OpenSession(ctx context.Context, id string) (*Session, error) {
	info, err := a.cfg.DB.Session(ctx, id)
	if err != nil {
		return nil, err
	}
	projects, err := a.cfg.DB.Projects(ctx)
	if err != nil {
		return nil, err
	}
	var dir string
	for _, p := range projects {
		if p.ID == info.ProjectID {
			dir = p.Path
		}
	}
	// The lease first: a session another process is writing is loaded
	// read-only, and calls it has running are not "interrupted".
	lease, err := a.cfg.DB.TakeLease(ctx, id)
	var inUse *storage.InUseError
	if err != nil && !errors.As(err, &inUse) {
		return nil, err
	}
	s, err := a.open(ctx, info, dir)
	if err != nil {
		if lease != nil {
			lease.Release()
		}
		return nil, err
	}
	s.lease = lease
	if err := s.restore(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if inUse != nil {
		s.resumePending = true
		s.refuse(inUse)
		return s, nil
	}
	if err := s.repairInterrupted(ctx); err != nil {
		s.Close()
		return nil, err
	}
	s.writeTranscript()
	s.enqueue("\x00" + lifecycle.SourceResume)
	return s, nil
}

func (a *Agent) open(ctx context.Context, info storage.Session, dir string) (*Session, error) {
	s := &Session{a: a, info: info, project: dir, bus: NewBus(), blocks: map[string]lifecycle.ContextBlock{},
		main: &thread{session: info.ID}, idle: closedChan(), titleSet: info.Title != "New session"}
	set, err := tools.New(dir, tools.Options{ReadRoots: s.readRoots, Env: a.cfg.CommandEnv, ExtraEnv: s.projectEnv, Unconfined: a.cfg.CommandsUnconfined,
		NoNetwork: a.ProjectSandbox(ctx, info.ProjectID).NoNetwork})
	if err != nil {
		return nil, fmt.Errorf("open session in %s: %w", dir, err)
	}
	s.tools = set
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.agents = findAgentsMD(dir, a.cfg.HomeDir)
	if a.cfg.TranscriptDir != "" && info.Kind == storage.KindChat {
		s.transcript = &transcript{path: TranscriptFile(a.cfg.TranscriptDir, info.ID), session: info.ID, project: dir}
		s.main.transcript = s.transcript
	}
	return s, nil
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// restore loads the transcript and the current epoch's state.
func (s *Session) restore(ctx context.Context) error {
	db := s.a.cfg.DB
	rows, err := db.Messages(ctx, s.info.ID, 0)
	if err != nil {
		return err
	}
	var entries []Entry
	for _, r := range rows {
		e, err := decodeEntry(r)
		if err != nil {
			return err
		}
		entries = append(entries, e)
	}
	comps, err := db.Compactions(ctx, s.info.ID)
	if err != nil {
		return err
	}
	epoch, summary, start := 0, "", int64(0)
	if n := len(comps); n > 0 {
		last := comps[n-1]
		epoch, summary, start = last.Epoch, last.Summary, last.BoundarySeq
	}
	blocks, err := db.ContextBlocks(ctx, s.info.ID, epoch)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.main.entries, s.epoch, s.summary, s.main.start = entries, epoch, summary, start
	for _, b := range blocks {
		if b.Event == lifecycle.EventSessionStart {
			s.blocks[b.Source] = lifecycle.ContextBlock{Source: b.Source, Event: b.Event, Text: b.Content, Hash: b.Hash}
		}
	}
	return nil
}

// ID is the session's id.
func (s *Session) ID() string { return s.info.ID }

// Project is the session's canonical project folder.
func (s *Session) Project() string { return s.project }

// Bus is where the session's events go.
func (s *Session) Bus() *Bus { return s.bus }

// Entries returns a copy of the whole transcript, old epochs included.
func (s *Session) Entries() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Entry(nil), s.main.entries...)
}

// Usage is the current context meter.
func (s *Session) Usage() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.usage
}

// Submit queues a prompt or host command and returns at once.
func (s *Session) Submit(text string) {
	if text = strings.TrimSpace(text); text != "" {
		s.enqueue(text)
	}
}

// Busy reports whether a job is running.
func (s *Session) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy
}

// Queued lists the prompts waiting behind the running job.
func (s *Session) Queued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queuedLocked()
}

func (s *Session) queuedLocked() []string {
	var q []string
	for _, j := range s.jobs {
		if !strings.HasPrefix(j, "\x00") {
			q = append(q, j)
		}
	}
	return q
}

// Jobs whose text starts with NUL are internal (session start with the
// given source); everything else is user input.
func (s *Session) enqueue(job string) {
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	s.jobs = append(s.jobs, job)
	start := !s.busy
	if start {
		s.busy = true
		s.idle = make(chan struct{})
		s.wg.Add(1)
	}
	queue := s.queuedLocked()
	s.mu.Unlock()
	if start {
		s.bus.Publish(Event{Kind: EventBusy, Session: s.info.ID, Busy: true})
		go s.work()
	} else {
		s.bus.Publish(Event{Kind: EventQueue, Session: s.info.ID, Queue: queue})
	}
}

func (s *Session) work() {
	defer s.wg.Done()
	if !s.hold() {
		return
	}
	for {
		job, ctx, ok := s.next()
		if !ok {
			return
		}
		s.run(ctx, job)
	}
}

// next pops the next job with its own cancellable context, or marks the
// session idle.
func (s *Session) next() (string, context.Context, bool) {
	s.mu.Lock()
	if s.stopJob != nil {
		s.stopJob()
		s.stopJob = nil
	}
	if len(s.jobs) == 0 || s.ctx.Err() != nil {
		s.jobs, s.busy = nil, false
		lease, idle := s.lease, s.idle
		s.lease = nil
		s.mu.Unlock()
		if lease != nil {
			lease.Release() // before idle: a caller waiting for it may hand the session to another process
		}
		close(idle)
		s.bus.Publish(Event{Kind: EventBusy, Session: s.info.ID, Busy: false})
		return "", nil, false
	}
	job := s.jobs[0]
	s.jobs = s.jobs[1:]
	ctx, cancel := context.WithCancel(s.ctx)
	s.stopJob = cancel
	queue := s.queuedLocked()
	s.mu.Unlock()
	s.bus.Publish(Event{Kind: EventQueue, Session: s.info.ID, Queue: queue})
	return job, ctx, true
}

func (s *Session) run(ctx context.Context, job string) {
	if scope, ok := s.a.cfg.Lifecycle.(lifecycle.TurnScope); ok {
		ctx = scope.BeginTurn(ctx, s.project) // one view of the extensions for the whole job
	}
	defer s.takeView(ctx)()
	if source, ok := strings.CutPrefix(job, "\x00"); ok {
		if source != jobCatchUp { // its work is hold's
			s.sessionStart(ctx, source)
		}
		return
	}
	s.startTurnBudget() // every job (a prompt, a Ralph run) has its own room
	if s.hostCommand(ctx, job) {
		return
	}
	s.turn(ctx, job)
	s.turnEnded(ctx)
}

// Stop cancels the running job (its stream, tools and hook processes) and
// hands back the prompts that were queued behind it, so the composer can
// offer them again instead of running them.
func (s *Session) Stop() []string {
	s.mu.Lock()
	var kept []string
	var returned []string
	for _, j := range s.jobs {
		if strings.HasPrefix(j, "\x00") {
			kept = append(kept, j)
		} else {
			returned = append(returned, j)
		}
	}
	s.jobs = kept
	if s.stopJob != nil {
		s.stopJob()
	}
	s.mu.Unlock()
	if len(returned) > 0 {
		s.bus.Publish(Event{Kind: EventQueue, Session: s.info.ID})
	}
	return returned
}

// WaitIdle blocks until no job runs or ctx ends.
func (s *Session) WaitIdle(ctx context.Context) error {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops all work, waits for it and releases the session's files.
func (s *Session) Close() error {
	s.cancel()
	s.wg.Wait()
	s.releaseLease()
	return s.tools.Close()
}

// append stores an entry of th and publishes it.
func (s *Session) append(ctx context.Context, th *thread, e Entry) (Entry, error) {
	body, err := encodeEntry(e)
	if err != nil {
		return Entry{}, err
	}
	// Stored even when the job was cancelled: a stopped turn keeps what
	// it said and did.
	seq, err := s.a.cfg.DB.AppendMessage(context.WithoutCancel(ctx), storage.Message{
		SessionID: th.session, Role: string(e.Role), Parts: body, Tokens: e.Tokens})
	if err != nil {
		return Entry{}, err
	}
	e.Seq, e.Session = seq, th.session
	s.mu.Lock()
	th.entries = append(th.entries, e)
	s.mu.Unlock()
	if th.transcript != nil {
		if err := th.transcript.add(e); err != nil {
			s.a.log.Warn("hooks get no transcript_path from now on", "session", th.session, "err", err)
		}
	}
	s.bus.Publish(Event{Kind: EventEntry, Session: th.session, Entry: e})
	return e, nil
}

// host adds a host entry to the main thread.
func (s *Session) host(ctx context.Context, h Host) {
	if _, err := s.append(ctx, s.main, Entry{Role: RoleHost, Host: &h}); err != nil {
		s.a.log.Error("store host entry", "session", s.info.ID, "err", err)
	}
}

// readRoots are the folders beside the project the file tools may open:
// a trusted project's additional directories (writable), then every
// skill root currently in the catalog (read-only). An extension's
// SKILL.md comes back with its variables replaced by real paths.
func (s *Session) readRoots() []tools.ReadRoot {
	dirs := s.workingDirs()
	for _, r := range s.skillRoots() {
		dirs = append(dirs, tools.ReadRoot{Dir: r.Dir, Expand: r.ExpandSkill})
	}
	return dirs
}

func (s *Session) skillRoots() []skills.Root { return s.view().Roots() }

// skillRoots are where skills come from, in priority order: the user's,
// the project's, then the enabled extensions' in installation order, as
// the job ctx belongs to sees them.
func (a *Agent) skillRoots(ctx context.Context, project string) []skills.Root {
	roots := []skills.Root{
		{Dir: userSkillsDir(a.cfg.HomeDir), Source: "user"},
		{Dir: projectSkillsDir(project), Source: "project"},
	}
	if a.cfg.Skills != nil {
		roots = append(roots, a.cfg.Skills.SkillRoots(ctx, project)...)
	}
	return roots
}

// Catalog is the skills catalog a session in project would use now, with
// every conflict (for the Skills view).
func (a *Agent) Catalog(project string) skills.Catalog {
	return a.parsedSkills.Build(a.skillRoots(context.Background(), project))
}

// messages is the conversation of th as sent to the model: only the
// current epoch, no host entries, and context parts only from extensions
// that are enabled now.
func (s *Session) messages(th *thread) []llm.Message {
	enabled := map[string]bool{}
	for _, id := range s.view().Enabled() {
		enabled[id] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unsent := unsentPrompts(th.entries)
	var out []llm.Message
	for _, e := range th.entries {
		if e.Seq < th.start || e.Role == RoleHost || unsent[e.Seq] {
			continue
		}
		m := llm.Message{Role: e.Role}
		for _, p := range e.Parts {
			if p.Kind == llm.PartContext && !enabled[p.Source] {
				continue
			}
			m.Parts = append(m.Parts, p)
		}
		out = append(out, m)
	}
	return out
}

// writeTranscript rewrites the hooks' transcript file from the entries.
func (s *Session) writeTranscript() {
	if s.transcript == nil {
		return
	}
	s.mu.Lock()
	entries := append([]Entry(nil), s.main.entries...)
	s.mu.Unlock()
	if err := s.transcript.reset(entries); err != nil {
		s.a.log.Warn("hooks get no transcript_path", "session", s.info.ID, "err", err)
	}
}

// unsentPrompts are the seqs of user messages the model never answered
// (Host.Unsent): they are in no request and no summary.
func unsentPrompts(entries []Entry) map[int64]bool {
	unsent := map[int64]bool{}
	for _, e := range entries {
		if e.Host != nil && e.Host.Unsent != 0 {
			unsent[e.Host.Unsent] = true
		}
	}
	return unsent
}
