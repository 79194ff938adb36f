package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/extensions"
)

// sandboxRow says on an enabled card whether what the extension runs
// (hooks, MCP and LSP servers) is confined, with the one switch that
// changes it: "Run unconfined…", which asks first, or "Confine again".
// Nothing is shown for an extension that runs nothing, or where there
// is no sandbox (Preferences → Advanced says why).
func (p *extensionsPane) sandboxRow(info extensions.Info, st *cardState) fyne.CanvasObject {
	if info.Status != extensions.StatusEnabled || !runsChildren(info) {
		return nil
	}
	if confined, _ := childproc.SandboxStatus(); !confined {
		return nil
	}
	text := &widget.Label{Text: "Confined: its hooks and servers cannot read your credentials (~/.ssh, ~/.aws, the keyring…) or AgentDesk's data, and write only the project and its data folder.",
		Wrapping: fyne.TextWrapWord, Importance: widget.LowImportance}
	button := &widget.Button{Text: "Run unconfined…", Importance: widget.LowImportance, OnTapped: func() { p.onUnconfine(info) }}
	if info.Unconfined {
		text.Text = "⚠ Runs unconfined, as you chose: its hooks and servers have your full access, credentials included, until you confine it again or its hooks or servers change."
		text.Importance = widget.WarningImportance
		button = &widget.Button{Text: "Confine again", OnTapped: func() { p.setUnconfined(info, false) }}
	}
	if st.busy {
		button.Disable()
	}
	return container.NewBorder(nil, nil, nil, container.NewVBox(button), text)
}

// runsChildren: the extension starts processes the sandbox confines.
func runsChildren(info extensions.Info) bool {
	for _, h := range info.Hooks {
		if h.Inactive == "" {
			return true
		}
	}
	return len(info.MCPServers) > 0 || len(info.LSPServers) > 0
}

// onUnconfine asks before lifting the sandbox; the safe choice is the
// default.
func (p *extensionsPane) onUnconfine(info extensions.Info) {
	msg := "Its hooks, MCP servers and LSP servers will run with your full access: they can read your SSH keys, cloud credentials " +
		"and browser profiles, AgentDesk's database, and write anywhere in your home folder.\n\n" +
		"Do this only for an extension you would run as a program of your own. What runs of it now restarts; " +
		"the choice holds until you confine it again, or until an update changes what it runs."
	d := dialog.NewConfirm("Run "+info.Name+" unconfined?", msg, func(ok bool) {
		if ok {
			p.setUnconfined(info, true)
		}
	}, p.window())
	d.SetConfirmText("Run unconfined")
	d.SetDismissText("Cancel")
	d.SetConfirmImportance(widget.DangerImportance)
	dialogKeys(p.window(), d, d.Dismiss)
	d.Show()
	if p.onTrust != nil {
		p.onTrust(d)
	}
}

func (p *extensionsPane) setUnconfined(info extensions.Info, on bool) {
	p.run(info.ID, func(ctx context.Context) (string, error) {
		_, err := p.u.d.Extensions.SetUnconfined(ctx, info.ID, on)
		if on {
			return "Runs unconfined from now on; what ran of it was stopped and starts again when needed.", err
		}
		return "Confined again; what ran of it was stopped and starts again, confined, when needed.", err
	})
}
