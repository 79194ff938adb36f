//go:build unix

package dispatch

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/servers"
	"github.com/agentdesk/agentdesk/storage"
)

// testEnv is a Manager on a temp AGENTDESK_HOME with a loopback HTTPS git
// server holding the test repositories: the registry the dispatch tests
// that install real packages run over. (Tests that need no install use
// memRegistry, mem_test.go.)
type testEnv struct {
	t      *testing.T
	home   string
	paths  storage.Paths
	db     *storage.DB
	m      *extensions.Manager
	server *gittest.Server
	repos  map[string]*gittest.Repo
}

func newTestEnv(t *testing.T, repos map[string]*gittest.Repo, opts ...extensions.Option) *testEnv {
	t.Helper()
	home := t.TempDir()
	t.Setenv(storage.HomeEnv, home)
	e := &testEnv{t: t, home: home, paths: storage.ResolvePaths(), repos: repos}
	if err := e.paths.Ensure(); err != nil {
		t.Fatal(err)
	}
	e.server = gittest.Serve(t, repos)
	e.open(opts...)
	return e
}

// open (re)opens the database and the manager, as an app start does.
func (e *testEnv) open(opts ...extensions.Option) {
	e.t.Helper()
	db, err := storage.Open(context.Background(), e.paths.Database())
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { db.Close() })
	e.db = db
	m, err := extensions.NewManager(context.Background(), db, e.paths.Extensions(), append([]extensions.Option{extensions.WithHTTPClient(e.server.Client)}, opts...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	e.m = m
}

func (e *testEnv) url(name string) string { return e.server.URL + "/" + name + ".git" }

func (e *testEnv) install(name, ref string) extensions.Info {
	e.t.Helper()
	info, err := e.m.Install(context.Background(), e.url(name), ref, nil)
	if err != nil {
		e.t.Fatalf("install %s: %v", name, err)
	}
	return info
}

func (e *testEnv) enable(id string) extensions.Info {
	e.t.Helper()
	tr, err := e.m.TrustPrompt(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	info, err := e.m.Enable(context.Background(), id, tr.Hash)
	if err != nil {
		e.t.Fatal(err)
	}
	return info
}

// newDispatcher is the dispatcher over e's Manager with the test PATH.
func (e *testEnv) newDispatcher(path string) *Dispatcher {
	d := New(e.m, Config{HookPATH: func() string { return path }})
	e.t.Cleanup(d.Close)
	return d
}

// fixtureFiles reads the fixture plugin (extensions/testdata/fixture).
func fixtureFiles(t *testing.T) map[string]gittest.File { return testdataFiles(t, "fixture") }

func testdataFiles(t *testing.T, name string) map[string]gittest.File {
	return gittest.ReadDir(t, filepath.Join("..", "testdata", name))
}

func plugin(name, hookScript string, skill bool) map[string]gittest.File {
	return gittest.Plugin(name, hookScript, skill)
}

func with(files, extra map[string]gittest.File) map[string]gittest.File {
	return gittest.With(files, extra)
}

func repo(t *testing.T, files map[string]gittest.File) *gittest.Repo { return gittest.Single(t, files) }

func sessionStartEvent(project string) lifecycle.SessionStartEvent {
	return lifecycle.SessionStartEvent{SessionID: "s1", ProjectDir: project, Source: lifecycle.SourceStartup, Model: "m"}
}

func containsText(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// logInstalled logs what an install gave: hooks and whether they run,
// skills, commands, diagnostics.
func logInstalled(t *testing.T, name string, info extensions.Info) {
	var hooks []string
	for _, h := range info.Hooks {
		state := "runs"
		if h.Inactive != "" {
			state = "inactive: " + h.Inactive
		}
		hooks = append(hooks, h.Event+" "+h.ArgvText()+" ("+state+")")
	}
	var commands []string
	for _, c := range info.Commands {
		commands = append(commands, "/"+c.Name)
	}
	t.Logf("%s: ok, %d hooks, %d skills, commands %q; hooks %q; notes %q", name, len(info.Hooks), len(info.Skills), commands, hooks, info.Diagnostics)
}

// liveShow is Manager.Show with what runs now filled in by d (MCP
// servers' states, lingering processes), as the cards show it.
func liveShow(ctx context.Context, m *extensions.Manager, d *Dispatcher, id string) (extensions.Info, error) {
	info, err := m.Show(ctx, id)
	if err == nil {
		d.AddState(&info)
	}
	return info, err
}

// mcpHost is a dispatcher whose MCP host is configured by cfg (with the
// test PATH unless cfg sets one).
func (e *testEnv) mcpDispatcher(cfg servers.MCPConfig) *Dispatcher {
	if cfg.PATH == nil {
		cfg.PATH = func() string { return testPATH }
	}
	d := New(e.m, Config{HookPATH: cfg.PATH, MCP: servers.NewMCP(e.m, cfg)})
	e.t.Cleanup(d.Close)
	return d
}

// storeState lists what is on disk under the store, staging and data.
func (e *testEnv) storeState() []string {
	return gittest.Tree(e.paths.Extensions(), "store", "staging", "data")
}
