package childproc

import "sync"

// lingering holds the groups that children left running after a
// successful exit (a hook may start a daemon), by owner, so they can be
// ended when their owner goes away. Only groups this process started and
// saw alive get here, and a group seen empty is never signalled again:
// its id may by then belong to someone else.
var lingering = struct {
	sync.Mutex
	procs map[*Process]struct{}
}{procs: map[*Process]struct{}{}}

// Release lets processes the child left behind live on and frees what the
// supervisor holds for an empty group. A group that still has members is
// kept under its owner (Spec.Owner) until StopOwned or StopAll ends it.
func (p *Process) Release() {
	if !p.group.alive() {
		p.group.release()
		p.cleanup()
		return
	}
	lingering.Lock()
	lingering.procs[p] = struct{}{}
	lingering.Unlock()
}

// StopOwned ends every lingering group of owner, as Stop does (SIGTERM,
// then SIGKILL after Grace), all at once, and returns when they are gone.
func StopOwned(owner string) {
	stopLingering(func(p *Process) bool { return p.owner == owner })
}

// StopAll ends every lingering group; the app calls it as it quits.
func StopAll() {
	stopLingering(func(*Process) bool { return true })
}

// Lingering returns the leader process ids of owner's lingering groups
// that still have members.
func Lingering(owner string) []int {
	lingering.Lock()
	defer lingering.Unlock()
	var pids []int
	for p := range lingering.procs {
		if p.owner == owner && p.group.alive() {
			pids = append(pids, p.cmd.Process.Pid)
		}
	}
	return pids
}

func stopLingering(match func(*Process) bool) {
	lingering.Lock()
	var procs []*Process
	for p := range lingering.procs {
		if match(p) {
			procs = append(procs, p)
			delete(lingering.procs, p)
		}
	}
	lingering.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(p.Stop)
	}
	wg.Wait()
}
