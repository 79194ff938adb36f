package extensions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// Active is an enabled, trusted extension ready to run: what the
// dispatcher (extensions/dispatch) and the server host
// (extensions/servers) need of it, read from the registry.
type Active struct {
	ID, Label string
	Commit    string
	Dir, Data string // the active version folder and the extension's data folder
	// Version names the content of the active version's record (id,
	// commit, hooks hash, record revision): a re-stamp or an update
	// changes it, so what was read of Dir can be kept while it holds.
	Version string
	Pkg     *manifest.Package
	// The userConfig values its hooks and servers get: all in the
	// environment, the non-sensitive ones for ${user_config.KEY}.
	OptionEnv, OptionArgv map[string]string
	// Unconfined: the user chose to run its hooks and servers without the
	// sandbox (Manager.SetUnconfined), for what they trust of it now.
	Unconfined bool
	// Projects are the canonical folders it is active in; none:
	// everywhere (see In).
	Projects []string
	// ToolsOff are its MCP tools the user switched off (see ToolOff).
	ToolsOff map[ToolRef]bool
}

// Servers are the MCP servers of x that would start (not inactive).
func (x Active) Servers() []manifest.MCPServer { return runnableServers(x.Pkg) }

// LSPServers are the language servers of x that would start.
func (x Active) LSPServers() []manifest.LSPServer { return runnableLSP(x.Pkg) }

// SensitiveOptions are the values of x's sensitive userConfig options by
// key, for ${user_config.KEY} in an MCP server's env and headers only.
func (x Active) SensitiveOptions() map[string]string {
	out := map[string]string{}
	for _, o := range x.Pkg.UserConfig {
		if v, ok := x.OptionEnv[o.EnvName()]; ok && o.Sensitive {
			out[o.Key] = v
		}
	}
	return out
}

// Active returns the enabled, trusted extensions whose options are all
// given and that are active in the project ctx is for (WithProject; an
// extension enabled only in some projects is left out of a call for none
// of them, or for no project), in installation order. The list is kept in memory and built
// again only when the registry generation moved (a write by this process
// or another: storage.DB.RegistryGeneration), so a call costs one read
// of one row; a rebuild decodes only the versions whose record changed
// (keyed by id, commit, hooks hash and record revision, which a re-stamp
// bumps). The packages are shared: callers must not change them.
func (m *Manager) Active(ctx context.Context) []Active {
	gen, err := m.db.RegistryGeneration(ctx)
	if err != nil {
		m.log.Error("read extensions registry", "err", err)
		return nil
	}
	c := &m.active
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.built && c.gen == gen {
		return inProject(slices.Clone(c.list), ProjectOf(ctx))
	}
	list, pkgs, ok := m.buildActive(ctx, c.pkgs)
	if ok { // a failed read is not cached: the next call tries again
		c.gen, c.list, c.pkgs, c.built = gen, list, pkgs, true
	}
	return inProject(slices.Clone(list), ProjectOf(ctx))
}

// keepDecoded gives Active's first build a package already decoded
// (revalidate reads every active version as the registry opens), so a
// new process decodes each package once, not twice. It is kept under
// the version record's key, which any later change of the record moves.
func (m *Manager) keepDecoded(ctx context.Context, id, commit string, pkg *manifest.Package) {
	hash, rev, err := m.db.ExtensionVersionKey(ctx, id, commit)
	if err != nil {
		return
	}
	c := &m.active
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pkgs == nil {
		c.pkgs = map[versionKey]*manifest.Package{}
	}
	c.pkgs[versionKey{id, commit, hash, rev}] = pkg
}

// activeCache is what Active keeps between calls.
type activeCache struct {
	mu    sync.Mutex
	built bool
	gen   int64
	list  []Active
	pkgs  map[versionKey]*manifest.Package
}

// versionKey names one version record's content.
type versionKey struct {
	id, commit, hooksHash string
	revision              int64
}

// activeDecodes counts package decodes by Active (tests).
var activeDecodes atomic.Int64

