package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// notesPlugin has one stdio MCP server (it never starts here) whose
// tools the test pins as if it had listed them after trust.
func notesPlugin(t *testing.T) *gittest.Repo {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"notes","version":"0.3.1","description":"Searches your team's notes.","interface":{"displayName":"Team Notes"}}`},
		".mcp.json":                  {Body: `{"mcpServers":{"search":{"command":"${CLAUDE_PLUGIN_ROOT}/server.sh"}}}`},
		"server.sh":                  {Body: "#!/bin/sh\nexit 1\n", Mode: 0o755},
	})
	r.SetHEAD(t, "main")
	return r
}

// newScopeEnv is the Agent Extensions pane with a project open in the
// window and Team Notes installed and enabled (everywhere), its server's
// tools search, upload and delete known.
func newScopeEnv(t *testing.T) *paneEnv {
	t.Helper()
	r := notesPlugin(t)
	server := gittest.Serve(t, map[string]*gittest.Repo{"notes": r})
	h := newHarness(t, harnessOptions{managerOpts: []extensions.Option{extensions.WithHTTPClient(server.Client)}})
	u := h.open(true)
	u.ShowPreferences(sectionExtensions)
	p := &paneEnv{harness: h, repo: r, server: server, pane: u.prefs.ext, win: u.prefs.win}
	p.win.Resize(fyne.NewSize(1000, 760))
	p.waitText("No extensions installed yet")
	p.install(server.URL + "/notes.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Enable Team Notes?")
	p.tap("Enable")
	p.waitText("Enabled in: everywhere")
	info, err := p.exts.Show(t.Context(), "notes")
	if err != nil {
		t.Fatal(err)
	}
	schema := json.RawMessage(`{"type":"object"}`)
	if _, err := p.exts.CheckMCPTools(t.Context(), "notes", info.Commit, "search", []extensions.ToolDef{
		{Name: "search", Description: "Searches.", Schema: schema}, {Name: "upload", Description: "Uploads.", Schema: schema},
		{Name: "delete", Description: "Deletes a note.", Schema: schema}}); err != nil {
		t.Fatal(err)
	}
	p.pane.reload()
	p.waitText("Tools of search: 3, all on")
	return p
}

// radio is the card's scope choice.
func (p *paneEnv) radio() *widget.RadioGroup {
	p.t.Helper()
	var found *widget.RadioGroup
	walk(p.win.Content(), func(o fyne.CanvasObject) {
		if r, ok := o.(*widget.RadioGroup); ok && found == nil {
			found = r
		}
	})
	if found == nil {
		p.t.Fatalf("no scope choice in:\n%s", p.text())
	}
	return found
}

func (p *paneEnv) check(text string) *widget.Check {
	p.t.Helper()
	var found *widget.Check
	walk(p.win.Content(), func(o fyne.CanvasObject) {
		if c, ok := o.(*widget.Check); ok && c.Text == text {
			found = c
		}
	})
	if found == nil {
		p.t.Fatalf("no switch %q in:\n%s", text, p.text())
	}
	return found
}

// The card's "Enabled in" choice: Only this project restricts the
// extension to the window's folder (the registry says so, and the card
// lists the folder with Remove), Everywhere widens it again, and
// removing the last project disables it.
func TestCardEnabledInThisProjectOnly(t *testing.T) {
	p := newScopeEnv(t)
	here := p.ui.chat.project.Path
	r := p.radio()
	if r.Selected != scopeEverywhere || len(r.Options) != 2 || !strings.HasPrefix(r.Options[1], scopeHere) {
		t.Fatalf("choice %q of %q", r.Selected, r.Options)
	}
	r.SetSelected(r.Options[1])
	p.waitText("Enabled in: only these projects (1)")
	if info, _ := p.exts.Show(t.Context(), "notes"); !slices.Equal(info.EnabledProjects, []string{here}) {
		t.Fatalf("enabled in %q, want [%s]", info.EnabledProjects, here)
	}
	if text := p.text(); !strings.Contains(text, tildePath(here)+"  (this project)") || findButton(p.win.Content(), "Remove") == nil {
		t.Fatalf("card does not list the project with Remove:\n%s", text)
	}

	p.radio().SetSelected(scopeEverywhere)
	p.waitText("Enabled in: everywhere")
	if info, _ := p.exts.Show(t.Context(), "notes"); len(info.EnabledProjects) != 0 || !info.Enabled {
		t.Fatalf("after Everywhere: enabled %v in %q", info.Enabled, info.EnabledProjects)
	}

	r = p.radio()
	r.SetSelected(r.Options[1])
	p.waitText("Enabled in: only these projects (1)")
	p.tap("Remove")
	p.waitText("was the last project it was enabled in")
	if info, _ := p.exts.Show(t.Context(), "notes"); info.Enabled {
		t.Fatal("removing the last project left it enabled")
	}
}

// Each MCP tool has its own switch on the card: off is kept in the
// registry (and never offered), on again clears it.
func TestCardToolSwitches(t *testing.T) {
	p := newScopeEnv(t)
	p.tap("Tools of search: 3, all on")
	p.check("delete").SetChecked(false)
	p.waitText("Tools of search: 3, 1 switched off")
	if info, _ := p.exts.Show(t.Context(), "notes"); !slices.Equal(info.MCPServers[0].ToolsOff, []string{"delete"}) {
		t.Fatalf("tools off %q", info.MCPServers[0].ToolsOff)
	}
	if p.check("delete").Checked || !p.check("search").Checked {
		t.Fatal("switches do not show the registry")
	}
	p.check("delete").SetChecked(true)
	p.waitText("Tools of search: 3, all on")
	if info, _ := p.exts.Show(t.Context(), "notes"); len(info.MCPServers[0].ToolsOff) != 0 {
		t.Fatalf("tools off after on: %q", info.MCPServers[0].ToolsOff)
	}
}

// Two projects in one home, in the window: enabled only in the first,
// the extension's card in the second offers Add this project and its
// skill is not in the second's catalog; adding it brings the skill.
func TestWindowTwoProjectsOneHome(t *testing.T) {
	r := gittest.Single(t, gittest.Plugin("plain", "", true))
	server := gittest.Serve(t, map[string]*gittest.Repo{"plain": r})
	h := newHarness(t, harnessOptions{managerOpts: []extensions.Option{extensions.WithHTTPClient(server.Client)}})
	if _, err := h.exts.Install(t.Context(), server.URL+"/plain.git", "", nil); err != nil {
		t.Fatal(err)
	}
	u := h.open(true)
	first := u.chat.project.Path
	tr, _ := h.exts.TrustPrompt(t.Context(), "plain")
	if _, err := h.exts.EnableIn(t.Context(), "plain", tr.Hash, first); err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(filepath.Dir(h.project), "second")
	os.MkdirAll(second, 0o755)
	u.chat.openFolder(second)
	h.loop.waitFor(t, "the second project", func() bool { return strings.HasSuffix(u.chat.project.Path, "second") })
	second = u.chat.project.Path
	hasSkill := func(dir string) bool {
		return slices.ContainsFunc(h.agent.Catalog(dir).Skills, func(s skills.Skill) bool { return s.Name == "plain-skill" })
	}
	if !hasSkill(first) || hasSkill(second) {
		t.Fatalf("skill in the first project %v, in the second %v: want only the first", hasSkill(first), hasSkill(second))
	}
	u.ShowPreferences(sectionExtensions)
	p := &paneEnv{harness: h, pane: u.prefs.ext, win: u.prefs.win}
	p.waitText("Add this project")
	if r := p.radio(); r.Selected != scopeChosen {
		t.Errorf("in the second project the choice is %q, want %q", r.Selected, scopeChosen)
	}
	p.tap("Add this project")
	p.waitText("Enabled in: only these projects (2)")
	if !hasSkill(second) {
		t.Error("added to the second project, its skill is still not in its catalog")
	}
}

// Preferences opened before the window's folder (agentdesk --preferences
// with a start folder, or a folder opened while Preferences is up): the
// card's choice follows the folder the window now has open.
func TestScopeFollowsTheFolderOpenedLater(t *testing.T) {
	r := notesPlugin(t)
	server := gittest.Serve(t, map[string]*gittest.Repo{"notes": r})
	h := newHarness(t, harnessOptions{managerOpts: []extensions.Option{extensions.WithHTTPClient(server.Client)}})
	u := h.open(false)
	u.ShowPreferences(sectionExtensions)
	p := &paneEnv{harness: h, repo: r, server: server, pane: u.prefs.ext, win: u.prefs.win}
	p.win.Resize(fyne.NewSize(1000, 760))
	p.waitText("No extensions installed yet")
	p.install(server.URL + "/notes.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Enable Team Notes?")
	p.tap("Enable")
	p.waitText("Enabled in: everywhere")
	if slices.Contains(p.radio().Options, scopeHere) {
		t.Fatalf("Only this project offered with no folder open: %q", p.radio().Options)
	}
	h.loop.do(func() { u.chat.openFolder(h.project) })
	h.loop.waitFor(t, "Only this project to be offered", func() bool { return slices.Contains(p.radio().Options, scopeHere) })
}
