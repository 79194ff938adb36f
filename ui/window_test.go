package ui

import (
	"bufio"
	"image/color"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
)

// TestWindowRemembersSizeAndSidebar: the size and sidebar width at close
// come back at the next start.
func TestWindowRemembersSizeAndSidebar(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	if got := u.chat.split.Offset; got != defaultSidebarOffset {
		t.Fatalf("first start: sidebar offset %v, want the default", got)
	}
	u.main.Resize(fyne.NewSize(900, 650))
	u.chat.split.SetOffset(0.31)
	u.Close()
	h.loop.runQueued()

	u = h.open(false)
	// open resizes to the harness's size: look at what New restored.
	if got := u.loadWindowState(); got.size != fyne.NewSize(900, 650) || got.sidebar != 0.31 {
		t.Fatalf("restored %v, sidebar %v; want 900x650 and 0.31", got.size, got.sidebar)
	}
	if got := u.chat.split.Offset; got != 0.31 {
		t.Errorf("sidebar offset at start = %v, want 0.31", got)
	}
}

func TestMainMenuHasAboutWithVersionAndLicences(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	menu := u.main.MainMenu()
	var titles []string
	for _, m := range menu.Items {
		titles = append(titles, m.Label)
	}
	if strings.Join(titles, ",") != "File,Edit,View,Help" {
		t.Fatalf("menus = %v", titles)
	}
	about := mainMenuItem(t, menu, "Help", "About AgentDesk")
	mainMenuItem(t, menu, "Help", "Keyboard Shortcuts")
	about.Action()
	text := allText(topOverlay(u.main))
	for _, want := range []string{"AgentDesk development build", "fyne.io/fyne/v2 — BSD-3-Clause", "github.com/alecthomas/chroma/v2 — MIT"} {
		if !strings.Contains(text, want) {
			t.Errorf("About lacks %q:\n%s", want, text)
		}
	}
}

// TestAppearanceChoiceIsAppliedAndKept: View › Appearance › Light makes
// the theme light whatever the system says, and it stays at next start.
func TestAppearanceChoiceIsAppliedAndKept(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	u.chat.transcript.setEntries("s1", []agent.Entry{{Session: "s1", Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "hi"}}}})
	h.relayout(u.main)
	bubbleFill := func() color.Color {
		var fill color.Color
		walk(u.chat.transcript.list, func(o fyne.CanvasObject) {
			if r, ok := o.(*canvas.Rectangle); ok && r.CornerRadius > 0 && fill == nil {
				fill = r.FillColor
			}
		})
		return fill
	}
	mainMenuItem(t, u.main.MainMenu(), "View", "Appearance").ChildMenu.Items[1].Action() // Light
	h.relayout(u.main)
	if got, want := bubbleFill(), h.app.Settings().Theme().Color(theme.ColorNameInputBackground, theme.VariantLight); got != want {
		t.Errorf("after Light the message bubble is %v, want the light theme's %v", got, want)
	}
	white := lightColors[theme.ColorNameForeground]
	if got := h.app.Settings().Theme().Color(theme.ColorNameForeground, theme.VariantDark); got != white {
		t.Fatalf("after Light the foreground is %v, want the light theme's", got)
	}
	h.loop.waitFor(t, "the choice saved", func() bool {
		v, _, _ := h.db.Setting(t.Context(), settingAppearance)
		return v == "light"
	})
	if !mainMenuItem(t, u.main.MainMenu(), "View", "Appearance").ChildMenu.Items[1].Checked {
		t.Error("Light is not checked")
	}
}

func mainMenuItem(t *testing.T, menu *fyne.MainMenu, top, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range menu.Items {
		if m.Label != top {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no menu item %s › %s", top, label)
	return nil
}

// TestLicencesListEveryDirectModule keeps the About dialog's licence list
// in step with go.mod's direct requirements.
func TestLicencesListEveryDirectModule(t *testing.T) {
	f, err := os.Open("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]bool{}
	for _, l := range licences {
		listed[l.module] = true
	}
	in, direct := false, 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			in = true
		case line == ")" && in:
			if direct == 0 {
				t.Fatal("no direct requirements found in go.mod")
			}
			return
		case in && !strings.Contains(line, "// indirect") && line != "":
			direct++
			if module := strings.Fields(line)[0]; !listed[module] {
				t.Errorf("%s is required by go.mod but has no licence in the About dialog", module)
			}
		}
	}
}