func (m *Manager) buildActive(ctx context.Context, old map[versionKey]*manifest.Package) ([]Active, map[versionKey]*manifest.Package, bool) {
	rows, err := m.db.Extensions(ctx)
	if err != nil {
		m.log.Error("read extensions registry", "err", err)
		return nil, old, false
	}
	off, err := m.toolsOff(ctx)
	if err != nil {
		m.log.Error("read switched-off MCP tools", "err", err)
		return nil, old, false
	}
	pkgs := map[versionKey]*manifest.Package{}
	ok := true
	var out []Active
	for _, e := range rows {
		if !e.Enabled || e.ReviewReason != "" {
			continue
		}
		hash, rev, err := m.db.ExtensionVersionKey(ctx, e.ID, e.ActiveCommit)
		if err != nil {
			ok = ok && errors.Is(err, storage.ErrNotFound)
			continue
		}
		key := versionKey{e.ID, e.ActiveCommit, hash, rev}
		pkg := old[key]
		if pkg == nil {
			pkg, hash, err = m.version(ctx, e.ID, e.ActiveCommit)
			if err != nil {
				ok = ok && errors.Is(err, storage.ErrNotFound)
				continue
			}
			activeDecodes.Add(1)
		}
		pkgs[key] = pkg
		if statusOf(e, pkg, hash, nil) != StatusEnabled {
			continue
		}
		env, argv, missing := m.hookOptions(ctx, e.ID, pkg)
		if len(missing) > 0 { // inactive until the user gives the values; Info says so
			continue
		}
		out = append(out, Active{ID: e.ID, Label: displayName(pkg.Manifest), Pkg: pkg, Commit: e.ActiveCommit,
			Version: fmt.Sprintf("%s %s %s %d", key.id, key.commit, key.hooksHash, key.revision),
			Dir:     m.store.versionDir(e.ID, e.ActiveCommit), Data: m.store.dataDir(e.ID),
			OptionEnv: env, OptionArgv: argv, Unconfined: m.unconfined(ctx, e), Projects: e.Projects, ToolsOff: off[e.ID]})
	}
	return out, pkgs, ok
}

// StillActive reports whether id is still enabled, trusted and at
// commit. A read that fails for another reason than a missing row proves
// nothing, so it answers true.
func (m *Manager) StillActive(ctx context.Context, id, commit string) bool {
	e, err := m.db.Extension(ctx, id)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return false
	case err != nil:
		return true
	}
	return e.Enabled && e.ReviewReason == "" && e.ActiveCommit == commit
}

type projectKey struct{}

// WithProject returns ctx carrying the folder of the session a call is
// for, so a registry that serves a project's own settings as an
// extension (extensions/project) answers for that folder.
func WithProject(ctx context.Context, dir string) context.Context {
	if dir == "" {
		return ctx
	}
	return context.WithValue(ctx, projectKey{}, dir)
}

// ProjectOf is the folder WithProject put in ctx, or "".
func ProjectOf(ctx context.Context) string {
	dir, _ := ctx.Value(projectKey{}).(string)
	return dir
}

// Snapshot is the enabled extensions as one turn sees them: taken once
// when the turn starts (dispatch.Dispatcher.BeginTurn) and carried in
// its context, so every consumer of the turn (hooks of every event,
// commands, MCP, subagents started in it) uses the same list and no tool
// call reads the registry. A change by another process is seen at the
// next turn; a disable still stops what runs at once (OnRemove, the
// server host's StillActive watch).
type Snapshot struct {
	Project string // the session's folder the list was taken for
	Active  []Active
	hooked  map[string][]Active // by event: the extensions with an active hook for it
	// Seq is what its taker counted as it took it (the dispatcher: the
	// extensions this process removed, so a disable in the middle of a
	// turn still holds for the rest of it).
	Seq uint64

	mu   sync.Mutex
	memo map[any]any // Memo
}

// NewSnapshot is the snapshot of list for project, indexed by hook event.
func NewSnapshot(project string, list []Active) *Snapshot {
	s := &Snapshot{Project: project, Active: list, hooked: map[string][]Active{}}
	for _, x := range list {
		seen := map[string]bool{}
		for _, h := range x.Pkg.Hooks {
			if h.Inactive == "" && !seen[h.Event] {
				seen[h.Event] = true
				s.hooked[h.Event] = append(s.hooked[h.Event], x)
			}
		}
	}
	return s
}

// Hooked are the extensions of s with an active hook for event, in
// installation order: what a tool call's PreToolUse looks at, however
// many extensions are enabled.
func (s *Snapshot) Hooked(event string) []Active { return s.hooked[event] }

// Memo is what build makes of s, made once per snapshot and key: what
// several consumers of a turn derive from its list (the enabled ids, the
// skill folders, the agent set's key) costs one build a turn. build
// must not change s and must give the same answer each time (two
// consumers at once may both build; the first kept wins); callers must
// not change what it returns.
func (s *Snapshot) Memo(key any, build func() any) any {
	s.mu.Lock()
	v, ok := s.memo[key]
	s.mu.Unlock()
	if ok {
		return v
	}
	v = build()
	s.mu.Lock()
	defer s.mu.Unlock()
	if kept, ok := s.memo[key]; ok {
		return kept
	}
	if s.memo == nil {
		s.memo = map[any]any{}
	}
	s.memo[key] = v
	return v
}

type snapshotKey struct{}

// WithSnapshot returns ctx carrying s.
func WithSnapshot(ctx context.Context, s *Snapshot) context.Context {
	return context.WithValue(ctx, snapshotKey{}, s)
}

// SnapshotOf is the turn's snapshot in ctx when it was taken for the
// folder ctx is for (WithProject; none named counts as the same).
func SnapshotOf(ctx context.Context) (*Snapshot, bool) {
	s, ok := ctx.Value(snapshotKey{}).(*Snapshot)
	if !ok {
		return nil, false
	}
	if dir := ProjectOf(ctx); dir != "" && dir != s.Project {
		return nil, false
	}
	return s, true
}
