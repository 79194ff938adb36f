package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// LeaseHeartbeat is how often a held lease is renewed.
const LeaseHeartbeat = 2 * time.Second

// leaseStale is how old a heartbeat may be before its holder counts as
// gone even though a process of that pid runs: after a crash the pid may
// belong to another program, which renews nothing.
const leaseStale = 30 * LeaseHeartbeat

// InUseError says another live process holds a session's lease.
type InUseError struct {
	Session string
	PID     int
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("session %s is in use by another AgentDesk window or run (pid %d)", e.Session, e.PID)
}

// Lease is this process's hold on one session: while it is held no other
// process writes the session. Release it when the work is done.
type Lease struct {
	db      *DB
	session string
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// leases counts this process's holds per session: one process may open a
// session more than once (a test, two views); the row goes with the last.
type leases struct {
	mu    sync.Mutex
	holds map[string]int
}

// TakeLease takes the session's lease, or returns an *InUseError naming
// the live process that holds it. A lease whose process is gone (killed,
// crashed) is taken over.
func (db *DB) TakeLease(ctx context.Context, session string) (*Lease, error) {
	db.leases.mu.Lock()
	defer db.leases.mu.Unlock()
	if db.leases.holds[session] == 0 {
		if err := db.Tx(ctx, func(tx *sql.Tx) error { return claim(ctx, tx, session) }); err != nil {
			return nil, err
		}
	}
	if db.leases.holds == nil {
		db.leases.holds = map[string]int{}
	}
	db.leases.holds[session]++
	l := &Lease{db: db, session: session, stop: make(chan struct{}), done: make(chan struct{})}
	go l.renew()
	return l, nil
}

func claim(ctx context.Context, tx *sql.Tx, session string) error {
	var pid int
	var beat int64
	err := tx.QueryRowContext(ctx, "SELECT pid, heartbeat FROM session_leases WHERE session_id = ?", session).Scan(&pid, &beat)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("read the lease of session %s: %w", session, err)
	case pid != os.Getpid() && processRuns(pid) && time.Since(fromMillis(beat)) < leaseStale:
		return &InUseError{Session: session, PID: pid}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO session_leases(session_id, pid, heartbeat) VALUES(?, ?, ?)
		ON CONFLICT(session_id) DO UPDATE SET pid = excluded.pid, heartbeat = excluded.heartbeat`,
		session, os.Getpid(), now())
	if err != nil {
		return fmt.Errorf("take the lease of session %s: %w", session, err)
	}
	return nil
}

// LeaseHolder names the live process other than this one holding the
// session's lease; 0 when none does.
func (db *DB) LeaseHolder(ctx context.Context, session string) (int, error) {
	var pid int
	var beat int64
	err := db.r.QueryRowContext(ctx, "SELECT pid, heartbeat FROM session_leases WHERE session_id = ?", session).Scan(&pid, &beat)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the lease of session %s: %w", session, err)
	}
	if pid == os.Getpid() || !processRuns(pid) || time.Since(fromMillis(beat)) >= leaseStale {
		return 0, nil
	}
	return pid, nil
}

func (l *Lease) renew() {
	defer close(l.done)
	t := time.NewTicker(LeaseHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			// A failed renewal is retried on the next tick; the lease goes
			// stale only after leaseStale of failures.
			_, _ = l.db.w.Exec("UPDATE session_leases SET heartbeat = ? WHERE session_id = ? AND pid = ?", now(), l.session, os.Getpid())
		}
	}
}

// Release gives the lease back; a second call does nothing.
func (l *Lease) Release() {
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		db := l.db
		db.leases.mu.Lock()
		defer db.leases.mu.Unlock()
		if db.leases.holds[l.session]--; db.leases.holds[l.session] > 0 {
			return
		}
		delete(db.leases.holds, l.session)
		_, _ = db.w.Exec("DELETE FROM session_leases WHERE session_id = ? AND pid = ?", l.session, os.Getpid())
	})
}
