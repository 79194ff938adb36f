package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

func TestPaneListsAMarketplacesPluginsAndInstallsThePickedOne(t *testing.T) {
	market := gittest.NewRepo(t)
	files := map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name":"team-tools","plugins":[
			{"name":"demo","description":"Demo extension","version":"1.2.0","source":"./plugins/demo"},
			{"name":"lint","description":"Lint on save","source":"./plugins/lint"},
			{"name":"from-npm","source":{"source":"npm","package":"x"}}]}`},
		"plugins/lint/.claude-plugin/plugin.json": {Body: `{"name":"lint","version":"0.3.0"}`},
	}
	for name, f := range demoPlugin("5") {
		files["plugins/demo/"+name] = f
	}
	market.Commit(t, "main", "m", files)
	market.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"market": market}, nil)
	p.install(p.server.URL + "/market.git")
	p.loop.waitFor(t, "the plugin picker", func() bool { return p.pane.picker != nil })

	text := allText(p.win.Canvas().Overlays().Top())
	for _, want := range []string{"team-tools", "demo 1.2.0", "Demo extension", "lint", "Lint on save", "from-npm", "Cannot be installed"} {
		if !strings.Contains(text, want) {
			t.Errorf("the picker lacks %q:\n%s", want, text)
		}
	}
	overlay := p.win.Canvas().Overlays().Top()
	walk(overlay, func(o fyne.CanvasObject) {
		if c, ok := o.(*widget.Check); ok {
			if c.Text == "from-npm" && !c.Disabled() {
				t.Error("an npm entry must not be pickable")
			}
			if c.Text == "demo 1.2.0" {
				test.Tap(c)
			}
		}
	})
	press(p.win, fyne.KeyReturn) // the dialog's Enter: install the picked ones
	p.waitText("Installed Demo 1.2.0")
	if got := p.text(); strings.Contains(got, "lint 0.3.0") {
		t.Errorf("an unpicked plugin was installed:\n%s", got)
	}
}

func TestPaneInstallsManyPickedPluginsAndNamesTheOneThatFailed(t *testing.T) {
	market := gittest.NewRepo(t)
	files := map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name":"team-tools","plugins":[
			{"name":"demo","version":"1.2.0","source":"./plugins/demo"},
			{"name":"broken","source":"./plugins/broken"},
			{"name":"lint","source":"./plugins/lint"}]}`},
		"plugins/lint/.claude-plugin/plugin.json":   {Body: `{"name":"lint","version":"0.3.0"}`},
		"plugins/broken/.claude-plugin/plugin.json": {Body: `{"name":`},
	}
	for name, f := range demoPlugin("5") {
		files["plugins/demo/"+name] = f
	}
	market.Commit(t, "main", "m", files)
	market.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"market": market}, nil)
	p.install(p.server.URL + "/market.git")
	p.loop.waitFor(t, "the plugin picker", func() bool { return p.pane.picker != nil })
	requests := p.server.Requests()
	walk(p.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if c, ok := o.(*widget.Check); ok {
			test.Tap(c)
		}
	})
	press(p.win, fyne.KeyReturn)
	p.waitText("1 could not be installed: broken:")
	if got := p.text(); !strings.Contains(got, "Installed Demo 1.2.0, lint 0.3.0.") {
		t.Errorf("the two good plugins are not reported installed:\n%s", got)
	}
	if n := p.server.Requests() - requests; n > 3 {
		t.Errorf("three plugins of one marketplace took %d requests: more than one download", n)
	}
}
