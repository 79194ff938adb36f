package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// The window's shortcuts work while the composer has the focus; the
// entry's own (select all, copy) still do.
func TestShortcutsFromTheComposer(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	u.main.Canvas().Focus(u.chat.composer)
	test.Type(u.chat.composer, "draft")
	u.chat.composer.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault})
	h.loop.waitFor(t, "Preferences", func() bool {
		return u.prefs != nil && u.prefs.win != nil && strings.Contains(windowText(u.prefs.win), "Providers")
	})

	u.chat.composer.TypedShortcut(&fyne.ShortcutSelectAll{})
	u.chat.composer.TypedShortcut(&fyne.ShortcutCopy{Clipboard: h.app.Clipboard()})
	if got := h.app.Clipboard().Content(); got != "draft" {
		t.Fatalf("the composer's own shortcuts: clipboard %q", got)
	}
}
