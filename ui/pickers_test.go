package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

func menuLabels(m *fyne.Menu) []string {
	var out []string
	for _, it := range m.Items {
		switch {
		case it.IsSeparator:
			out = append(out, "---")
		case it.Checked:
			out = append(out, "✓ "+it.Label)
		case it.Disabled:
			out = append(out, "(off) "+it.Label)
		default:
			out = append(out, it.Label)
		}
	}
	return out
}

func menuItem(t *testing.T, m *fyne.Menu, prefix string) *fyne.MenuItem {
	t.Helper()
	for _, it := range m.Items {
		if strings.HasPrefix(it.Label, prefix) {
			return it
		}
	}
	t.Fatalf("no menu item %q in %q", prefix, menuLabels(m))
	return nil
}

func saveProvider(t *testing.T, h *harness, baseURL string) {
	t.Helper()
	err := agent.SaveProvider(context.Background(), h.db, agent.ProviderSettings{Kind: llm.KindOpenAI, BaseURL: baseURL,
		Model: llmtest.ModelName, ContextWindow: 32768})
	if err != nil {
		t.Fatal(err)
	}
}

func TestModelMenuListsTheServersModelsAndSavesThePick(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.SetModels("qwen3-coder:30b", llmtest.ModelName, "gpt-oss:20b")
	h := newHarness(t, harnessOptions{})
	saveProvider(t, h, srv.URL)
	u := h.open(true)
	h.loop.waitFor(t, "the model name", func() bool { return u.chat.modelBtn.Text == "model: "+llmtest.ModelName })

	test.Tap(u.chat.modelBtn)
	h.loop.waitFor(t, "the model menu", func() bool { return u.chat.menu != nil })
	want := []string{"qwen3-coder:30b", "✓ " + llmtest.ModelName, "gpt-oss:20b", "---", "Provider settings…"}
	if got := menuLabels(u.chat.menu); !slices.Equal(got, want) {
		t.Fatalf("model menu = %q, want %q", got, want)
	}
	if top := u.main.Canvas().Overlays().Top(); top == nil {
		t.Fatal("the menu did not pop up over the window")
	}

	menuItem(t, u.chat.menu, "gpt-oss").Action()
	h.loop.waitFor(t, "the new model in the header", func() bool { return u.chat.modelBtn.Text == "model: gpt-oss:20b" })
	if ps, _, _ := agent.LoadProvider(context.Background(), h.db); ps.Model != "gpt-oss:20b" || ps.BaseURL != srv.URL {
		t.Fatalf("saved %+v: want only the model changed", ps)
	}
	if !strings.Contains(u.chat.status.Text, "The next turn uses gpt-oss:20b") {
		t.Errorf("status = %q", u.chat.status.Text)
	}
}

func TestModelMenuSaysWhyItCannotList(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	saveProvider(t, h, llmtest.UnreachableURL(t))
	u := h.open(false)
	test.Tap(u.chat.modelBtn)
	h.loop.waitFor(t, "the model menu", func() bool { return u.chat.menu != nil })
	got := menuLabels(u.chat.menu)
	if len(got) != 4 || !strings.HasPrefix(got[0], "(off) Could not list models: ") || got[1] != "✓ "+llmtest.ModelName || got[3] != "Provider settings…" {
		t.Fatalf("model menu = %q: want the reason, the current model and the settings", got)
	}
	menuItem(t, u.chat.menu, "Provider settings").Action()
	if u.prefs == nil || u.prefs.content.Objects[0] != u.prefs.objects[sectionProviders] {
		t.Fatal("Provider settings… did not open Preferences → Providers")
	}
}

func TestProjectMenuSwitchesBetweenRecentProjects(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	ctx := context.Background()
	other := filepath.Join(filepath.Dir(h.project), "other")
	gone := filepath.Join(filepath.Dir(h.project), "gone")
	for _, dir := range []string{other, gone} {
		os.MkdirAll(dir, 0o755)
		if _, err := h.agent.OpenProject(ctx, dir); err != nil {
			t.Fatal(err)
		}
	}
	os.RemoveAll(gone)
	u := h.open(true) // opens h.project: now the most recent

	test.Tap(u.chat.projectBtn)
	h.loop.waitFor(t, "the project menu", func() bool { return u.chat.menu != nil })
	got := menuLabels(u.chat.menu)
	if len(got) != 5 || !strings.HasPrefix(got[0], "✓ ") || !strings.HasSuffix(got[0], "project") ||
		!strings.HasSuffix(got[1], "gone (folder not found)") || !strings.HasPrefix(got[1], "(off) ") ||
		!strings.HasSuffix(got[2], "other") || got[4] != "Open Folder…" {
		t.Fatalf("project menu = %q: want the current, the missing (disabled) and the other project, then Open Folder…", got)
	}
	u.chat.menu.Items[2].Action()
	h.loop.waitFor(t, "the other project", func() bool { return strings.HasSuffix(u.chat.project.Path, "other") })
	if !strings.HasSuffix(u.main.Title(), "other") {
		t.Errorf("title = %q", u.main.Title())
	}
}
