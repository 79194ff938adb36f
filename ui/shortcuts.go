package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// binding is one line of the Keyboard shortcuts sheet. Those with a
// shortcut are also registered on the main window, so the sheet and the
// window cannot disagree; the others are handled where they act (the
// composer, the dialogs) and only listed.
type binding struct {
	keys     string
	what     string
	shortcut fyne.Shortcut
	run      func()
}

// ctrl is Ctrl+key (Cmd+key on macOS).
func ctrl(key fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
}

func (c *chatView) bindings() []binding {
	mod := shortcutName()
	return []binding{
		{mod + "+N", "New session", ctrl(fyne.KeyN), c.onNewSession},
		{mod + "+,", "Preferences", ctrl(fyne.KeyComma), func() { c.u.ShowPreferences(sectionProviders) }},
		{mod + "+W", "Close the window", ctrl(fyne.KeyW), c.u.main.Close},
		{mod + "+F", "Find in this session (Enter: next, Shift+Enter: previous, Esc: close)", ctrl(fyne.KeyF), c.find.show},
		{mod + "+K", "Commands: the list of / commands (in an empty prompt box)", ctrl(fyne.KeyK), c.openCommandList},
		{mod + "+/ or F1", "This list of keyboard shortcuts", ctrl(fyne.KeySlash), c.showShortcuts},
		{"Enter", "Send the prompt (queued while a turn runs)", nil, nil},
		{"Shift+Enter", "New line in the prompt", nil, nil},
		{"Esc", "Stop the turn and its hooks", nil, nil},
		{"/ then Up, Down, Tab or Enter, Esc", "Commands: choose from the list, accept, close it", nil, nil},
		{"Tab, Shift+Tab", "Move the focus to the next, previous control", nil, nil},
		{mod + "+Enter", "Approval dialog: Allow once (no other key allows; keys wait 0.5 s)", nil, nil},
		{"Esc", "Approval dialog: Deny", nil, nil},
		{"Enter, Esc", "Other dialogs: the safe choice, Cancel", nil, nil},
	}
}

// installShortcuts registers the window's shortcuts; the composer passes
// them on, so they work while it has the focus (a focused entry gets
// shortcuts first and would swallow them).
func (c *chatView) installShortcuts() {
	canvas := c.u.main.Canvas()
	for _, b := range c.bindings() {
		if b.shortcut == nil {
			continue
		}
		run := b.run
		canvas.AddShortcut(b.shortcut, func(fyne.Shortcut) { run() })
		c.composer.passOn(b.shortcut)
		c.find.entry.window.add(b.shortcut)
	}
	canvas.SetOnTypedKey(func(k *fyne.KeyEvent) {
		switch k.Name {
		case fyne.KeyEscape:
			c.onStop()
		case fyne.KeyF1:
			c.showShortcuts()
		}
	})
}

// showShortcuts shows the Keyboard shortcuts sheet.
func (c *chatView) showShortcuts() {
	rows := container.New(layout.NewFormLayout())
	for _, b := range c.bindings() {
		rows.Add(&widget.Label{Text: b.keys, TextStyle: fyne.TextStyle{Bold: true}})
		rows.Add(&widget.Label{Text: b.what, Wrapping: fyne.TextWrapWord})
	}
	d := dialog.NewCustom("Keyboard shortcuts", "Close", rows, c.u.main)
	dialogKeys(c.u.main, d, d.Hide)
	d.Resize(fyne.NewSize(620, 0))
	d.Show()
}

// openCommandList is Ctrl/Cmd+K: the composer with its list of commands.
// A draft in the composer is never replaced: then it only takes the
// focus.
func (c *chatView) openCommandList() {
	if strings.TrimSpace(c.composer.Text) == "" {
		c.composer.SetText("/")
		c.composer.CursorColumn = 1
	}
	c.u.main.Canvas().Focus(c.composer)
}
