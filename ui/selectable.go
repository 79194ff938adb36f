package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// maxSelectableRows bounds the height of selectable text; longer text
// scrolls inside it.
const maxSelectableRows = 40

// selectableText shows a message as read-only text the reader can select
// with the mouse or keyboard and copy. Fyne has no selectable label, and a
// disabled entry greys its text out, so this is an entry that ignores
// every edit: typing, cut, paste, undo.
type selectableText struct {
	widget.Entry
	onCopy func() // feedback after a copy
}

func newSelectableText(text string, onCopy func()) *selectableText {
	e := &selectableText{onCopy: onCopy}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	e.SetText(text)
	e.SetMinRowsVisible(min(rowsFor(text), maxSelectableRows))
	return e
}

// rowsFor estimates how many rows text wraps to in a transcript-wide
// entry (about 100 characters a row), so short messages need no scrolling.
func rowsFor(text string) int {
	const perRow = 100
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		rows += 1 + len([]rune(line))/perRow
	}
	return rows
}

// TypedRune ignores typing.
func (e *selectableText) TypedRune(rune) {}

// TypedKey lets through only the keys that move the cursor (with Shift
// they extend the selection).
func (e *selectableText) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyUp, fyne.KeyDown, fyne.KeyLeft, fyne.KeyRight, fyne.KeyHome, fyne.KeyEnd, fyne.KeyPageUp, fyne.KeyPageDown:
		e.Entry.TypedKey(k)
	}
}

// TypedShortcut lets through copy and select all; a copy says "Copied".
func (e *selectableText) TypedShortcut(s fyne.Shortcut) {
	switch s.(type) {
	case *fyne.ShortcutCopy:
		e.Entry.TypedShortcut(s)
		if e.onCopy != nil && e.SelectedText() != "" {
			e.onCopy()
		}
	case *fyne.ShortcutSelectAll:
		e.Entry.TypedShortcut(s)
	default: // the window's own (Ctrl/Cmd+N, Ctrl/Cmd+F, …)
		if cv, ok := fyne.CurrentApp().Driver().CanvasForObject(e).(interface{ TypedShortcut(fyne.Shortcut) }); ok {
			cv.TypedShortcut(s)
		}
	}
}

// TappedSecondary offers only what read-only text allows.
func (e *selectableText) TappedSecondary(pe *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	if c == nil {
		return
	}
	menu := fyne.NewMenu("",
		fyne.NewMenuItem("Copy", func() { e.TypedShortcut(&fyne.ShortcutCopy{Clipboard: fyne.CurrentApp().Clipboard()}) }),
		fyne.NewMenuItem("Select all", func() { e.TypedShortcut(&fyne.ShortcutSelectAll{}) }),
	)
	widget.ShowPopUpMenuAtPosition(menu, c, pe.AbsolutePosition)
}

// contextMenuArea shows its content and a menu on a secondary tap (a
// right click) over it.
type contextMenuArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	menu    *fyne.Menu
}

func newContextMenuArea(content fyne.CanvasObject, menu *fyne.Menu) *contextMenuArea {
	a := &contextMenuArea{content: content, menu: menu}
	a.ExtendBaseWidget(a)
	return a
}

// CreateRenderer implements fyne.Widget.
func (a *contextMenuArea) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(a.content)
}

// TappedSecondary shows the menu where the pointer is.
func (a *contextMenuArea) TappedSecondary(pe *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(a); c != nil {
		widget.ShowPopUpMenuAtPosition(a.menu, c, pe.AbsolutePosition)
	}
}
