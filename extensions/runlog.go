package extensions

import (
	"context"
	"log/slog"
	"sync"

	"github.com/agentdesk/agentdesk/storage"
)

// runLog writes hook run records in the background, in order, the runs
// that queue up meanwhile in one transaction. A run record is a
// diagnostic: its fsync must not sit between a guard hook's answer and the
// tool call it guards (it was most of PreToolUse's overhead, see
// BenchmarkPreToolUseOverhead). Readers of the run history flush first, so
// what they show is never behind.
type runLog struct {
	db  *storage.DB
	log *slog.Logger

	mu      sync.Mutex
	pending []storage.HookRun
	writing bool
	done    *sync.Cond // signalled when a write ends
}

func newRunLog(db *storage.DB, log *slog.Logger) *runLog {
	l := &runLog{db: db, log: log}
	l.done = sync.NewCond(&l.mu)
	return l
}

// add queues a run; a writer starts if none is running.
func (l *runLog) add(r storage.HookRun) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, r)
	if !l.writing {
		l.writing = true
		go l.write()
	}
}

// write stores what is queued until the queue is empty, then ends.
func (l *runLog) write() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.pending) > 0 {
		batch := l.pending
		l.pending = nil
		l.mu.Unlock()
		l.store(batch)
		l.mu.Lock()
	}
	l.writing = false
	l.done.Broadcast()
}

// store writes a batch in one transaction; if that fails (a run of an
// extension uninstalled meanwhile has no row to refer to), each run is
// written alone, so one bad record loses no other.
func (l *runLog) store(batch []storage.HookRun) {
	ctx := context.Background()
	if len(batch) == 1 || l.db.RecordHookRuns(ctx, batch) != nil {
		for _, r := range batch {
			if err := l.db.RecordHookRun(ctx, r); err != nil {
				l.log.Warn("record hook run", "id", r.ExtensionID, "err", err)
			}
		}
	}
}

// flush returns once every run added before it is stored.
func (l *runLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.writing {
		l.done.Wait()
	}
}
