package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

func TestTrustDialogAsksForSettingsAndTheCardEditsThem(t *testing.T) {
	keyring.MockInit()
	r := gittest.NewRepo(t)
	files := demoPlugin("5")
	files[".codex-plugin/plugin.json"] = gittest.File{Body: `{"name":"demo","version":"1.2.0","interface":{"displayName":"Demo"},
		"userConfig":{"api_token":{"title":"API token","sensitive":true,"required":true},"region":{"title":"Region","default":"eu"}}}`}
	r.Commit(t, "main", "v1", files)
	r.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"opts": r}, nil)
	p.install(p.server.URL + "/opts.git")
	p.waitText("Review and enable")
	p.tap("Review and enable")
	p.waitText("Settings it asks for")

	var token *widget.Entry
	walk(topOverlay(p.win), func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && e.Password {
			token = e
		}
	})
	if token == nil {
		t.Fatalf("the trust dialog has no masked field for the token:\n%s", allText(topOverlay(p.win)))
	}
	test.Type(token, "tok-123")
	p.tap("Enable")
	p.waitText("Enabled, active from the next prompt: 1 hook")
	info, _ := p.exts.Show(t.Context(), "demo")
	if info.Status != extensions.StatusEnabled || !info.Options[0].Set || info.Options[1].Value != "eu" {
		t.Fatalf("after enabling: %s %+v", info.Status, info.Options)
	}
	if strings.Contains(p.text(), "tok-123") {
		t.Fatal("the token is shown on the card")
	}

	p.tap("Settings…")
	p.waitText("Demo settings")
	press(p.win, fyne.KeyEscape) // Esc cancels the Settings dialog
	if topOverlay(p.win) != nil {
		t.Fatal("Esc left the Settings dialog open")
	}
	p.tap("Settings…")
	p.waitText("Demo settings")
	walk(topOverlay(p.win), func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && !e.Password {
			e.SetText("us")
		}
	})
	p.tap("Save")
	p.waitText("Settings saved.")
	if info, _ := p.exts.Show(t.Context(), "demo"); info.Options[1].Value != "us" || !info.Options[0].Set {
		t.Fatalf("after Settings: %+v", info.Options)
	}
}
