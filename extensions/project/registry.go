package project

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/agent/permissions"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// reread is how long a folder read stays fresh: events come many per
// turn, and the settings are read again at most this often (a changed
// hook file is caught before it runs by the dispatcher's tamper check).
const reread = time.Second

// Registry is the installed extensions' registry with the open
// project's own settings in front, as the extension "project", when
// that folder is trusted. The folder is the one in the call's context
// (extensions.WithProject), else the one opened last (Open): the window
// and `agentdesk run` serve one project at a time.
type Registry struct {
	*extensions.Manager
	db       *storage.DB
	dataRoot string
	log      *slog.Logger

	mu       sync.Mutex
	current  string
	folders  map[string]cachedFolder
	onRemove []func(id string)
}

type cachedFolder struct {
	f    Folder
	err  error
	read time.Time
}

// NewRegistry wraps m; the project's hooks and servers keep their data
// under dataRoot, one folder per project.
func NewRegistry(m *extensions.Manager, db *storage.DB, dataRoot string, log *slog.Logger) *Registry {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Registry{Manager: m, db: db, dataRoot: dataRoot, log: log, folders: map[string]cachedFolder{}}
}

// Open makes dir the project calls without one in their context are for,
// and returns its settings and trust, read now.
func (r *Registry) Open(ctx context.Context, dir string) (Folder, error) {
	f, err := r.Folder(ctx, dir)
	if err != nil {
		return f, err
	}
	r.mu.Lock()
	r.current = f.Dir
	r.mu.Unlock()
	return f, nil
}

// Folder reads dir's settings and trust now.
func (r *Registry) Folder(ctx context.Context, dir string) (Folder, error) {
	f, err := Read(ctx, r.db, dir)
	if err == nil {
		r.mu.Lock()
		r.folders[f.Dir] = cachedFolder{f: f, read: time.Now()}
		r.mu.Unlock()
	}
	return f, err
}

// Trust trusts f as it is now; its hooks and servers run from the next
// event on.
func (r *Registry) Trust(ctx context.Context, f Folder) error {
	if err := Trust(ctx, r.db, f); err != nil {
		return err
	}
	r.forget(f.Dir)
	return nil
}

// Untrust forgets dir's trust and stops what its settings started.
func (r *Registry) Untrust(ctx context.Context, dir string) error {
	if err := Untrust(ctx, r.db, dir); err != nil {
		return err
	}
	if c, err := Canonical(dir); err == nil {
		r.forget(c)
	}
	r.removed()
	return nil
}

func (r *Registry) forget(dir string) {
	r.mu.Lock()
	delete(r.folders, dir)
	r.mu.Unlock()
}

// removed tells the dispatcher that "project" stops: its running hooks,
// what they left and its servers end.
func (r *Registry) removed() {
	r.mu.Lock()
	fs := append([]func(string){}, r.onRemove...)
	r.mu.Unlock()
	for _, f := range fs {
		f(manifest.ProjectID)
	}
}

// dirOf is the project a call is for.
func (r *Registry) dirOf(ctx context.Context) string {
	if dir := extensions.ProjectOf(ctx); dir != "" {
		return dir
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.current
}

// cached is dir's folder, read again when older than reread.
func (r *Registry) cached(ctx context.Context, dir string) (Folder, bool) {
	if dir == "" {
		return Folder{}, false
	}
	r.mu.Lock()
	c, ok := r.folders[dir]
	r.mu.Unlock()
	if !ok || time.Since(c.read) > reread {
		f, err := Read(ctx, r.db, dir)
		c = cachedFolder{f: f, err: err, read: time.Now()}
		if err != nil {
			r.log.Warn("read project settings", "dir", dir, "err", err)
		}
		r.mu.Lock()
		r.folders[dir] = c
		if f.Dir != "" && f.Dir != dir {
			r.folders[f.Dir] = c
		}
		r.mu.Unlock()
	}
	return c.f, c.err == nil
}

// Active implements dispatch.Registry and servers.Registry: the
// project's settings first when its folder is trusted, then the
// installed extensions active in that folder (everywhere, or enabled in
// it). Within a turn it is the turn's snapshot
// (extensions.SnapshotOf), so the server host's reads cost nothing.
func (r *Registry) Active(ctx context.Context) []extensions.Active {
	if s, ok := extensions.SnapshotOf(ctx); ok {
		return s.Active
	}
	dir := r.dirOf(ctx)
	f, ok := r.cached(ctx, dir)
	if ok && f.Dir != "" {
		dir = f.Dir // canonical, as extensions enabled in some projects name them
	}
	out := r.Manager.Active(extensions.WithProject(ctx, dir))
	if !ok || !f.Runs() {
		return out
	}
	x := extensions.Active{ID: manifest.ProjectID, Label: f.Pkg.Manifest.DisplayName, Commit: f.Hash,
		Dir: f.Dir, Data: r.DataDir(f.Dir), Pkg: f.Pkg, OptionEnv: f.Env()}
	return append([]extensions.Active{x}, out...)
}

// DataDir is the data folder of dir's hooks and servers
// (${CLAUDE_PLUGIN_DATA}), kept across sessions.
func (r *Registry) DataDir(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(r.dataRoot, manifest.ProjectID, hex.EncodeToString(sum[:8]))
}

// StillActive implements dispatch.Registry.
func (r *Registry) StillActive(ctx context.Context, id, commit string) bool {
	if id != manifest.ProjectID {
		return r.Manager.StillActive(ctx, id, commit)
	}
	f, ok := r.cached(ctx, r.dirOf(ctx))
	return !ok || f.Runs() && f.Hash == commit // a failed read proves nothing
}

// MarkForReview implements dispatch.Registry: a file the project's hooks
// run changed on disk, so the folder waits for trust again.
func (r *Registry) MarkForReview(ctx context.Context, id, reason string) error {
	if id != manifest.ProjectID {
		return r.Manager.MarkForReview(ctx, id, reason)
	}
	dir := r.dirOf(ctx)
	if err := r.db.MarkProjectForReview(ctx, dir, reason); err != nil {
		return err
	}
	r.forget(dir)
	r.removed()
	return nil
}

// RecordRun implements dispatch.Registry: a project's hook runs are kept
// by canonical folder (the card and project show list them), the others
// by extension.
func (r *Registry) RecordRun(run storage.HookRun) {
	if run.ExtensionID == manifest.ProjectID {
		if dir, err := Canonical(run.Project); err == nil {
			run.Project = dir
		}
	}
	r.Manager.RecordRun(run)
}

// OnRemove implements dispatch.Registry.
func (r *Registry) OnRemove(f func(id string)) {
	r.Manager.OnRemove(f)
	r.mu.Lock()
	r.onRemove = append(r.onRemove, f)
	r.mu.Unlock()
}

// TrustedSettings are dir's own settings when its folder is trusted
// (agent.Config.ProjectSettings).
func (r *Registry) TrustedSettings(ctx context.Context, dir string) (permissions.Settings, bool) {
	f, ok := r.cached(ctx, dir)
	if !ok || !f.Runs() {
		return permissions.Settings{}, false
	}
	return f.Settings, true
}

// Trusted reports whether dir's own settings apply now: for its allow
// and ask rules (agent.Config.ProjectTrusted).
func (r *Registry) Trusted(ctx context.Context, dir string) bool {
	f, ok := r.cached(ctx, dir)
	return ok && f.Runs()
}
