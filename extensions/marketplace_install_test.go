package extensions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// marketFiles is a marketplace repository in Claude Code's layout: two
// plugins in folders of its own, one in another repository, one from npm.
func marketFiles(otherURL string) map[string]gittest.File {
	files := map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name":"team-tools","owner":{"name":"Team"},
			"metadata":{"pluginRoot":"./plugins"},
			"plugins":[
				{"name":"alpha","description":"Alpha tools","version":"1.0.0","source":"./plugins/alpha"},
				{"name":"beta","description":"Beta tools","source":"beta"},
				{"name":"gamma","description":"From elsewhere","source":{"source":"url","url":"` + otherURL + `"}},
				{"name":"inline","source":"./plugins/inline","strict":false,"description":"entry is the manifest","version":"2.0.0"},
				{"name":"noman","description":"No plugin.json","version":"0.9.0","source":"./plugins/noman"},
				{"name":"npm-one","source":{"source":"npm","package":"@x/y"}}
			]}`},
		"README.md": {Body: "marketplace\n"},
	}
	for name, f := range plugin("alpha", "echo alpha", true) {
		files["plugins/alpha/"+name] = f
	}
	for name, f := range plugin("beta", "", true) {
		files["plugins/beta/"+name] = f
	}
	files["plugins/inline/skills/inline-skill/SKILL.md"] = gittest.File{Body: "---\nname: inline-skill\ndescription: d\n---\nb\n"}
	files["plugins/noman/skills/report/SKILL.md"] = gittest.File{Body: "---\nname: report\ndescription: d\n---\nb\n"}
	return files
}

func TestMarketplaceListsItsPluginsAndInstallsThePickedOnes(t *testing.T) {
	market, other := gittest.NewRepo(t), repo(t, plugin("gamma", "echo gamma", false))
	e := newTestEnv(t, map[string]*gittest.Repo{"market": market, "other": other})
	market.Commit(t, "main", "marketplace", marketFiles(e.url("other")))
	market.SetHEAD(t, "main")
	ctx := context.Background()

	_, err := e.m.Install(ctx, e.url("market"), "", nil)
	var mkt *MarketplaceError
	if !errors.As(err, &mkt) || len(mkt.Marketplace.Plugins) != 6 {
		t.Fatalf("installing a marketplace without a pick: %v", err)
	}
	if list, _ := e.m.List(ctx); len(list) != 0 {
		t.Fatalf("nothing may be installed before a pick: %+v", list)
	}
	if entries, _ := os.ReadDir(filepath.Join(e.paths.Extensions(), "staging")); len(entries) != 0 {
		t.Fatalf("staging left behind: %v", entries)
	}

	alpha, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "alpha"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if alpha.ID != "alpha" || alpha.Plugin != "alpha" || alpha.PluginSource != "./plugins/alpha" || alpha.Enabled {
		t.Fatalf("alpha = %+v", alpha)
	}
	for _, gone := range []string{"plugins", "README.md", ".claude-plugin/marketplace.json"} {
		if _, err := os.Stat(filepath.Join(alpha.Dir, gone)); err == nil {
			t.Errorf("the package root is the plugin's folder, but %s is in it", gone)
		}
	}
	if len(alpha.Hooks) != 1 || len(alpha.Skills) != 1 {
		t.Fatalf("alpha hooks %v skills %v", alpha.Hooks, alpha.Skills)
	}
	beta, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "beta"}, nil)
	if err != nil || beta.PluginSource != "./plugins/beta" {
		t.Fatalf("beta (a bare name under metadata.pluginRoot): %+v %v", beta, err)
	}
	gamma, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "gamma"}, nil)
	if err != nil || gamma.ID != "gamma" || gamma.PluginSource != e.url("other") || gamma.SourceURL != e.url("market") {
		t.Fatalf("gamma (another repository): %+v %v", gamma, err)
	}
	inline, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "inline"}, nil)
	if err != nil || inline.Version != "2.0.0" || len(inline.Skills) != 1 || !hasNote(inline.Diagnostics, "its manifest is the marketplace entry") {
		t.Fatalf("inline (strict:false): %+v %v", inline, err)
	}
	// Claude Code allows a plugin without plugin.json: the entry names it.
	noman, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "noman"}, nil)
	if err != nil || noman.ID != "noman" || noman.Version != "0.9.0" || len(noman.Skills) != 1 {
		t.Fatalf("a plugin without plugin.json: %+v %v", noman, err)
	}
	if _, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "npm-one"}, nil); err == nil || !strings.Contains(err.Error(), `"npm"`) {
		t.Fatalf("an npm source must be refused with its reason: %v", err)
	}
	if _, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: "nope"}, nil); err == nil || !strings.Contains(err.Error(), "alpha") {
		t.Fatalf("an unknown plugin must name the listed ones: %v", err)
	}
}

func TestMarketplaceUpdateFollowsTheEntry(t *testing.T) {
	market, other, moved := gittest.NewRepo(t), repo(t, plugin("gamma", "echo gamma", false)), repo(t, plugin("gamma", "echo gamma", false))
	e := newTestEnv(t, map[string]*gittest.Repo{"market": market, "other": other, "moved": moved})
	market.Commit(t, "main", "v1", marketFiles(e.url("other")))
	market.SetHEAD(t, "main")
	ctx := context.Background()
	for _, name := range []string{"alpha", "gamma"} {
		if _, err := e.m.InstallFrom(ctx, Source{URL: e.url("market"), Plugin: name}, nil); err != nil {
			t.Fatal(err)
		}
		e.enable(name)
	}

	// The marketplace changes alpha's folder and points gamma elsewhere.
	files := marketFiles(e.url("moved"))
	files["plugins/alpha/skills/alpha-skill/SKILL.md"] = gittest.File{Body: "---\nname: alpha-skill\ndescription: changed\n---\nnew\n"}
	market.Commit(t, "main", "v2", files)

	res, err := e.m.Update(ctx, "alpha", "", nil)
	if err != nil || res.UpToDate || res.Info.Status != StatusEnabled {
		t.Fatalf("alpha update: %+v %v", res, err)
	}
	res, err = e.m.Update(ctx, "gamma", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Info.Status != StatusNeedsReview || !strings.Contains(res.Info.ReviewReason, "now points to "+e.url("moved")) {
		t.Fatalf("gamma's entry moved to another repository with the same hooks: status %s, reason %q", res.Info.Status, res.Info.ReviewReason)
	}
	if res.Info.PluginSource != e.url("moved") {
		t.Fatalf("plugin source after the update = %q", res.Info.PluginSource)
	}
}

func TestMarketplaceOfItselfInstallsAsAPlugin(t *testing.T) {
	files := with(plugin("self", "", true), map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name":"self","plugins":[{"name":"self","source":"./"}]}`},
	})
	e := newTestEnv(t, map[string]*gittest.Repo{"self": repo(t, files)})
	if info := e.install("self", ""); info.ID != "self" || info.Plugin != "" {
		t.Fatalf("self = %+v", info)
	}
}

func TestMarketplaceEntryCannotEscapeTheRepository(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name":"m","plugins":[{"name":"esc","source":"./plugins/esc"}]}`},
		"plugins/esc":                     {Symlink: "../.."},
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"m": repo(t, files)})
	_, err := e.m.InstallFrom(context.Background(), Source{URL: e.url("m"), Plugin: "esc"}, nil)
	if err == nil {
		t.Fatal("a plugin folder that is a symlink out of the repository was installed")
	}
	if entries, _ := os.ReadDir(filepath.Join(e.paths.Extensions(), "staging")); len(entries) != 0 {
		t.Fatalf("staging left behind: %v", entries)
	}
}

func hasNote(notes []string, part string) bool {
	for _, n := range notes {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}
