//go:build screenshots

package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// TestScreenshotPerProject renders the card of an extension enabled in
// this project and one other, with its MCP tools unfolded and one
// switched off: docs/screenshots/ext-per-project.png.
func TestScreenshotPerProject(t *testing.T) {
	p := newScopeEnv(t)
	t.Setenv("HOME", filepath.Dir(p.project)) // the folders read ~/project and ~/src/webshop
	other := filepath.Join(filepath.Dir(p.project), "src", "webshop")
	os.MkdirAll(other, 0o755)
	r := p.radio()
	r.SetSelected(r.Options[1])
	p.waitText("Enabled in: only these projects (1)")
	if _, err := p.exts.AddProject(t.Context(), "notes", other); err != nil {
		t.Fatal(err)
	}
	if err := p.exts.SetToolOff(t.Context(), "notes", "search", "delete", true); err != nil {
		t.Fatal(err)
	}
	p.pane.reload()
	p.waitText("Tools of search: 3, 1 switched off")
	p.tap("Tools of search")
	p.waitText("upload")
	p.win.Resize(fyne.NewSize(1000, 1000))
	p.relayout(p.win)
	p.loop.runQueued()
	capture(t, p.win, "ext-per-project.png")
}

// TestScreenshotPluginProposal renders the bar above the composer for a
// folder whose .claude/settings.json enabledPlugins names two installed
// extensions: docs/screenshots/ext-project-asks.png.
func TestScreenshotPluginProposal(t *testing.T) {
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
	u.d.Projects = project.NewRegistry(h.exts, h.db, h.paths.Extensions(), nil)
	u.main.Resize(fyne.NewSize(1100, 760))
	u.chat.projectBtn.SetText("project: ~/src/shop")
	u.chat.trust.check(u.chat.project.Path)
	h.loop.waitFor(t, "the proposal", func() bool { return u.chat.trust.box.Visible() })
	h.relayout(u.main)
	capture(t, u.main, "ext-project-asks.png")
}
