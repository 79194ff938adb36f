package extensions

import (
	"context"
	"errors"

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
	Pkg       *manifest.Package
	// The userConfig values its hooks and servers get: all in the
	// environment, the non-sensitive ones for ${user_config.KEY}.
	OptionEnv, OptionArgv map[string]string
}

// Servers are the MCP servers of x that would start (not inactive).
func (x Active) Servers() []manifest.MCPServer { return runnableServers(x.Pkg) }

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
// given, in installation order. It reads the registry on every call, so
// a disable or uninstall (by this process or another) removes an
// extension from the next call.
func (m *Manager) Active(ctx context.Context) []Active {
	rows, err := m.db.Extensions(ctx)
	if err != nil {
		m.log.Error("read extensions registry", "err", err)
		return nil
	}
	var out []Active
	for _, e := range rows {
		pkg, hash, err := m.version(ctx, e.ID, e.ActiveCommit)
		if statusOf(e, pkg, hash, err) != StatusEnabled {
			continue
		}
		env, argv, missing := m.hookOptions(ctx, e.ID, pkg)
		if len(missing) > 0 { // inactive until the user gives the values; Info says so
			continue
		}
		out = append(out, Active{ID: e.ID, Label: displayName(pkg.Manifest), Pkg: pkg, Commit: e.ActiveCommit,
			Dir: m.store.versionDir(e.ID, e.ActiveCommit), Data: m.store.dataDir(e.ID),
			OptionEnv: env, OptionArgv: argv})
	}
	return out
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
