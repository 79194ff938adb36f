package project

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// A folder's enabledPlugins propose the installed extensions they name,
// only once nothing of the folder waits for trust, never enabling one;
// an extension enabled in the folder is no longer proposed, and a name
// that matches nothing installed is reported as missing.
func TestEnabledPluginsProposeInstalledExtensions(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	t.Setenv(storage.HomeEnv, home)
	db, err := storage.Open(ctx, filepath.Join(home, "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := gittest.Serve(t, map[string]*gittest.Repo{
		"alpha": gittest.Single(t, gittest.Plugin("alpha", "", true)),
		"beta":  gittest.Single(t, gittest.Plugin("beta", "", true))})
	m, err := extensions.NewManager(ctx, db, filepath.Join(home, "extensions"), extensions.WithHTTPClient(srv.Client))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alpha", "beta"} {
		if _, err := m.Install(ctx, srv.URL+"/"+name+".git", "", nil); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRegistry(m, db, filepath.Join(home, "data"), nil)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, dir, ".claude/settings.json", `{"enabledPlugins": {"alpha@market": true, "beta@market": true, "gamma@x": true},
		"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, 0o644)
	write(t, dir, ".claude/settings.local.json", `{"enabledPlugins": {"beta@market": false}}`, 0o644)
	if got := EnabledPlugins(dir); !slices.Equal(got, []string{"alpha@market", "gamma@x"}) {
		t.Fatalf("EnabledPlugins = %q (the local file turns beta off)", got)
	}
	f, err := r.Folder(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := r.Propose(ctx, f); !p.Empty() {
		t.Fatalf("proposed before the folder is trusted: %+v", p)
	}
	if err := r.Trust(ctx, f); err != nil {
		t.Fatal(err)
	}
	f, _ = r.Folder(ctx, dir)
	p, err := r.Propose(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Extensions) != 1 || p.Extensions[0].ID != "alpha" || !slices.Equal(p.Missing, []string{"gamma@x"}) {
		t.Fatalf("proposal %+v", p)
	}
	if info, _ := m.Show(ctx, "alpha"); info.Enabled {
		t.Fatal("a proposal enabled the extension")
	}
	tr, _ := m.TrustPrompt(ctx, "alpha")
	if _, err := m.EnableIn(ctx, "alpha", tr.Hash, dir); err != nil {
		t.Fatal(err)
	}
	if p, _ := r.Propose(ctx, f); len(p.Extensions) != 0 {
		t.Fatalf("still proposed once enabled in the folder: %+v", p.Extensions)
	}
}
