//go:build screenshots

package ui

import (
	"os"

	"fyne.io/fyne/v2"
	"path/filepath"
	"testing"
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
