package agent

import (
	"context"
	"slices"
	"sync"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/storage"
)

// DefaultLiveSessions is how many session loops the window keeps alive.
const DefaultLiveSessions = 4

// Loops keeps the last few session loops alive in memory, least recently
// used evicted (never the one shown, never one running a turn), so switching the window between them is not a resume:
// their SessionStart context, queued prompts, running turns and
// extensions' mode state stay as they are. A loop is rebuilt from storage
// (SessionStart "resume") only when it was not alive: at app start, or
// after it was evicted. A running loop is never evicted; an evicted one
// gets SessionEnd "other". Loops is safe for concurrent use.
type Loops struct {
	a   *Agent
	max int

	mu     sync.Mutex
	live   []*Session     // least recently used first
	shown  string         // the session a window shows: never evicted
	ending sync.WaitGroup // evicted loops still closing
}

// NewLoops keeps up to max loops alive (DefaultLiveSessions if max < 1).
func (a *Agent) NewLoops(max int) *Loops {
	if max < 1 {
		max = DefaultLiveSessions
	}
	return &Loops{a: a, max: max}
}

// Open returns the session's live loop, or rebuilds it from storage.
func (l *Loops) Open(ctx context.Context, id string) (*Session, error) {
	if s := l.use(id); s != nil {
		return s, nil
	}
	s, err := l.a.OpenSession(ctx, id)
	if err != nil {
		return nil, err
	}
	return l.keep(s), nil
}

// New starts a new session and keeps its loop.
func (l *Loops) New(ctx context.Context, p storage.Project) (*Session, error) {
	s, err := l.a.NewSession(ctx, p)
	if err != nil {
		return nil, err
	}
	return l.keep(s), nil
}

// Show marks the session a window shows (never evicted, and most
// recently used); "" when it shows none.
func (l *Loops) Show(id string) {
	l.mu.Lock()
	l.shown = id
	l.mu.Unlock()
	if id != "" {
		l.use(id)
	}
}

// Live reports whether the session's loop is alive.
func (l *Loops) Live(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.index(id) >= 0
}

// Forget hands over a session's loop without ending it (a session about
// to be deleted gets SessionEnd "clear" from DeleteSession); nil when it
// is not alive. The caller closes it.
func (l *Loops) Forget(id string) *Session {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.remove(id)
}

// remove takes a loop out of the list; nil when it is not there. Callers
// hold l.mu.
func (l *Loops) remove(id string) *Session {
	i := l.index(id)
	if i < 0 {
		return nil
	}
	s := l.live[i]
	l.live = slices.Delete(l.live, i, i+1)
	return s
}

// CloseAll closes every loop and fires SessionEnd with reason (quit:
// lifecycle.EndExit), bounded by ctx; it also waits for evicted loops.
func (l *Loops) CloseAll(ctx context.Context, reason string) {
	l.mu.Lock()
	live := l.live
	l.live = nil
	l.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Close()
			s.End(ctx, reason)
		}()
	}
	wg.Wait()
	l.ending.Wait()
}

func (l *Loops) index(id string) int {
	return slices.IndexFunc(l.live, func(s *Session) bool { return s.ID() == id })
}

// use marks a live loop most recently used and returns it.
func (l *Loops) use(id string) *Session {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.remove(id)
	if s != nil {
		l.live = append(l.live, s)
	}
	return s
}

// keep adds a loop as the most recently used and evicts idle loops past
// max. Two opens of one session racing keep the first loop.
func (l *Loops) keep(s *Session) *Session {
	l.mu.Lock()
	if i := l.index(s.ID()); i >= 0 {
		first := l.live[i]
		l.mu.Unlock()
		s.Close()
		return l.use(first.ID())
	}
	l.live = append(l.live, s)
	evicted := l.evict()
	l.mu.Unlock()
	for _, e := range evicted {
		l.ending.Add(1)
		go func() {
			defer l.ending.Done()
			e.Close()
			ctx, cancel := context.WithTimeout(context.Background(), SessionEndBudget)
			defer cancel()
			e.End(ctx, lifecycle.EndOther)
		}()
	}
	return s
}

// evict removes the least recently used idle loops past max. Callers hold
// l.mu.
func (l *Loops) evict() []*Session {
	var out []*Session
	for i := 0; len(l.live) > l.max && i < len(l.live)-1; {
		if l.live[i].Busy() || l.live[i].ID() == l.shown {
			i++
			continue
		}
		out = append(out, l.live[i])
		l.live = slices.Delete(l.live, i, i+1)
	}
	return out
}
