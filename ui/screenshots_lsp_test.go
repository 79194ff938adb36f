//go:build screenshots

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestScreenshotLSPRow renders a write's tool row with the diagnostics
// its language server published: docs/screenshots/lsp-diagnostics.png.
func TestScreenshotLSPRow(t *testing.T) {
	_, u := lspRowSession(t)
	u.chat.projectBtn.SetText("project: ~/src/tiny") // not the test's temporary folder
	capture(t, u.main, "lsp-diagnostics.png")
}

// TestScreenshotLSPCard renders the card of an extension with two
// language servers once a Go file started the real gopls and a Python
// file found pyright missing: docs/screenshots/lsp-card.png.
func TestScreenshotLSPCard(t *testing.T) {
	gopls, err := filepath.Abs(filepath.Join("..", "bin", "gopls"))
	if _, serr := os.Stat(gopls); err != nil || serr != nil {
		t.Skip("bin/gopls not installed: run make test")
	}
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"code-intel","version":"1.0.0","description":"Go and Python language servers."}`},
		".lsp.json": {Body: `{"gopls":{"command":"` + gopls + `","extensionToLanguage":{".go":"go"}},
			"pyright":{"command":"pyright-langserver","args":["--stdio"],"extensionToLanguage":{".py":"python",".pyi":"python"}}}`},
	})
	r.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"code-intel": r}, nil)
	p.win.Resize(fyne.NewSize(1000, 760))
	p.install(p.server.URL + "/code-intel.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Enable code-intel?")
	p.tap("Enable")
	p.loop.waitFor(t, "the enable", func() bool {
		text := p.text()
		return !strings.Contains(text, "Working…") && !strings.Contains(text, "Review and enable")
	})
	for name, text := range map[string]string{"go.mod": "module example.com/tiny\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n", "app.py": "print(1)\n"} {
		os.WriteFile(filepath.Join(p.project, name), []byte(text), 0o644)
	}
	t.Log(p.disp.FileWritten(t.Context(), p.project, filepath.Join(p.project, "main.go"), "package main\n\nfunc main() {}\n"))
	p.disp.FileWritten(t.Context(), p.project, filepath.Join(p.project, "app.py"), "print(1)\n")
	p.pane.reload()
	p.waitText("failed")
	p.relayout(p.win)
	p.loop.runQueued()
	capture(t, p.win, "lsp-card.png")
}
