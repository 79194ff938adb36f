package agent

import (
	"context"
	"errors"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/storage"
)

// leasePoll is how often a session another process writes looks whether
// that process has finished.
const leasePoll = 500 * time.Millisecond

// jobCatchUp is the internal job a session queues when the process that
// held it finishes: taking the lease reloads what that process wrote.
const jobCatchUp = "catch-up"

// One writer per session: a session's jobs run while this process holds
// its lease (storage.Lease), taken when a job starts and given back when
// the session goes idle. A session another process is writing is
// read-only here (InUse): its jobs are refused, and it watches for that
// process to finish, then reloads what it wrote.

// InUse is the pid of the other process writing the session (a window or
// `agentdesk run`); 0 when this process may write it.
func (s *Session) InUse() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inUse
}

// hold takes the session's lease for the jobs about to run, reloading
// first what another process wrote since this one last held it. When
// another process holds it, the session becomes read-only and false is
// returned.
func (s *Session) hold() bool {
	s.mu.Lock()
	held := s.lease != nil
	s.mu.Unlock()
	if held {
		return true
	}
	lease, err := s.a.cfg.DB.TakeLease(s.ctx, s.info.ID)
	if err != nil {
		s.refuse(err)
		return false
	}
	s.mu.Lock()
	s.lease = lease
	s.mu.Unlock()
	if err := s.catchUp(s.ctx); err != nil {
		s.a.log.Error("reload session", "session", s.info.ID, "err", err)
	}
	return true
}

// refuse ends the jobs a lease could not be taken for: the user's
// prompts go back (Event.Queue) and the session watches the holder.
func (s *Session) refuse(err error) {
	var inUse *storage.InUseError
	pid := 0
	if errors.As(err, &inUse) {
		pid = inUse.PID
	} else {
		s.a.log.Error("take session lease", "session", s.info.ID, "err", err)
	}
	s.mu.Lock()
	returned := s.queuedLocked()
	var idle chan struct{}
	if s.busy { // refused at a job's start, not at open
		idle = s.idle
	}
	s.jobs, s.busy, s.inUse = nil, false, pid
	watch := pid != 0 && !s.watching
	s.watching = s.watching || watch
	s.mu.Unlock()
	s.bus.Publish(Event{Kind: EventInUse, Session: s.info.ID, Holder: pid, Queue: returned, Status: errText(err)})
	s.bus.Publish(Event{Kind: EventBusy, Session: s.info.ID, Busy: false})
	if idle != nil { // after the events: whoever waits for idle sees them
		close(idle)
	}
	if watch {
		s.wg.Add(1)
		go s.watchHolder()
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// watchHolder waits for the process writing the session to finish, then
// queues a job that takes the lease and reloads (and, for a session
// opened while in use, fires the SessionStart it never had).
func (s *Session) watchHolder() {
	defer s.wg.Done()
	t := time.NewTicker(leasePoll)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		if pid, err := s.a.cfg.DB.LeaseHolder(s.ctx, s.info.ID); err != nil || pid != 0 {
			continue
		}
		s.mu.Lock()
		s.inUse, s.watching = 0, false
		job := "\x00" + jobCatchUp
		if s.resumePending {
			s.resumePending = false
			job = "\x00" + lifecycle.SourceResume
		}
		s.mu.Unlock()
		s.bus.Publish(Event{Kind: EventInUse, Session: s.info.ID})
		s.enqueue(job)
		return
	}
}

// catchUp reloads the session from storage when another process wrote it
// since this one loaded it, and answers calls a crashed writer left
// without results (see repairInterrupted).
func (s *Session) catchUp(ctx context.Context) error {
	last, err := s.a.cfg.DB.LastSeq(ctx, s.info.ID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	var known int64
	if n := len(s.main.entries); n > 0 {
		known = s.main.entries[n-1].Seq
	}
	s.mu.Unlock()
	if last != known {
		if err := s.reload(ctx); err != nil {
			return err
		}
	}
	if err := s.repairInterrupted(ctx); err != nil {
		return err
	}
	if last != known {
		s.writeTranscript()
		s.bus.Publish(Event{Kind: EventReload, Session: s.info.ID})
	}
	return nil
}

// reload replaces the in-memory conversation with the stored one.
func (s *Session) reload(ctx context.Context) error {
	info, err := s.a.cfg.DB.Session(ctx, s.info.ID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.info, s.titleSet = info, info.Title != "New session"
	s.main.entries, s.main.start = nil, 0
	s.epoch, s.summary, s.blocks = 0, "", map[string]lifecycle.ContextBlock{}
	s.mu.Unlock()
	return s.restore(ctx)
}

// releaseLease gives the lease back once the session is idle or closed.
func (s *Session) releaseLease() {
	s.mu.Lock()
	l := s.lease
	s.lease = nil
	s.mu.Unlock()
	if l != nil {
		l.Release()
	}
}
