package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
)

// pickPlugins shows a marketplace's plugins (name, version, description)
// to pick one or several; Install installs the picked ones, each disabled
// like any other install. Entries AgentDesk cannot install are listed
// with the reason and cannot be picked.
func (p *extensionsPane) pickPlugins(mkt *extensions.MarketplaceError, ref string) {
	picked := map[string]bool{}
	rows := container.NewVBox()
	for _, pl := range mkt.Marketplace.Plugins {
		check := &widget.Check{Text: pluginTitle(safetext.Strip(pl.Name), safetext.Strip(pl.Version)), OnChanged: func(on bool) { picked[pl.Name] = on }}
		desc := &widget.Label{Text: safetext.Strip(pl.Description), Wrapping: fyne.TextWrapWord}
		if pl.Unsupported != "" {
			check.Disable()
			desc.Text, desc.Importance = "Cannot be installed: "+safetext.Strip(pl.Unsupported), widget.WarningImportance
		}
		rows.Add(container.NewVBox(check, desc))
	}
	intro := &widget.Label{Wrapping: fyne.TextWrapWord, Text: fmt.Sprintf("%s is a marketplace. Pick the plugins to install; each stays disabled until you review it.", mkt.URL)}
	scroll := container.NewVScroll(rows)
	scroll.SetMinSize(fyne.NewSize(520, 320))
	d := dialog.NewCustomConfirm("Install from "+marketplaceName(mkt), "Install", "Cancel", container.NewBorder(intro, nil, nil, nil, scroll),
		func(ok bool) {
			if !ok {
				p.showInstallMessage("Nothing was installed.", false)
				return
			}
			p.installPicked(mkt, ref, picked)
		}, p.window())
	p.picker = d
	dialogKeys(p.window(), d, d.Confirm) // installing runs nothing: Enter installs what is picked
	d.Show()
}

func (p *extensionsPane) installPicked(mkt *extensions.MarketplaceError, ref string, picked map[string]bool) {
	var srcs []extensions.Source
	for _, pl := range mkt.Marketplace.Plugins { // in the marketplace's order
		if picked[pl.Name] {
			srcs = append(srcs, extensions.Source{URL: mkt.URL, Ref: ref, Plugin: pl.Name})
		}
	}
	if len(srcs) == 0 {
		p.showInstallMessage("No plugin was picked; nothing was installed.", false)
		return
	}
	p.startInstall(srcs)
}

func pluginTitle(name, version string) string {
	if version == "" {
		return name
	}
	return name + " " + version
}

func marketplaceName(mkt *extensions.MarketplaceError) string {
	if name := safetext.Strip(mkt.Marketplace.Name); name != "" {
		return name
	}
	return "the marketplace"
}
