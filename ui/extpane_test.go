package ui

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/servers"
)

func demoPlugin(timeout string) map[string]gittest.File {
	return map[string]gittest.File{
		".codex-plugin/plugin.json":  {Body: `{"name":"demo","version":"1.2.0","description":"Demo extension","interface":{"displayName":"Demo"},"mcpServers":{"docs":{"type":"http","url":""}}}`},
		"hooks/hooks.json":           {Body: `{"hooks":{"SessionStart":[{"matcher":"startup|resume","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/start.sh --mode full","timeout":` + timeout + `}]}]}}`},
		"hooks/start.sh":             {Body: "#!/bin/sh\necho demo context\n", Mode: 0o755},
		"skills/demo-skill/SKILL.md": {Body: "---\nname: demo-skill\ndescription: Demo skill\n---\n"},
		"commands/demo-review.md":    {Body: "---\ndescription: Review with Demo\nargument-hint: [file]\n---\nReview $1.\n"},
	}
}

type paneEnv struct {
	*harness
	repo   *gittest.Repo
	server *gittest.Server
	pane   *extensionsPane
	win    fyne.Window
}

func newPaneEnv(t *testing.T, extra map[string]*gittest.Repo, client *http.Client) *paneEnv {
	t.Helper()
	return newPaneEnvMCP(t, extra, client, servers.MCPConfig{})
}

// newPaneEnvMCP is newPaneEnv with the MCP host configured by mcp.
func newPaneEnvMCP(t *testing.T, extra map[string]*gittest.Repo, client *http.Client, mcp servers.MCPConfig) *paneEnv {
	t.Helper()
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", demoPlugin("5"))
	r.SetHEAD(t, "main")
	repos := map[string]*gittest.Repo{"demo": r}
	for k, v := range extra {
		repos[k] = v
	}
	server := gittest.Serve(t, repos)
	if client == nil {
		client = server.Client
	}
	h := newHarness(t, harnessOptions{managerOpts: []extensions.Option{extensions.WithHTTPClient(client)}, mcp: mcp})
	u := h.open(false)
	u.ShowPreferences(sectionExtensions)
	p := &paneEnv{harness: h, repo: r, server: server, pane: u.prefs.ext, win: u.prefs.win}
	h.loop.waitFor(t, "the pane", func() bool { return strings.Contains(p.text(), "No extensions installed yet") })
	return p
}

func (p *paneEnv) text() string {
	p.loop.runQueued()
	return windowText(p.win)
}

func (p *paneEnv) waitText(what string) {
	p.t.Helper()
	p.loop.waitFor(p.t, what, func() bool { return strings.Contains(windowText(p.win), what) })
}

func (p *paneEnv) tap(text string) {
	p.t.Helper()
	var b *widget.Button
	if ov := topOverlay(p.win); ov != nil { // a dialog's buttons first
		b = findButton(ov, text)
	}
	if b == nil {
		b = findButton(p.win.Content(), text)
	}
	if b == nil {
		p.t.Fatalf("no button %q in:\n%s", text, windowText(p.win))
	}
	test.Tap(b)
}

func (p *paneEnv) install(url string) {
	p.pane.url.SetText(url)
	p.tap("Install")
}

