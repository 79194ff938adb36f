package extensions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Leases across processes. Within a process, Lease counts the users of a
// version folder (inUse). So that an uninstall in another process waits
// for them too, a process holds a shared lock on leases/<id> while any of
// its leases of that extension's versions is held; Uninstall takes it
// exclusively before it deletes the folders. The other process lets go
// once its registry watcher sees the row gone (within RemovalPoll) and
// its servers end.

// uninstallWait bounds how long Uninstall waits for another process to
// let go of an extension's folders before deleting them anyway.
const uninstallWait = 10 * time.Second

// leaseHold is this process's shared lock on one extension's lease file.
type leaseHold struct {
	count int
	lock  *fileLock
}

func (s store) leaseFile(id string) string { return filepath.Join(s.root, "leases", id) }

// idOf returns the extension whose version folder dir is; false for any
// other folder (a project's own configuration runs from the project).
func (s store) idOf(dir string) (string, bool) {
	rel, err := filepath.Rel(filepath.Join(s.root, "store"), dir)
	if err != nil {
		return "", false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) != 2 || parts[0] == ".." || parts[0] == "" || parts[1] == "" {
		return "", false
	}
	return parts[0], true
}

// holdLease takes this process's shared lock on dir's extension, the
// first time one of its folders is leased. Called with m.mu held. A lock
// that cannot be taken (an uninstall holds it: the extension is going)
// is not waited for: the lease still counts in-process.
func (m *Manager) holdLease(dir string) {
	id, ok := m.store.idOf(dir)
	if !ok {
		return
	}
	h := m.leases[id]
	if h == nil {
		h = &leaseHold{}
		m.leases[id] = h
	}
	h.count++
	if h.count == 1 {
		if err := os.MkdirAll(filepath.Dir(m.store.leaseFile(id)), 0o700); err == nil {
			h.lock, _ = sharedLockFile(m.store.leaseFile(id), true)
		}
	}
}

// dropLease undoes holdLease. Called with m.mu held.
func (m *Manager) dropLease(dir string) {
	id, ok := m.store.idOf(dir)
	if !ok || m.leases[id] == nil {
		return
	}
	h := m.leases[id]
	if h.count--; h.count > 0 {
		return
	}
	if h.lock != nil {
		h.lock.unlock()
	}
	delete(m.leases, id)
}

// waitForOthers waits, up to uninstallWait, until no other process
// leases id's folders, and returns a release for the exclusive lock it
// then holds (nil when it gave up). This process's own leases do not
// count: its servers were stopped before, and its hook runs are counted
// in-process.
func (m *Manager) waitForOthers(id string) (release func()) {
	m.mu.Lock()
	mine := m.leases[id] != nil && m.leases[id].lock != nil
	m.mu.Unlock()
	if mine { // our own shared lock would block us: only in-process users, which Uninstall already stopped
		return func() {}
	}
	if err := os.MkdirAll(filepath.Dir(m.store.leaseFile(id)), 0o700); err != nil {
		return nil
	}
	deadline := time.Now().Add(uninstallWait)
	for {
		l, err := lockFile(m.store.leaseFile(id), true)
		if err == nil {
			return func() {
				os.Remove(l.path)
				l.unlock()
			}
		}
		if !errors.Is(err, errLocked) || time.Now().After(deadline) {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}
