package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// dialogKeys gives a dialog on win the keys of every dialog but the
// approval one: Enter runs safe (its safe choice: the harmless action, or
// Cancel where the action deletes, replaces or trusts), Esc cancels. The
// keys reach the window's canvas while nothing in the dialog has the
// focus; its previous handler comes back when the dialog closes.
func dialogKeys(win fyne.Window, d dialog.Dialog, safe func()) {
	canvas := win.Canvas()
	prev := canvas.OnTypedKey()
	canvas.SetOnTypedKey(func(k *fyne.KeyEvent) {
		switch k.Name {
		case fyne.KeyReturn, fyne.KeyEnter:
			safe()
		case fyne.KeyEscape:
			d.Dismiss()
		}
	})
	d.SetOnClosed(func() { canvas.SetOnTypedKey(prev) })
}

// dialogEntry is a one-line entry in a dialog: Enter submits, and Esc
// cancels as it does elsewhere in the dialog (a focused entry would
// otherwise swallow it).
type dialogEntry struct {
	widget.Entry
	onEsc func()
}

func newDialogEntry(text string) *dialogEntry {
	e := &dialogEntry{}
	e.Text = text
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey cancels on Esc.
func (e *dialogEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.onEsc != nil {
		e.onEsc()
		return
	}
	e.Entry.TypedKey(k)
}

// closeKeys makes Esc and Ctrl/Cmd+W run close, which closes a secondary
// window its own way (Preferences hides; Window.Close would skip that),
// while none of its text fields has the focus.
func closeKeys(win fyne.Window, close func()) {
	canvas := win.Canvas()
	canvas.AddShortcut(ctrl(fyne.KeyW), func(fyne.Shortcut) { close() })
	canvas.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			close()
		}
	})
}