func TestPaneLifecycle(t *testing.T) {
	p := newPaneEnv(t, nil, nil)
	ctx := t.Context()

	p.install(p.server.URL + "/demo.git")
	p.waitText("Review and enable")
	text := p.text()
	for _, want := range []string{"Demo", "1.2.0", "Disabled", "1 hook · 1 MCP server · 1 skill", "Installed Demo 1.2.0"} {
		if !strings.Contains(text, want) {
			t.Errorf("card lacks %q:\n%s", want, text)
		}
	}
	p.waitText(`docs — will not start: no URL (the plugin ships "url": "" as a placeholder)`)
	p.waitText("MCP server \"docs\" (.codex-plugin/plugin.json): no URL") // a new card opens its details
	if !strings.Contains(p.text(), "${CLAUDE_PLUGIN_ROOT}/hooks/start.sh --mode full") || !strings.Contains(p.text(), "demo-skill") {
		t.Fatalf("details lack hooks or skills:\n%s", p.text())
	}

	// Trust dialog: warning, exact argv, Enable.
	p.tap("Review and enable")
	p.waitText("Enable Demo?")
	dlg := allText(topOverlay(p.win))
	if !strings.Contains(dlg, extensions.TrustWarning) || !strings.Contains(dlg, "SessionStart  [startup|resume]  timeout 5s") ||
		!strings.Contains(dlg, "${CLAUDE_PLUGIN_ROOT}/hooks/start.sh --mode full") ||
		!strings.Contains(dlg, "Slash commands it adds") || !strings.Contains(dlg, "/demo-review [file] — Review with Demo") {
		t.Fatalf("trust dialog:\n%s", dlg)
	}
	p.tap("Enable")
	p.waitText("Enabled, active from the next prompt: 1 hook")
	p.waitText("What the model is told: ") // the catalog's size against the budget
	if !strings.Contains(p.text(), "KB of 13.1 KB (10% of a 32768-token window)") {
		t.Errorf("catalog size line:\n%s", p.text())
	}
	if info, _ := p.exts.Show(ctx, "demo"); info.Status != extensions.StatusEnabled {
		t.Fatalf("status = %s", info.Status)
	}

	// An update that changes the hook: Needs review, with the diff.
	p.repo.Commit(t, "main", "v2", demoPlugin("9"))
	p.tap("Update")
	p.waitText("Needs review")
	if !strings.Contains(p.text(), "Hooks: ~ SessionStart") {
		t.Fatalf("update summary lacks the hook change:\n%s", p.text())
	}
	p.tap("Review and enable")
	p.waitText("What changed since you last trusted it")
	if dlg := allText(topOverlay(p.win)); !strings.Contains(dlg, "(timeout 5s)  →  ") || !strings.Contains(dlg, "(timeout 9s)") {
		t.Fatalf("diff not shown:\n%s", dlg)
	}
	p.tap("Cancel")

	// Rollback to the trusted version: enabled again.
	p.tap("Rollback")
	p.waitText("Roll back Demo?")
	if b := findButton(topOverlay(p.win), "Roll back"); b == nil || b.Importance != widget.DangerImportance {
		t.Error("the rollback confirmation is not marked as destructive")
	}
	p.tap("Roll back")
	p.waitText("Rolled back to")
	if info, _ := p.exts.Show(ctx, "demo"); info.Status != extensions.StatusEnabled || info.PreviousCommit == "" {
		t.Fatalf("after rollback: %s", info.Status)
	}

	// Uninstall names what it deletes, then the card and files are gone.
	info, _ := p.exts.Show(ctx, "demo")
	os.MkdirAll(info.DataDir, 0o700)
	p.tap("Uninstall")
	p.waitText("its data folder: " + info.DataDir)
	if !strings.Contains(allText(topOverlay(p.win)), info.Dir) {
		t.Fatal("the confirmation must name the package folder")
	}
	p.tap("Uninstall")
	p.waitText("No extensions installed yet")
	for _, dir := range []string{info.Dir, info.DataDir} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s still exists", dir)
		}
	}
}

func TestPaneRefusesNonHTTPSAndHostileRepositories(t *testing.T) {
	hostile := gittest.NewRepo(t)
	hostile.Commit(t, "main", "evil", map[string]gittest.File{
		".codex-plugin/plugin.json": {Body: `{"name":"evil"}`},
		"link":                      {Symlink: "/etc/passwd"},
	})
	hostile.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"evil": hostile}, nil)
	p.pane.url.SetText("http://example.com/x.git")
	p.waitText("only https:// URLs are supported")
	p.tap("Install")
	if p.pane.cancel != nil {
		t.Fatal("a non-HTTPS install started")
	}
	p.install(p.server.URL + "/evil.git")
	p.waitText("/etc/passwd")
	if list, _ := p.exts.List(t.Context()); len(list) != 0 {
		t.Fatalf("hostile repository installed: %+v", list)
	}
	if !strings.Contains(p.text(), "No extensions installed yet") {
		t.Fatal("a card appeared for a refused install")
	}
}

// gate blocks git requests until released, so a test can cancel an
// install while it is certainly under way.
type gate struct {
	next    http.RoundTripper
	started chan struct{}
	release chan struct{}
}

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	select {
	case g.started <- struct{}{}:
	default:
	}
	select {
	case <-g.release:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	return g.next.RoundTrip(r)
}

