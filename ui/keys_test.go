package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// press types key on the window's canvas, as the driver does when no
// widget has the focus.
func press(w fyne.Window, key fyne.KeyName) { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: key}) }

func overlayTitle(w fyne.Window) string {
	if top := topOverlay(w); top != nil {
		return allText(top)
	}
	return ""
}

// Tab and Shift+Tab move the focus out of the composer: the driver moves
// it only when the focused widget does not take Tab itself.
func TestTabMovesTheFocusFromTheComposer(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	canvas := u.main.Canvas()
	canvas.Focus(u.chat.composer)
	if tabbable, ok := canvas.Focused().(fyne.Tabbable); ok && tabbable.AcceptsTab() {
		t.Fatal("the composer takes Tab: it would insert a tab instead of moving the focus")
	}
	test.FocusNext(canvas)
	if canvas.Focused() != u.chat.sendBtn {
		t.Fatalf("Tab from the composer focused %T, want the Send button", canvas.Focused())
	}
	test.FocusPrevious(canvas)
	if canvas.Focused() != u.chat.composer {
		t.Fatalf("Shift+Tab from Send focused %T, want the composer", canvas.Focused())
	}
}

// The Keyboard shortcuts sheet opens with Ctrl/Cmd+/ and F1 from the
// composer, lists the window's shortcuts, and closes with Esc or Enter.
func TestKeyboardShortcutsSheet(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	canvas := u.main.Canvas()
	canvas.Focus(u.chat.composer)
	u.chat.composer.TypedShortcut(ctrl(fyne.KeySlash))
	sheet := overlayTitle(u.main)
	for _, want := range []string{"Keyboard shortcuts", shortcutName() + "+N", "New session", shortcutName() + "+Enter", "Tab, Shift+Tab"} {
		if !strings.Contains(sheet, want) {
			t.Fatalf("the sheet lacks %q:\n%s", want, sheet)
		}
	}
	press(u.main, fyne.KeyEscape)
	if topOverlay(u.main) != nil {
		t.Fatal("Esc left the sheet open")
	}
	canvas.Focus(u.chat.composer)
	u.chat.composer.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF1})
	if !strings.Contains(overlayTitle(u.main), "Keyboard shortcuts") {
		t.Fatal("F1 in the composer did not open the sheet")
	}
	press(u.main, fyne.KeyReturn)
	if topOverlay(u.main) != nil {
		t.Fatal("Enter left the sheet open")
	}
	if u.chat.composer.Text != "" {
		t.Fatalf("the keys reached the composer: %q", u.chat.composer.Text)
	}
}

func oneSession(t *testing.T, h *harness, u *UI, title string) {
	t.Helper()
	s, err := h.agent.NewSession(context.Background(), u.chat.project)
	if err != nil {
		t.Fatal(err)
	}
	h.agent.RenameSession(context.Background(), s.ID(), title)
	s.Close()
	u.chat.reloadSessions(false)
	h.loop.waitFor(t, "the session", func() bool { return len(u.chat.sessions) == 1 })
	u.chat.sessionList.Select(1) // row 0 is the Today heading
	// Opening it ends by focusing the composer: wait for that, so it cannot
	// land after the test has put the focus elsewhere.
	h.loop.waitFor(t, "the session open", func() bool {
		return u.chat.selected == 0 && u.chat.session != nil && u.chat.session.ID() == s.ID()
	})
}

// Rename: the title field has the focus, Enter renames, Esc cancels.
func TestRenameDialogKeys(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	oneSession(t, h, u, "old title")

	u.chat.onRename()
	entry, ok := u.main.Canvas().Focused().(*dialogEntry)
	if !ok {
		t.Fatalf("focus in the rename dialog: %T, want its title field", u.main.Canvas().Focused())
	}
	entry.SetText("dismissed")
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if topOverlay(u.main) != nil {
		t.Fatal("Esc in the title field left the dialog open")
	}

	u.chat.onRename()
	u.main.Canvas().Unfocus()
	press(u.main, fyne.KeyEscape)
	if topOverlay(u.main) != nil {
		t.Fatal("Esc left the dialog open")
	}

	u.chat.onRename()
	entry = u.main.Canvas().Focused().(*dialogEntry)
	entry.SetText("new title")
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.loop.waitFor(t, "the new title", func() bool {
		return len(u.chat.sessions) == 1 && u.chat.sessions[0].Title == "new title"
	})
	if topOverlay(u.main) != nil {
		t.Fatal("Enter left the dialog open")
	}
}

// Delete: Enter is the safe choice (keep the session), Esc cancels, and
// the window's keys come back afterwards.
func TestDeleteDialogKeys(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	oneSession(t, h, u, "keep me")
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		u.chat.onDelete()
		top := topOverlay(u.main)
		if b := findButton(top, "Delete"); b == nil || b.Importance != widget.DangerImportance {
			t.Fatalf("the delete dialog needs a Delete button of danger importance:\n%s", allText(top))
		}
		press(u.main, key)
		if topOverlay(u.main) != nil {
			t.Fatalf("%s left the delete dialog open", key)
		}
	}
	h.loop.runQueued()
	u.chat.reloadSessions(false)
	h.loop.runQueued()
	if len(u.chat.sessions) != 1 {
		t.Fatalf("sessions after Enter and Esc: %d, want the one kept", len(u.chat.sessions))
	}
	press(u.main, fyne.KeyF1)
	if !strings.Contains(overlayTitle(u.main), "Keyboard shortcuts") {
		t.Fatal("the window's own keys did not come back after the dialog")
	}
}

// Esc and Ctrl/Cmd+W close a secondary window such as Preferences.
func TestCloseKeys(t *testing.T) {
	for _, close := range []func(w fyne.Window){
		func(w fyne.Window) { press(w, fyne.KeyEscape) },
		func(w fyne.Window) {
			w.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(ctrl(fyne.KeyW))
		},
	} {
		a := test.NewTempApp(t)
		w := a.NewWindow("Preferences")
		closed := false
		closeKeys(w, func() { closed = true })
		close(w)
		if !closed {
			t.Fatal("the key did not close the window")
		}
	}
}
