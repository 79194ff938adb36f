// Package extensions installs, validates, trusts and runs Agent
// Extensions: Claude Code / Codex style plugin packages fetched from an
// HTTPS git URL. Nothing from a package runs at install or update; hooks
// run only for enabled, trusted extensions, through the Dispatcher, which
// implements lifecycle.Lifecycle.
package extensions

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/storage/secrets"
)

// Manager owns the registry and the store. Operations on one extension
// are serialised in-process; activation (rename + registry flip) is
// serialised across processes by a file lock.
type Manager struct {
	db      *storage.DB
	store   store
	secrets *secrets.Store // sensitive userConfig values, never in the registry
	fetch   []gitfetch.Option
	log     *slog.Logger
	runs    *runLog // hook run records, written in the background

	mu       sync.Mutex
	opLocks  map[string]*sync.Mutex
	inUse    map[string]int // version folder → running hooks
	leases   map[string]*leaseHold
	doomed   map[string]bool   // version folders to delete when no hook uses them
	onRemove []func(id string) // called before an extension stops being active

	active activeCache // what Active returns while the registry generation stays
}

// keyringService names AgentDesk's extension entries in the OS keyring.
const keyringService = "AgentDesk extensions"

// account is a sensitive userConfig value's name in the secret store.
func account(id, key string) string { return id + "/" + key }

// Option configures a Manager.
type Option func(*Manager)

// WithHTTPClient makes installs use c (tests: a client trusting a
// loopback CA). Production uses the system roots, which honour
// SSL_CERT_FILE.
func WithHTTPClient(c *http.Client) Option {
	return func(m *Manager) { m.fetch = append(m.fetch, gitfetch.WithHTTPClient(c)) }
}

// WithFetchLimits overrides the download limits (tests).
func WithFetchLimits(l gitfetch.Limits) Option {
	return func(m *Manager) { m.fetch = append(m.fetch, gitfetch.WithLimits(l)) }
}

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(m *Manager) { m.log = l } }

// NewManager opens the store under root (<data>/extensions) and sweeps
// what interrupted installs, updates and uninstalls left behind.
func NewManager(ctx context.Context, db *storage.DB, root string, opts ...Option) (*Manager, error) {
	m := &Manager{db: db, store: store{root: root}, secrets: secrets.New(keyringService, filepath.Join(root, "secrets.json"), true), log: slog.New(slog.DiscardHandler),
		opLocks: map[string]*sync.Mutex{}, inUse: map[string]int{}, doomed: map[string]bool{}, leases: map[string]*leaseHold{}}
	for _, o := range opts {
		o(m)
	}
	m.runs = newRunLog(db, m.log)
	if err := m.store.ensure(); err != nil {
		return nil, err
	}
	if err := m.sweep(ctx); err != nil {
		return nil, fmt.Errorf("clean up the extensions store: %w", err)
	}
	m.revalidate(ctx)
	return m, nil
}

// Flush returns once every hook run recorded so far is in the database;
// call it before closing the database.
func (m *Manager) Flush() { m.runs.flush() }

func (m *Manager) sweep(ctx context.Context) error {
	if err := m.store.sweepStaging(); err != nil {
		return err
	}
	return m.withRegistryLock(func() error {
		rows, err := m.db.Extensions(ctx)
		if err != nil {
			return err
		}
		keep := map[string][]string{}
		for _, e := range rows {
			keep[e.ID] = []string{e.ActiveCommit, e.PreviousCommit}
		}
		return m.store.sweepStore(keep)
	})
}

// OnRemove registers f, called with an extension's id before it is
// disabled, uninstalled or switched to another version, so its running
// hooks can be stopped.
func (m *Manager) OnRemove(f func(id string)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.onRemove = append(m.onRemove, f)
}

func (m *Manager) removing(id string) {
	m.mu.Lock()
	fs := append([]func(string){}, m.onRemove...)
	m.mu.Unlock()
	for _, f := range fs {
		f(id)
	}
}

