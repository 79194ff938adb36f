package extensions

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// testEnv is a Manager on a temp AGENTDESK_HOME with a loopback HTTPS git
// server holding the test repositories.
type testEnv struct {
	t      *testing.T
	home   string
	paths  storage.Paths
	db     *storage.DB
	m      *Manager
	server *gittest.Server
	repos  map[string]*gittest.Repo
}

func newTestEnv(t *testing.T, repos map[string]*gittest.Repo, opts ...Option) *testEnv {
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
func (e *testEnv) open(opts ...Option) {
	e.t.Helper()
	db, err := storage.Open(context.Background(), e.paths.Database())
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { db.Close() })
	e.db = db
	m, err := NewManager(context.Background(), db, e.paths.Extensions(), append([]Option{WithHTTPClient(e.server.Client)}, opts...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	e.m = m
}

func (e *testEnv) url(name string) string { return e.server.URL + "/" + name + ".git" }

func (e *testEnv) install(name, ref string) Info {
	e.t.Helper()
	info, err := e.m.Install(context.Background(), e.url(name), ref, nil)
	if err != nil {
		e.t.Fatalf("install %s: %v", name, err)
	}
	return info
}

func (e *testEnv) enable(id string) Info {
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

// fixtureFiles reads testdata/fixture into repository files, executable
// bits included.
func fixtureFiles(t *testing.T) map[string]gittest.File { return testdataFiles(t, "fixture") }

func testdataFiles(t *testing.T, name string) map[string]gittest.File {
	return gittest.ReadDir(t, filepath.Join("testdata", name))
}

func plugin(name, hookScript string, skill bool) map[string]gittest.File {
	return gittest.Plugin(name, hookScript, skill)
}

func with(files, extra map[string]gittest.File) map[string]gittest.File {
	return gittest.With(files, extra)
}

func repo(t *testing.T, files map[string]gittest.File) *gittest.Repo { return gittest.Single(t, files) }

// storeState lists what is on disk under the store, staging and data.
func (e *testEnv) storeState() []string {
	return gittest.Tree(e.paths.Extensions(), "store", "staging", "data")
}
