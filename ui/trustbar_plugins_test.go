package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// A folder whose .claude/settings.json enabledPlugins names installed
// extensions: the bar says so and enables nothing; "Enable in this
// project" enables the one that needs no trust prompt in this folder
// only, and opens the trust dialog of the one that does with "Only in
// this project" checked; after it the bar has nothing left to offer.
func TestTrustBarProposesEnabledPlugins(t *testing.T) {
	server := gittest.Serve(t, map[string]*gittest.Repo{"notes": notesPlugin(t), "plain": gittest.Single(t, gittest.Plugin("plain", "", true))})
	h := newHarness(t, harnessOptions{managerOpts: []extensions.Option{extensions.WithHTTPClient(server.Client)}})
	for _, name := range []string{"notes", "plain"} {
		if _, err := h.exts.Install(t.Context(), server.URL+"/"+name+".git", "", nil); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(h.project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(h.project, ".claude", "settings.json"), []byte(`{"enabledPlugins": {"notes@team": true, "plain@team": true}}`), 0o644)
	u := h.open(true)
	here := u.chat.project.Path
	u.d.Projects = project.NewRegistry(h.exts, h.db, h.paths.Extensions(), nil)
	bar := u.chat.trust
	bar.check(here)
	h.loop.waitFor(t, "the proposal", func() bool { return bar.checks > 0 })
	if !bar.box.Visible() || !strings.Contains(bar.text.Text, "This project asks for plugins Team Notes, plain") || !bar.enableHere.Visible() {
		t.Fatalf("bar visible %v: %q", bar.box.Visible(), bar.text.Text)
	}
	for _, id := range []string{"notes", "plain"} {
		if info, _ := h.exts.Show(t.Context(), id); info.Enabled {
			t.Fatalf("the proposal enabled %s", id)
		}
	}
	before := bar.checks
	test.Tap(bar.enableHere)
	h.loop.waitFor(t, "the trust dialog", func() bool {
		return u.prefs != nil && strings.Contains(windowText(u.prefs.win), "Enable Team Notes?")
	})
	if info, _ := h.exts.Show(t.Context(), "plain"); !info.Enabled || !slices.Equal(info.EnabledProjects, []string{here}) {
		t.Fatalf("plain: enabled %v in %q, want only here", info.Enabled, info.EnabledProjects)
	}
	p := &paneEnv{harness: h, pane: u.prefs.ext, win: u.prefs.win}
	if !strings.Contains(windowText(p.win), "Only in this project") {
		t.Fatalf("the trust dialog does not offer this project:\n%s", windowText(p.win))
	}
	p.tap("Enable")
	h.loop.waitFor(t, "notes enabled", func() bool {
		info, _ := h.exts.Show(t.Context(), "notes")
		return info.Enabled
	})
	if info, _ := h.exts.Show(t.Context(), "notes"); !slices.Equal(info.EnabledProjects, []string{here}) {
		t.Fatalf("notes enabled in %q, want only here", info.EnabledProjects)
	}
	bar.check(here)
	h.loop.waitFor(t, "a check", func() bool { return bar.checks > before+1 })
	if bar.box.Visible() {
		t.Errorf("the bar still offers: %q", bar.text.Text)
	}
}