// lockOp serialises operations on one extension within this process.
func (m *Manager) lockOp(id string) func() {
	m.mu.Lock()
	l, ok := m.opLocks[id]
	if !ok {
		l = &sync.Mutex{}
		m.opLocks[id] = l
	}
	m.mu.Unlock()
	l.Lock()
	return l.Unlock
}

func (m *Manager) withRegistryLock(fn func() error) error {
	l, err := lockFile(m.store.registryLock(), false)
	if err != nil {
		return err
	}
	defer l.unlock()
	return fn()
}

// version returns the validated package of one commit, read from the
// registry (a few kilobytes of JSON). Active keeps what it decoded, keyed
// by the record's revision, which a re-stamp by any process bumps.
func (m *Manager) version(ctx context.Context, id, commit string) (*manifest.Package, string, error) {
	v, err := m.db.ExtensionVersion(ctx, id, commit)
	if err != nil {
		return nil, "", err
	}
	pkg, err := decodePackage(v, m.store.versionDir(id, commit))
	if err != nil {
		return nil, "", err
	}
	return pkg, v.HooksHash, nil
}

// List returns every installed extension in installation order.
func (m *Manager) List(ctx context.Context) ([]Info, error) {
	rows, err := m.db.Extensions(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(rows))
	for _, e := range rows {
		out = append(out, m.load(ctx, e, false))
	}
	return out, nil
}

// Show returns one extension with its recent hook runs.
func (m *Manager) Show(ctx context.Context, id string) (Info, error) {
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return Info{}, notInstalled(id, err)
	}
	return m.load(ctx, e, true), nil
}

// ErrNotInstalled: no extension has that id.
var ErrNotInstalled = errors.New("is not installed")

func notInstalled(id string, err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("extension %q %w (see `agentdesk ext list`)", id, ErrNotInstalled)
	}
	return err
}

// Lease marks dir, a version folder, in use until release is called, so
// an older version is deleted only once nothing runs from it (a hook run,
// a running MCP server). Calling release more than once releases once.
func (m *Manager) Lease(dir string) (release func()) {
	m.acquire(dir)
	var once sync.Once
	return func() { once.Do(func() { m.release(dir) }) }
}

// MarkForReview puts id back to "needs review" with reason (a file its
// hooks run changed on disk since it was trusted); its hooks stop until
// the user trusts it again.
func (m *Manager) MarkForReview(ctx context.Context, id, reason string) error {
	return m.markForReview(ctx, id, reason)
}

// RecordRun keeps one hook run for the card and `ext show`; it is
// written in the background and never blocks the hook's event.
func (m *Manager) RecordRun(run storage.HookRun) { m.runs.add(run) }

// acquire and release bracket a Lease.
func (m *Manager) acquire(dir string) {
	m.mu.Lock()
	m.inUse[dir]++
	m.holdLease(dir)
	m.mu.Unlock()
}

func (m *Manager) release(dir string) {
	m.mu.Lock()
	m.inUse[dir]--
	m.dropLease(dir)
	remove := m.inUse[dir] <= 0 && m.doomed[dir]
	if m.inUse[dir] <= 0 {
		delete(m.inUse, dir)
	}
	if remove {
		delete(m.doomed, dir)
	}
	m.mu.Unlock()
	if remove {
		os.RemoveAll(dir)
	}
}

// discardVersions deletes dropped version folders, or marks them for
// deletion when a hook still runs from them.
func (m *Manager) discardVersions(id string, commits []string) {
	for _, c := range commits {
		if m.store.checkVersion(id, c) != nil {
			continue // a newer AgentDesk's, never deleted here
		}
		dir := m.store.versionDir(id, c)
		m.mu.Lock()
		busy := m.inUse[dir] > 0
		if busy {
			m.doomed[dir] = true
		}
		m.mu.Unlock()
		if !busy {
			os.RemoveAll(dir)
			os.Remove(m.store.formatFile(id, c))
		}
	}
}
