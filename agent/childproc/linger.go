package childproc

import "sync"

// Linger holds the groups that children left running after a successful
// exit (a hook may start a daemon), by owner, so they can be ended when
// their owner goes away. Only groups this process started and saw alive
// get here, and a group seen empty is never signalled again: its id may
// by then belong to someone else. Whoever runs such children owns one
// Linger (the extensions dispatcher does) and ends it with StopAll.
type Linger struct {
	mu    sync.Mutex
	procs map[*Process]struct{}
}

// NewLinger returns an empty registry.
func NewLinger() *Linger { return &Linger{procs: map[*Process]struct{}{}} }

// Keep lets processes p left behind live on and frees what the
// supervisor holds for an empty group. A group that still has members is
// kept under its owner (Spec.Owner) until StopOwned or StopAll ends it.
// A nil Linger keeps nothing: what is left is stopped.
func (l *Linger) Keep(p *Process) {
	if !p.group.alive() {
		p.group.release()
		p.cleanup()
		return
	}
	if l == nil {
		p.group.stop()
		return
	}
	l.mu.Lock()
	l.procs[p] = struct{}{}
	l.mu.Unlock()
}

// StopOwned ends every lingering group of owner, as Stop does (SIGTERM,
// then SIGKILL after Grace), all at once, and returns when they are gone.
func (l *Linger) StopOwned(owner string) {
	l.stop(func(p *Process) bool { return p.owner == owner })
}

// StopAll ends every lingering group; the app calls it as it quits.
func (l *Linger) StopAll() {
	l.stop(func(*Process) bool { return true })
}

// Pids returns the leader process ids of owner's lingering groups that
// still have members.
func (l *Linger) Pids(owner string) []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	var pids []int
	for p := range l.procs {
		if p.owner == owner && p.group.alive() {
			pids = append(pids, p.cmd.Process.Pid)
		}
	}
	return pids
}

func (l *Linger) stop(match func(*Process) bool) {
	l.mu.Lock()
	var procs []*Process
	for p := range l.procs {
		if match(p) {
			procs = append(procs, p)
			delete(l.procs, p)
		}
	}
	l.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(p.Stop)
	}
	wg.Wait()
}
