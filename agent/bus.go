package agent

import (
	"context"
	"strings"
	"sync"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// EventKind names what happened in a session.
type EventKind int

const (
	// EventEntry: a transcript entry was stored (must be delivered).
	EventEntry EventKind = iota
	// EventBusy: a job (turn, compaction, Ralph run, session start) began
	// or ended; Busy says which.
	EventBusy
	// EventQueue: the queued prompts changed.
	EventQueue
	// EventUsage: the context meter changed.
	EventUsage
	// EventStatus: a short status line (e.g. "running hooks…").
	EventStatus
	// EventTitle: the session got its title from its first prompt.
	EventTitle
	// EventInUse: another process (pid Holder) is writing the session, so
	// it is read-only here and the prompts in Queue were not run; Holder 0:
	// it finished, and the session reloads.
	EventInUse
	// EventReload: the session was reloaded from storage (another process
	// wrote it): show Entries() anew.
	EventReload
)

// Event is one must-deliver change. Streaming text is not an Event: it is
// coalesced in the Bus and read as a Stream snapshot.
type Event struct {
	Kind    EventKind
	Session string
	Entry   Entry
	Busy    bool
	Queue   []string
	Usage   Usage
	Status  string
	Holder  int
}

// Usage is the context meter.
type Usage struct {
	ContextTokens int
	ContextWindow int
	TokensPerSec  float64
	MCP           MCPCount // the session's MCP tools against their budget
}

// Stream is the assistant message being written, as of the last delta.
type Stream struct {
	Active    bool
	Text      string
	Reasoning string
	Version   int // bumps on every delta, so consumers can skip unchanged snapshots
	// Session is whose message it is: the session's own, or a child's (a
	// Ralph round, a delegated task), which the CLI keeps off stdout.
	Session string
}

// Bus carries a session's events to one consumer (a chat view or the CLI)
// in two classes: must-deliver events queue up and are never dropped;
// streaming deltas are coalesced into one snapshot, so a slow consumer
// sees fewer, larger updates instead of falling behind. Producers never
// block.
type Bus struct {
	mu        sync.Mutex
	events    []Event
	text      strings.Builder
	reasoning strings.Builder
	stream    Stream
	wake      chan struct{}
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{wake: make(chan struct{}, 1)} }

func (b *Bus) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// Publish queues a must-deliver event. A stored assistant entry ends the
// stream it completes.
func (b *Bus) Publish(e Event) {
	b.mu.Lock()
	if e.Kind == EventEntry && e.Entry.Role == llm.RoleAssistant {
		b.endStreamLocked()
	}
	b.events = append(b.events, e)
	b.mu.Unlock()
	b.signal()
}

// Delta adds streamed text of session's message to the current snapshot.
func (b *Bus) Delta(session string, d llm.Delta) {
	b.mu.Lock()
	b.stream.Session = session
	if d.Kind == llm.PartReasoning {
		b.reasoning.WriteString(d.Text)
	} else {
		b.text.WriteString(d.Text)
	}
	b.stream.Active = true
	b.stream.Version++
	b.mu.Unlock()
	b.signal()
}

// EndStream drops the snapshot (the stream was cancelled or failed).
func (b *Bus) EndStream() {
	b.mu.Lock()
	b.endStreamLocked()
	b.mu.Unlock()
	b.signal()
}

func (b *Bus) endStreamLocked() {
	b.text.Reset()
	b.reasoning.Reset()
	b.stream = Stream{Version: b.stream.Version + 1}
}

// Wait blocks until something was published or ctx ends; false means ctx
// ended.
func (b *Bus) Wait(ctx context.Context) bool {
	select {
	case <-b.wake:
		return true
	case <-ctx.Done():
		return false
	}
}

// Drain takes every queued event and the current stream snapshot.
func (b *Bus) Drain() ([]Event, Stream) {
	b.mu.Lock()
	defer b.mu.Unlock()
	events := b.events
	b.events = nil
	if b.stream.Active {
		b.stream.Text = b.text.String()
		b.stream.Reasoning = b.reasoning.String()
	}
	return events, b.stream
}
