package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// composer is the multi-line prompt entry: Enter sends, Shift+Enter adds
// a newline, Esc stops the running turn. (Fyne's own multi-line entry
// submits on Shift+Enter, the opposite of every chat app.)
type composer struct {
	widget.Entry
	onSend func(string)
	onStop func()
	shift  shiftState
	window windowShortcuts // shortcuts of the window, passed on to its canvas

	// keys sees keys first and reports whether it took them, tabs whether
	// Tab is wanted: the command completion, while its list is open.
	keys func(*fyne.KeyEvent) bool
	tabs func() bool
}

func newComposer(onSend func(string), onStop func()) *composer {
	c := &composer{onSend: onSend, onStop: onStop}
	c.MultiLine = true
	c.Wrapping = fyne.TextWrapWord
	c.SetMinRowsVisible(3)
	c.PlaceHolder = "Ask the agent… (Enter to send, Shift+Enter for a new line, /help for commands)"
	c.ExtendBaseWidget(c)
	return c
}

// KeyDown tracks Shift (desktop.Keyable).
func (c *composer) KeyDown(k *fyne.KeyEvent) { c.shift.note(k, true); c.Entry.KeyDown(k) }

// KeyUp tracks Shift (desktop.Keyable).
func (c *composer) KeyUp(k *fyne.KeyEvent) { c.shift.note(k, false); c.Entry.KeyUp(k) }

// shiftState follows the Shift keys for an entry that tells Enter from
// Shift+Enter.
type shiftState struct{ down bool }

func (s *shiftState) note(k *fyne.KeyEvent, down bool) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		s.down = down
	}
}

// TypedKey sends on Enter and stops on Esc.
func (c *composer) TypedKey(k *fyne.KeyEvent) {
	if c.keys != nil && c.keys(k) {
		return
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if !c.shift.down {
			c.onSend(c.Text)
			return
		}
	case fyne.KeyEscape:
		c.onStop()
		return
	case fyne.KeyF1: // the window's help key
		if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil && cv.OnTypedKey() != nil {
			cv.OnTypedKey()(k)
		}
		return
	}
	c.Entry.TypedKey(k)
}

// AcceptsTab is false: Tab and Shift+Tab move the focus, as in every other
// chat app, instead of inserting a tab into the prompt (fyne.Tabbable);
// only while the command completion is open, Tab accepts its choice.
func (c *composer) AcceptsTab() bool { return c.tabs != nil && c.tabs() }

// passOn makes shortcut, one of the window's, reach the window while the
// composer has the focus.
func (c *composer) passOn(shortcut fyne.Shortcut) { c.window.add(shortcut) }

// windowShortcuts are the window's shortcuts a focused entry hands on to
// the window's canvas (a focused entry gets shortcuts first and would
// swallow them).
type windowShortcuts map[string]bool

func (w *windowShortcuts) add(s fyne.Shortcut) {
	if *w == nil {
		*w = windowShortcuts{}
	}
	(*w)[s.ShortcutName()] = true
}

// handOn gives s to the canvas of from if it is one of the window's.
func (w windowShortcuts) handOn(from fyne.CanvasObject, s fyne.Shortcut) bool {
	if !w[s.ShortcutName()] {
		return false
	}
	cv, ok := fyne.CurrentApp().Driver().CanvasForObject(from).(interface{ TypedShortcut(fyne.Shortcut) })
	if ok {
		cv.TypedShortcut(s)
	}
	return ok
}

// TypedShortcut hands the window's shortcuts (Ctrl/Cmd+N, Ctrl/Cmd+,) to
// its canvas and keeps the entry's own (copy, paste, word moves).
func (c *composer) TypedShortcut(s fyne.Shortcut) {
	if !c.window.handOn(c, s) {
		c.Entry.TypedShortcut(s)
	}
}
