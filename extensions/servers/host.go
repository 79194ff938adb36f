package servers

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// Hosted is what every server host reads and writes of the installed
// extensions (*extensions.Manager and the project registry implement
// it).
type Hosted interface {
	Active(ctx context.Context) []extensions.Active
	// StillActive reports whether id is still enabled and trusted at
	// commit: another AgentDesk process (the CLI while the window is
	// open) may have disabled, removed or updated it.
	StillActive(ctx context.Context, id, commit string) bool
	Lease(dir string) (release func())
	// MarkForReview pauses an extension whose files changed on disk.
	MarkForReview(ctx context.Context, id, reason string) error
}

// launchEnv builds what a stdio server starts with, the same for MCP and
// LSP servers: the hooks' PATH and environment, never AgentDesk's own
// secrets.
type launchEnv struct {
	path       func() string
	environ    func() []string
	lookup     func(string) (string, bool)
	appSecrets func() []string
}

func newLaunchEnv(path func() string, environ func() []string, lookup func(string) (string, bool), appSecrets func() []string) launchEnv {
	if path == nil {
		path = func() string { return os.Getenv("PATH") }
	}
	if environ == nil {
		environ = os.Environ
	}
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return launchEnv{path: path, environ: environ, lookup: lookup, appSecrets: appSecrets}
}

// appSecret reports whether name is a variable AgentDesk reads its own
// secrets from.
func (l launchEnv) appSecret(name string) bool {
	if extensions.AppSecretVar(name) {
		return true
	}
	if l.appSecrets == nil {
		return false
	}
	return slices.ContainsFunc(l.appSecrets(), func(s string) bool { return s != "" && strings.EqualFold(s, name) })
}

// lookupEnv reads the user's environment for a server's declared
// variables, never AgentDesk's own secrets.
func (l launchEnv) lookupEnv(name string) (string, bool) {
	if l.appSecret(name) {
		return "", false
	}
	return l.lookup(name)
}

// expand is decl with x's variables expanded for project.
func (l launchEnv) expand(x extensions.Active, decl manifest.MCPServer, project string) manifest.MCPLaunch {
	return decl.Expand(manifest.MCPEnv{Vars: manifest.Vars{PluginRoot: x.Dir, PluginData: x.Data, ProjectDir: project, Options: x.OptionArgv},
		Sensitive: x.SensitiveOptions(), LookupEnv: l.lookupEnv})
}

// stdio finds a stdio server's program on the hooks' PATH and builds its
// environment (event names it for hooks' AGENTDESK_EVENT: "MCP", "LSP").
func (l launchEnv) stdio(x extensions.Active, launch manifest.MCPLaunch, project, event string) (path string, env []string, err error) {
	path, err = hookrun.LookPath(launch.Argv[0], l.path())
	if err != nil {
		return "", nil, fmt.Errorf("needs `%s`, which was not found on PATH: install it or set the PATH in Preferences → Advanced", launch.Argv[0])
	}
	env = hookrun.Environ(hookrun.EnvInput{Parent: l.environ(), HookPATH: l.path(), PluginRoot: x.Dir, PluginData: x.Data,
		ProjectDir: project, Event: event, Options: x.OptionEnv})
	return path, append(env, launch.Env...), nil
}

// checkFiles checks x's files against what the user trusted before one
// of its servers starts, pausing it for review (as a tampered hook is)
// when they differ, and makes its data folder.
func checkFiles(reg Hosted, x extensions.Active) error {
	if err := manifest.CheckStamps(x.Dir, x.Pkg.Stamps); err != nil {
		// Paused as a tampered hook pauses it, so `ext list` and the card
		// say it needs review rather than "enabled".
		reason := fmt.Sprintf("a file of the extension changed on disk since you trusted it (%v); review it before it runs again", err)
		if markErr := reg.MarkForReview(context.Background(), x.ID, reason); markErr != nil {
			reason += "; it could not be paused: " + markErr.Error()
		}
		return fmt.Errorf("%s", reason)
	}
	return hookrun.PrepareDataDir(x.Data)
}

// removalWatch polls the registry row of each extension whose servers
// run, and stops them once another process has disabled, removed or
// updated it. One watcher per extension and commit.
type removalWatch struct {
	reg  Hosted
	has  func(id string) bool // whether servers of id still run here
	stop func(id string)

	mu       sync.Mutex
	watching map[string]string // extension id → the commit its servers run from
}

func newRemovalWatch(reg Hosted, has func(string) bool, stop func(string)) *removalWatch {
	return &removalWatch{reg: reg, has: has, stop: stop, watching: map[string]string{}}
}

// watch starts watching id at commit, unless it is watched already.
func (w *removalWatch) watch(id, commit string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watching[id] == commit {
		return
	}
	w.watching[id] = commit
	go w.poll(id, commit)
}

// forget stops watching id (every extension when id is "").
func (w *removalWatch) forget(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for owner := range w.watching {
		if id == "" || owner == id {
			delete(w.watching, owner)
		}
	}
}

func (w *removalWatch) poll(id, commit string) {
	tick := time.NewTicker(RemovalPoll)
	defer tick.Stop()
	for range tick.C {
		w.mu.Lock()
		current := w.watching[id] == commit
		if current && !w.has(id) {
			delete(w.watching, id)
			current = false
		}
		w.mu.Unlock()
		if !current { // stopped here, or a newer watcher took over
			return
		}
		if !w.reg.StillActive(context.Background(), id, commit) {
			w.stop(id)
			return
		}
	}
}
