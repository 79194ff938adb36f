package extensions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/marketplace"
)

// bigMarketFiles is a marketplace of n plugins in folders of their own,
// as wshobson/agents lays them out, plus one plugin in an unreachable
// repository. Every plugin's agents
// folder links to one shared folder outside it, so copying a plugin out
// of the tree must not take what the next one needs.
func bigMarketFiles(n int) map[string]gittest.File {
	var entries []string
	files := map[string]gittest.File{
		"shared/agents/reviewer.md": {Body: "---\nname: reviewer\ndescription: Reviews code\n---\nReview it.\n"},
		"README.md":                 {Body: "big marketplace\n"},
	}
	for i := range n {
		name := fmt.Sprintf("p%03d", i)
		entries = append(entries, fmt.Sprintf(`{"name":%q,"description":"Plugin %d","version":"1.0.%d","source":"./plugins/%s"}`, name, i, i, name))
		files["plugins/"+name+"/.claude-plugin/plugin.json"] = gittest.File{Body: fmt.Sprintf(`{"name":%q,"version":"1.0.%d"}`, name, i)}
		files["plugins/"+name+"/skills/s"+name+"/SKILL.md"] = gittest.File{Body: "---\nname: s" + name + "\ndescription: d\n---\nbody\n"}
		files["plugins/"+name+"/agents"] = gittest.File{Symlink: "../../shared/agents"}
	}
	entries = append(entries,
		`{"name":"offline","description":"elsewhere","source":{"source":"git-subdir","url":"https://127.0.0.1:1/gone.git","path":"x"}}`)
	files[".claude-plugin/marketplace.json"] = gittest.File{Body: `{"name":"big","owner":{"name":"Big"},"plugins":[` + strings.Join(entries, ",") + `]}`}
	return files
}

func TestInstallPluginsFetchesOnceAndGoesOnPastFailures(t *testing.T) {
	const n = 91 // and one unreachable: 92 plugins
	market := gittest.NewRepo(t)
	e := newTestEnv(t, map[string]*gittest.Repo{"market": market})
	market.Commit(t, "main", "marketplace", bigMarketFiles(n))
	market.SetHEAD(t, "main")
	ctx := context.Background()

	// One plugin on its own: what one download of the marketplace costs.
	before := e.server.Requests()
	if _, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "p000"}, nil); err != nil {
		t.Fatal(err)
	}
	oneFetch := e.server.Requests() - before
	if err := e.m.Uninstall(ctx, "p000"); err != nil {
		t.Fatal(err)
	}

	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("p%03d", i))
	}
	names = append([]string{"offline"}, names...) // a failure first: the rest must still go on
	names = append(names, "p001", "missing")
	var heard []string
	before = e.server.Requests()
	results, err := e.m.InstallPlugins(ctx, e.url("market"), "", names, nil, func(r PluginResult) { heard = append(heard, r.Plugin) })
	if err != nil {
		t.Fatal(err)
	}
	if got := e.server.Requests() - before; got != oneFetch {
		t.Errorf("%d plugins took %d requests; one download takes %d", n, got, oneFetch)
	}
	if len(results) != n+2 || len(heard) != len(results) {
		t.Fatalf("%d results, %d heard, want %d (a repeated name once)", len(results), len(heard), n+2)
	}
	failed := map[string]string{}
	for _, r := range results {
		if r.Err != nil {
			failed[r.Plugin] = r.Err.Error()
			continue
		}
		if r.Info.ID != r.Plugin || r.Info.Status != "disabled" {
			t.Errorf("%s: installed as %+v", r.Plugin, r.Info)
		}
		if _, err := os.Stat(filepath.Join(e.m.store.versionDir(r.Info.ID, r.Info.Commit), "agents", "reviewer.md")); err != nil {
			t.Errorf("%s lost the agents its link named: %v", r.Plugin, err)
		}
	}
	if len(failed) != 2 || !strings.Contains(failed["offline"], "127.0.0.1:1") || !strings.Contains(failed["missing"], "and 80 more") {
		t.Fatalf("failures: %q", failed)
	}
	if got := InstallSummary(results); got != fmt.Sprintf("%d installed, 2 failed: offline, missing", n) {
		t.Errorf("summary %q", got)
	}
	if list, _ := e.m.List(ctx); len(list) != n {
		t.Errorf("%d installed, want %d", len(list), n)
	}
	if entries, _ := os.ReadDir(filepath.Join(e.paths.Extensions(), "staging")); len(entries) != 0 {
		t.Fatalf("staging left behind: %v", entries)
	}

	// Again: each is a duplicate now, named as such; nothing changes.
	results, err = e.m.InstallPlugins(ctx, e.url("market"), "", []string{"p002", "p003"}, nil, nil)
	if err != nil || len(results) != 2 || results[0].Err == nil || !strings.Contains(results[1].Err.Error(), "already installed") {
		t.Fatalf("second install: %v %+v", err, results)
	}
}

func TestInstallPluginsRefusesWhatIsNoMarketplace(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"plain": repo(t, plugin("plain", "", true))})
	_, err := e.m.InstallPlugins(context.Background(), e.url("plain"), "", []string{"a", "b"}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "not a marketplace") {
		t.Fatalf("err %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.m.InstallPlugins(ctx, e.url("plain"), "", []string{"a"}, nil, nil); err == nil {
		t.Fatal("a cancelled install must fail")
	}
}

// TestInstallPluginsRealMarketplace installs every plugin of a real
// marketplace (a bare clone named by AGENTDESK_REAL_MARKETPLACE, e.g.
// wshobson/agents) from a loopback server in one call: one download, and
// each plugin installed or its reason given.
func TestInstallPluginsRealMarketplace(t *testing.T) {
	dir := os.Getenv("AGENTDESK_REAL_MARKETPLACE")
	if dir == "" {
		t.Skip("set AGENTDESK_REAL_MARKETPLACE to a bare clone of a marketplace (e.g. wshobson/agents)")
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"market": {Dir: dir}})
	ctx := context.Background()
	before := e.server.Requests()
	_, err := e.m.Install(ctx, e.url("market"), "", nil)
	var mkt *MarketplaceError
	if !errors.As(err, &mkt) {
		t.Fatalf("not listed as a marketplace: %v", err)
	}
	oneFetch := e.server.Requests() - before
	var names []string
	local := 0
	for _, p := range mkt.Marketplace.Plugins {
		names = append(names, p.Name)
		if p.Source.Kind == marketplace.SourcePath {
			local++
		}
	}
	before = e.server.Requests()
	began := time.Now()
	results, err := e.m.InstallPlugins(ctx, e.url("market"), "", names, nil, nil)
	took := time.Since(began)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.server.Requests() - before; got != oneFetch {
		t.Errorf("%d plugins took %d requests of the marketplace's server; one download takes %d", len(names), got, oneFetch)
	}
	installed := 0
	for _, r := range results {
		if r.Err != nil {
			t.Logf("not installed: %s: %v", r.Plugin, r.Err)
			continue
		}
		installed++
	}
	t.Logf("%s in %v (%d plugins in folders of the marketplace)", InstallSummary(results), took.Round(time.Millisecond), local)
	if installed < local {
		t.Errorf("%d installed, but %d plugins live in the marketplace's own folders", installed, local)
	}
}
