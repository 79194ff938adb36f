package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
)

// styleList is a StyleSource for the UI tests.
type styleList []lifecycle.OutputStyle

func (l styleList) OutputStyles(context.Context, string) []lifecycle.OutputStyle { return l }

// Preferences → Providers offers Default and every style the open
// project's session may use, says what the selected one does, saves the
// choice with the other fields, and shows it again after a restart.
func TestProvidersOutputStyleChoice(t *testing.T) {
	styles := styleList{
		{Name: "docs:writer", Short: "writer", Extension: "docs", Label: "Docs", Description: "A writing assistant", Prompt: "Write."},
		{Name: "ponytail:terse", Short: "terse", Extension: "ponytail", Label: "Ponytail", KeepCodingInstructions: true, Prompt: "Be brief."},
	}
	h := newHarness(t, harnessOptions{styles: styles})
	u := h.open(true)
	u.ShowPreferences(sectionProviders)
	p := u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the styles to load", func() bool { return len(p.style.sel.Options) == 3 })
	if want := []string{"Default", "docs:writer", "ponytail:terse"}; !slices.Equal(p.style.sel.Options, want) {
		t.Fatalf("options %q, want %q", p.style.sel.Options, want)
	}
	if p.style.sel.Selected != "Default" || !strings.Contains(p.style.about.Text, "coding instructions, short answers") {
		t.Fatalf("first start: %q, %q", p.style.sel.Selected, p.style.about.Text)
	}
	p.style.sel.SetSelected("docs:writer")
	if want := "A writing assistant\nFrom Docs. Replaces the coding instructions"; !strings.HasPrefix(p.style.about.Text, want) {
		t.Errorf("about writer = %q", p.style.about.Text)
	}
	p.style.sel.SetSelected("ponytail:terse")
	if p.style.about.Text != "From Ponytail. Added to the coding instructions." {
		t.Errorf("about terse = %q", p.style.about.Text)
	}
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(p.status.Text, "Saved") })
	if got := agent.LoadOutputStyle(context.Background(), h.db); got != "ponytail:terse" {
		t.Fatalf("stored style %q", got)
	}

	u.Close()
	h.ui = nil
	u = h.open(true)
	u.ShowPreferences(sectionProviders)
	p = u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the choice to load", func() bool { return p.style.sel.Selected == "ponytail:terse" })
}

// A stored style no extension offers now stays selected, marked, and
// saving the other fields keeps it; choosing Default clears it.
func TestProvidersKeepAStyleNotOffered(t *testing.T) {
	h := newHarness(t, harnessOptions{styles: styleList{}})
	if err := agent.SaveOutputStyle(context.Background(), h.db, "gone:style"); err != nil {
		t.Fatal(err)
	}
	u := h.open(true)
	u.ShowPreferences(sectionProviders)
	p := u.prefs.panes[sectionProviders].(*providersPane)
	const marked = "gone:style (not offered here: Default applies)"
	h.loop.waitFor(t, "the choice to load", func() bool { return p.style.sel.Selected == marked })
	if !strings.Contains(p.style.about.Text, "disabled or uninstalled") {
		t.Errorf("about = %q", p.style.about.Text)
	}
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(p.status.Text, "Saved") })
	if got := agent.LoadOutputStyle(context.Background(), h.db); got != "gone:style" {
		t.Fatalf("saving the other fields changed the style to %q", got)
	}
	p.style.sel.SetSelected("Default")
	p.status.SetText("")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(p.status.Text, "Saved") })
	if got := agent.LoadOutputStyle(context.Background(), h.db); got != "" {
		t.Fatalf("Default stored as %q", got)
	}
}

// The card and the trust dialog name each style as it is chosen (a
// project's without a prefix) and say what choosing it does.
func TestStyleLines(t *testing.T) {
	styles := []extensions.OutputStyle{{Name: "terse", Description: "Short\nanswers", KeepCodingInstructions: true}, {Name: "writer"}}
	got := styleLines("ponytail", styles)
	want := []string{"ponytail:terse — Short …\n    added to the coding instructions", "ponytail:writer\n    replaces the coding instructions"}
	if !slices.Equal(got, want) {
		t.Errorf("plugin: %q, want %q", got, want)
	}
	if got := styleLines("project", styles[1:]); len(got) != 1 || !strings.HasPrefix(got[0], "writer\n") {
		t.Errorf("project: %q", got)
	}
}
