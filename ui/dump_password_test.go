package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// TestDumpHidesPasswords: the SIGUSR1 dump writes the windows' text to a
// file; a password field (the API key) is never in it.
func TestDumpHidesPasswords(t *testing.T) {
	key := widget.NewPasswordEntry()
	key.SetText("sk-secret-123")
	name := widget.NewEntry()
	name.SetText("visible name")
	var b strings.Builder
	dumper{b: &b}.object(container.NewVBox(name, key))
	if out := b.String(); strings.Contains(out, "sk-secret-123") || !strings.Contains(out, "visible name") || !strings.Contains(out, "(password, not shown)") {
		t.Fatalf("dump = %q", out)
	}
}
