// Package servers hosts the long-lived child servers of extensions: one
// Supervisor starts them lazily, tracks their state (a typed State),
// restarts them within a bound, keeps the end of their stderr, signals
// every change, and stops them on disable, uninstall, update or quit. MCP
// hosting (MCP, over extensions/mcp) is its first user; an LSP client is
// meant to be the second, over the same Supervisor.
//
// Arrows: extensions/dispatch → servers → extensions/mcp and
// extensions (the registry); nothing here imports dispatch.
package servers

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
)

// State is what a server is doing.
type State int

// The states a server goes through. A server that ended on its own is
// Failed unless a restart is due (then Starting again).
const (
	NotStarted State = iota
	Starting
	Ready
	Failed
	NeedsSignIn
	Inactive // its declaration cannot run (placeholder URL, missing file…)
)

// String is the state's name as cards and `ext show --json` give it.
func (s State) String() string {
	switch s {
	case Starting:
		return extensions.MCPStarting
	case Ready:
		return extensions.MCPReady
	case Failed:
		return extensions.MCPFailed
	case NeedsSignIn:
		return extensions.MCPNeedsSignIn
	case Inactive:
		return extensions.MCPInactive
	}
	return extensions.MCPNotStarted
}

// ErrNeedsSignIn from a StartFunc puts the server in NeedsSignIn, not
// Failed: it waits for the user, not for a restart.
var ErrNeedsSignIn = errors.New("needs sign-in")

// Conn is a running server as the supervisor watches it.
type Conn interface {
	Done() <-chan struct{} // closed when the server has ended
	Err() error            // why it ended; nil for a clean end
	Stderr() string        // the end of its stderr
	Close() error
	Pid() int // 0 for a remote server
}

// Key names one server: servers are per project, as in Claude Code,
// where each session starts its own.
type Key struct{ Owner, Name, Project string }

// StartFunc starts a server within ctx (the start timeout): its
// connection, or the error and the end of its stderr.
type StartFunc[C Conn] func(ctx context.Context) (conn C, stderr string, err error)

// Config bounds a Supervisor.
type Config struct {
	// StartTimeout bounds one start; nil or 0 → DefaultStartTimeout.
	StartTimeout func() time.Duration
	// MaxRestarts is how often a server that ends on its own is started
	// again before it stays Failed (0: never; the user restarts it).
	MaxRestarts int
}

// DefaultStartTimeout bounds a start when Config sets none.
const DefaultStartTimeout = 30 * time.Second

// Supervisor runs servers of one kind, keyed by Key.
type Supervisor[C Conn] struct {
	cfg Config

	mu      sync.Mutex
	entries map[Key]*Entry[C]
	changed chan struct{} // closed (and replaced) on every change
}

// NewSupervisor returns an empty supervisor.
func NewSupervisor[C Conn](cfg Config) *Supervisor[C] {
	return &Supervisor[C]{cfg: cfg, entries: map[Key]*Entry[C]{}}
}

// Entry is one server the supervisor started or tried to start.
type Entry[C Conn] struct {
	Key     Key
	Version string // the folder it runs from: another version replaces it
	start   StartFunc[C]
	lease   func() // releases Version's folder; called once, when it goes
	bounds  Bounds

	ready       chan struct{}      // closed when the first start has ended either way
	cancelStart context.CancelFunc // ends a start still under way

	// Guarded by the supervisor's mu.
	state     State
	conn      C
	live      bool // conn is set
	err       string
	stderr    string
	announced string
	restarts  int
	touched   time.Time
}

// Snapshot is what a server is doing now.
type Snapshot[C Conn] struct {
	State    State
	Conn     C
	Live     bool // Conn is a running connection
	Error    string
	Stderr   string
	Pid      int
	Restarts int
}

// Changed returns a channel closed the next time a server starts, becomes
// ready, fails, stops or is bumped; ask again after each close.
func (s *Supervisor[C]) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.changed
}

// Bump signals a change the supervisor cannot see (a server's tools).
func (s *Supervisor[C]) Bump() {
	s.mu.Lock()
	s.bump()
	s.mu.Unlock()
}

func (s *Supervisor[C]) bump() {
	if s.changed != nil {
		close(s.changed)
	}
	s.changed = make(chan struct{})
}

// Ensure returns the server for key, starting it in the background when
// it never started or ran from another version (which is stopped). A
// failed one stays failed until Close ends it. lease is called once, for
// a new start, and its release when the server goes.
func (s *Supervisor[C]) Ensure(key Key, version string, lease func() func(), start StartFunc[C]) *Entry[C] {
	return s.EnsureWith(key, version, lease, start, Bounds{})
}

// Bounds are one server's own start timeout and restarts, where its
// declaration sets them (an LSP server's startupTimeout and
// maxRestarts); zero values take the supervisor's Config.
type Bounds struct {
	StartTimeout time.Duration
	MaxRestarts  int // < 0: never restarted
}

// EnsureWith is Ensure with the server's own bounds.
func (s *Supervisor[C]) EnsureWith(key Key, version string, lease func() func(), start StartFunc[C], b Bounds) *Entry[C] {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.entries[key]; ok && e.Version == version {
		e.touched = time.Now()
		return e
	} else if ok {
		go s.end(e)
	}
	e := &Entry[C]{Key: key, Version: version, start: start, ready: make(chan struct{}), state: Starting, touched: time.Now(),
		lease: func() {}, bounds: b}
	if lease != nil {
		e.lease = lease()
	}
	s.entries[key] = e
	s.bump()
	ctx, cancel := context.WithTimeout(context.Background(), s.startTimeout(e))
	e.cancelStart = cancel
	go s.run(ctx, cancel, e, true)
	return e
}