func TestPaneCancelInstallLeavesNothing(t *testing.T) {
	g := &gate{started: make(chan struct{}, 1), release: make(chan struct{})}
	client := &http.Client{Transport: g}
	p := newPaneEnv(t, nil, client)
	g.next = p.server.Client.Transport
	p.install(p.server.URL + "/demo.git")
	<-g.started
	if p.pane.cancelBtn.Hidden {
		t.Fatal("no Cancel button while installing")
	}
	p.tap("Cancel")
	p.waitText("Install cancelled; nothing was installed.")
	close(g.release)
	if list, _ := p.exts.List(t.Context()); len(list) != 0 {
		t.Fatalf("installed despite cancel: %+v", list)
	}
	entries, _ := os.ReadDir(p.paths.Extensions() + "/staging")
	for _, e := range entries {
		t.Errorf("staging left: %s", e.Name())
	}
}

func TestPaneChecksForUpdatesWithoutInstalling(t *testing.T) {
	p := newPaneEnv(t, nil, nil)
	p.install(p.server.URL + "/demo.git")
	p.waitText("Review and enable")
	first := p.pane.infos[0].Commit

	p.tap("Check for updates")
	p.waitText("No updates available.")
	p.waitText("Up to date.")

	second := p.repo.Commit(t, "main", "v2", demoPlugin("9"))
	p.tap("Check for updates")
	p.waitText("1 update available")
	p.waitText("Update available: " + extensions.ShortCommit(first) + " (in use since " + time.Now().Format("2 Jan 2006") + ") → " +
		extensions.ShortCommit(second) + ", the newest commit on the default branch.")
	if b := findButton(p.win.Content(), "Update"); b == nil || b.Importance != widget.HighImportance {
		t.Error("with an update available, Update must be the prominent button")
	}
	if info, _ := p.exts.Show(t.Context(), "demo"); info.Commit != first {
		t.Fatal("checking installed the update")
	}

	// The update answers the check: its line goes away, and the summary
	// is recounted.
	p.tap("Update")
	p.waitText("Updated " + extensions.ShortCommit(first) + " → " + extensions.ShortCommit(second))
	if strings.Contains(p.text(), "Update available") || strings.Contains(p.text(), "1 update available") {
		t.Fatalf("the stale check is still shown:\n%s", p.text())
	}

	// A remote that refuses is reported on the card, in place.
	p.server.RequireAuth("demo")
	p.tap("Check for updates")
	p.waitText("Could not check for updates: ")
	p.waitText("1 of 1 could not be checked")
}

// TestPaneUpdateCountFollowsUninstall: "1 update available" goes when the
// extension it was about is uninstalled.
func TestPaneUpdateCountFollowsUninstall(t *testing.T) {
	p := newPaneEnv(t, nil, nil)
	p.install(p.server.URL + "/demo.git")
	p.waitText("Review and enable")
	p.repo.Commit(t, "main", "v2", demoPlugin("9"))
	p.tap("Check for updates")
	p.waitText("1 update available")

	p.tap("Uninstall")
	p.waitText("Uninstall Demo?")
	p.tap("Uninstall")
	p.waitText("No extensions installed yet")
	if text := p.text(); strings.Contains(text, "update available") || strings.Contains(text, "updates available") {
		t.Fatalf("after the uninstall the pane still counts its update:\n%s", text)
	}
}

// TestPaneToggleFollowsTheStatus: ticking Enabled on a disabled extension
// asks for trust; meanwhile, and after Cancel, the toggle stays off beside
// the Disabled badge.
func TestPaneToggleFollowsTheStatus(t *testing.T) {
	p := newPaneEnv(t, nil, nil)
	p.install(p.server.URL + "/demo.git")
	p.waitText("Review and enable")
	test.Tap(p.toggle())
	p.waitText("Enable Demo?")
	if p.toggle().Checked || !strings.Contains(allText(p.win.Content()), "Disabled") {
		t.Fatal("while trust is asked the toggle is on beside the Disabled badge")
	}
	p.tap("Cancel")
	if p.toggle().Checked {
		t.Fatal("after Cancel the toggle is on")
	}
}

// toggle is the (only) card's Enabled toggle.
func (p *paneEnv) toggle() *widget.Check {
	var found *widget.Check
	walk(p.win.Content(), func(o fyne.CanvasObject) {
		if c, ok := o.(*widget.Check); ok && c.Text == "Enabled" {
			found = c
		}
	})
	if found == nil {
		p.t.Fatal("no Enabled toggle")
	}
	return found
}
