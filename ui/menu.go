package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// mainMenu is the window's menu bar: File, Edit, View, Help. Fyne adds
// Quit to the first menu. The keys are listed in Help › Keyboard
// shortcuts; they are not set on the items, which would register them a
// second time.
func (u *UI) mainMenu() *fyne.MainMenu {
	c := u.chat
	file := fyne.NewMenu("File",
		fyne.NewMenuItem("New Session", c.onNewSession),
		fyne.NewMenuItem("Open Folder…", c.onOpenFolder),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Preferences…", func() { u.ShowPreferences(sectionProviders) }),
	)
	edit := fyne.NewMenu("Edit",
		fyne.NewMenuItem("Cut", func() { u.toFocused(&fyne.ShortcutCut{Clipboard: u.d.App.Clipboard()}) }),
		fyne.NewMenuItem("Copy", func() { u.toFocused(&fyne.ShortcutCopy{Clipboard: u.d.App.Clipboard()}) }),
		fyne.NewMenuItem("Paste", func() { u.toFocused(&fyne.ShortcutPaste{Clipboard: u.d.App.Clipboard()}) }),
		fyne.NewMenuItem("Select All", func() { u.toFocused(&fyne.ShortcutSelectAll{}) }),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Find…", c.find.show),
	)
	view := fyne.NewMenu("View", u.appearanceItem())
	help := fyne.NewMenu("Help",
		fyne.NewMenuItem("Keyboard Shortcuts", c.showShortcuts),
		fyne.NewMenuItem("About AgentDesk", u.showAbout),
	)
	return fyne.NewMainMenu(file, edit, view, help)
}

// appearanceItem is View › Appearance: the system's, light or dark.
func (u *UI) appearanceItem() *fyne.MenuItem {
	choice := func(label, value string) *fyne.MenuItem {
		item := fyne.NewMenuItem(label, func() { u.setAppearance(value) })
		item.Checked = u.appearance == value
		return item
	}
	item := fyne.NewMenuItem("Appearance", nil)
	item.ChildMenu = fyne.NewMenu("", choice("As the System", ""), choice("Light", "light"), choice("Dark", "dark"))
	return item
}

// toFocused hands an edit shortcut to the focused widget (the composer,
// selected message text, a field).
func (u *UI) toFocused(s fyne.Shortcut) {
	if f, ok := u.main.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
	}
}

// showAbout is Help › About: the version and the licences of the
// libraries AgentDesk is built with.
func (u *UI) showAbout() {
	version := u.d.App.Metadata().Version
	if version == "" {
		version = "development build"
	}
	var lines []string
	for _, l := range licences {
		lines = append(lines, fmt.Sprintf("%s — %s", l.module, l.licence))
	}
	content := container.NewVBox(
		widget.NewLabelWithStyle(Title+" "+version, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		&widget.Label{Text: "A desktop app for AI coding agents that work in your project folder, with every edit and command waiting for your approval.", Wrapping: fyne.TextWrapWord},
		widget.NewLabelWithStyle("Built with these libraries, under their licences", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		newSecondaryLabel(strings.Join(lines, "\n"), fyne.TextWrapBreak),
		newSecondaryLabel("Each library's licence text is in its source at the version go.mod names.", fyne.TextWrapWord),
	)
	d := dialog.NewCustom("About "+Title, "Close", content, u.main)
	d.Resize(fyne.NewSize(560, 520))
	dialogKeys(u.main, d, d.Dismiss)
	d.Show()
}