// run starts e and records the outcome; first closes ready.
func (s *Supervisor[C]) run(ctx context.Context, cancel context.CancelFunc, e *Entry[C], first bool) {
	if first {
		defer close(e.ready)
	}
	defer cancel()
	conn, stderr, err := e.start(ctx)
	s.mu.Lock()
	if s.entries[e.Key] != e { // stopped while starting
		s.mu.Unlock()
		if err == nil {
			conn.Close()
		}
		return
	}
	defer s.mu.Unlock()
	defer s.bump()
	switch {
	case errors.Is(err, ErrNeedsSignIn):
		e.state, e.err = NeedsSignIn, "sign in on its card (Preferences → Agent Extensions)"
		return
	case err != nil:
		e.state, e.err, e.stderr = Failed, safetext.Strip(err.Error()), safetext.Strip(stderr)
		return
	}
	e.state, e.conn, e.live, e.err = Ready, conn, true, ""
	go s.watch(e, conn)
}

// watch marks a server that ended on its own as failed, with why, or
// starts it again while restarts remain.
func (s *Supervisor[C]) watch(e *Entry[C], conn C) {
	<-conn.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !e.live || any(e.conn) != any(conn) || s.entries[e.Key] != e {
		return
	}
	var zero C
	e.conn, e.live = zero, false
	defer s.bump()
	err := conn.Err()
	if err == nil {
		err = errors.New("it exited")
	}
	e.state, e.err, e.stderr = Failed, safetext.Strip(err.Error()), safetext.Strip(conn.Stderr())
	if e.restarts < s.maxRestarts(e) {
		e.restarts++
		e.state = Starting
		ctx, cancel := context.WithTimeout(context.Background(), s.startTimeout(e))
		e.cancelStart = cancel
		go s.run(ctx, cancel, e, false)
	}
}

// Wait returns once every entry's first start has ended, or ctx has.
func Wait[C Conn](ctx context.Context, entries []*Entry[C]) {
	for _, e := range entries {
		select {
		case <-e.ready:
		case <-ctx.Done():
			return
		}
	}
}

// Starting reports whether e's first start is still under way.
func (e *Entry[C]) Starting() bool {
	select {
	case <-e.ready:
		return false
	default:
		return true
	}
}

// Snapshot reads what e is doing now.
func (s *Supervisor[C]) Snapshot(e *Entry[C]) Snapshot[C] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return e.snapshot()
}

func (e *Entry[C]) snapshot() Snapshot[C] {
	out := Snapshot[C]{State: e.state, Conn: e.conn, Live: e.live, Error: e.err, Stderr: e.stderr, Restarts: e.restarts}
	if e.live {
		out.Pid = e.conn.Pid()
	}
	return out
}

// Announce reports whether msg is news for e: the same message is told
// once until another replaces it ("" clears it).
func (s *Supervisor[C]) Announce(e *Entry[C], msg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.announced == msg {
		return false
	}
	e.announced = msg
	return msg != ""
}

// Latest is what each server of owner is doing, by name: the most
// recently used instance when several projects run one.
func (s *Supervisor[C]) Latest(owner string) map[string]Snapshot[C] {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]Snapshot[C]{}
	latest := map[string]time.Time{}
	for k, e := range s.entries {
		if k.Owner != owner || e.touched.Before(latest[k.Name]) {
			continue
		}
		latest[k.Name] = e.touched
		out[k.Name] = e.snapshot()
	}
	return out
}

// Has reports whether the supervisor holds a server of owner (starting,
// running or failed).
func (s *Supervisor[C]) Has(owner string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.entries {
		if k.Owner == owner {
			return true
		}
	}
	return false
}

// Close forgets the servers whose key matches and ends them, all at
// once, returning when they are gone.
func (s *Supervisor[C]) Close(match func(Key) bool) {
	s.mu.Lock()
	var gone []*Entry[C]
	for k, e := range s.entries {
		if match(k) {
			gone = append(gone, e)
			delete(s.entries, k)
		}
	}
	if len(gone) > 0 {
		s.bump()
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range gone {
		wg.Go(func() { s.end(e) })
	}
	wg.Wait()
}

// end stops an entry no longer in the map, once its start is over, and
// lets its version folder go.
func (s *Supervisor[C]) end(e *Entry[C]) {
	s.mu.Lock()
	cancel := e.cancelStart
	s.mu.Unlock()
	cancel()
	<-e.ready
	s.mu.Lock()
	conn, live := e.conn, e.live
	var zero C
	e.conn, e.live = zero, false
	s.mu.Unlock()
	if live {
		conn.Close()
	}
	e.lease()
}

func (s *Supervisor[C]) maxRestarts(e *Entry[C]) int {
	switch {
	case e.bounds.MaxRestarts < 0:
		return 0
	case e.bounds.MaxRestarts > 0:
		return e.bounds.MaxRestarts
	}
	return s.cfg.MaxRestarts
}

func (s *Supervisor[C]) startTimeout(e *Entry[C]) time.Duration {
	if e.bounds.StartTimeout > 0 {
		return e.bounds.StartTimeout
	}
	if s.cfg.StartTimeout != nil {
		if t := s.cfg.StartTimeout(); t > 0 {
			return t
		}
	}
	return DefaultStartTimeout
}
