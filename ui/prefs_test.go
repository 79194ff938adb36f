package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent"
)

func TestProviderSettingsPersist(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.ShowPreferences(sectionProviders)
	p := u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the form to load", func() bool { return p.baseURL.Text != "" })

	p.preset.SetSelected("Ollama")
	if p.baseURL.Text != "http://127.0.0.1:11434/v1" {
		t.Fatalf("preset did not fill the URL: %q", p.baseURL.Text)
	}
	p.model.SetText("qwen3-coder:30b")
	p.apiKey.SetText("")
	p.window.SetText("65536")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(p.status.Text, "Saved") })

	// A new window (as after a restart) shows the saved values.
	u.Close()
	h.ui = nil
	u = h.open(false)
	u.ShowPreferences(sectionProviders)
	p = u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the form to load", func() bool { return p.model.Text == "qwen3-coder:30b" })
	if p.baseURL.Text != "http://127.0.0.1:11434/v1" || p.window.Text != "65536" {
		t.Fatalf("after re-creating: %q %q", p.baseURL.Text, p.window.Text)
	}
}

// TestApprovalsSectionSavesThePolicy: the policy has its own section and
// a choice is saved at once.
func TestApprovalsSectionSavesThePolicy(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.ShowPreferences("approvals")
	a := u.prefs.panes[sectionApprovals].(*approvalsPane)
	h.loop.waitFor(t, "the choice to load", func() bool { return a.policy.Selected == policyLabels[0].label })
	a.policy.SetSelected(policyLabels[1].label)
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(a.status.Text, "Saved") })
	if got := agent.LoadPolicy(context.Background(), h.db); got != agent.PolicyAutoEdits {
		t.Fatalf("stored policy = %s", got)
	}
	u.ShowPreferences(sectionProviders)
	if text := allText(u.prefs.content); strings.Contains(text, policyLabels[0].label) {
		t.Errorf("Providers still holds the approval policy:\n%s", text)
	}
}

func TestProviderSettingsValidation(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.ShowPreferences(sectionProviders)
	p := u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the form to load", func() bool { return p.baseURL.Text != "" })
	p.baseURL.SetText("ftp://nope")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	if !strings.Contains(p.status.Text, "http://") {
		t.Fatalf("status = %q", p.status.Text)
	}
	if _, saved, _ := agent.LoadProvider(context.Background(), h.db); saved {
		t.Fatal("invalid settings were saved")
	}
}

func TestAdvancedSettings(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.ShowPreferences(sectionAdvanced)
	a := u.prefs.panes[sectionAdvanced].(*advancedPane)
	h.loop.waitFor(t, "the form", func() bool { return a.timeout.Text == "5" })
	if !strings.Contains(a.detected.Text, "/usr/bin") {
		t.Fatalf("detected PATH not shown: %q", a.detected.Text)
	}
	a.timeout.SetText("90")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the refusal", func() bool { return strings.Contains(a.status.Text, "1 to 60") })
	a.timeout.SetText("12")
	if a.mcpStart.Text != "30" || a.mcpCall.Text != "120" {
		t.Fatalf("MCP timeouts shown as %q and %q, want the defaults 30 and 120", a.mcpStart.Text, a.mcpCall.Text)
	}
	a.mcpStart.SetText("400")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the MCP refusal", func() bool { return strings.Contains(a.status.Text, "MCP server start timeout must be from 1 to 300") })
	a.mcpStart.SetText("45")
	a.path.SetText("/opt/node/bin:/usr/bin")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(a.status.Text, "Saved") })
	if got := h.exts.HookSettings(context.Background()).MCPStartTimeout; got != 45*time.Second {
		t.Errorf("saved MCP start timeout %v, want 45s", got)
	}
	if !strings.Contains(windowText(u.prefs.win), h.paths.Data) {
		t.Error("the data folder is not shown")
	}
}

func TestSkillsViewShowsSourcesAndConflicts(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	for _, dir := range []string{filepath.Join(os.Getenv("HOME"), ".agents", "skills", "review"), filepath.Join(h.project, ".agents", "skills", "review")} {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: review\ndescription: Review a diff\n---\n"), 0o644)
	}
	u := h.open(true)
	u.ShowPreferences(sectionSkills)
	s := u.prefs.panes[sectionSkills].(*skillsPane)
	h.loop.waitFor(t, "the catalog", func() bool { return strings.Contains(s.list.Text, "review  [user]") })
	if !strings.Contains(s.list.Text, `conflict: "review" is defined by user (used) and project (ignored)`) {
		t.Fatalf("skills view:\n%s", s.list.Text)
	}
}

// The Anthropic preset thinks by default; the budget is kept, and one the
// API would refuse is not saved.
func TestThinkingBudgetSetting(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.ShowPreferences(sectionProviders)
	p := u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the form to load", func() bool { return p.baseURL.Text != "" })
	p.preset.SetSelected("Anthropic")
	if p.think.Text != "4096" {
		t.Fatalf("Anthropic preset thinking budget = %q, want 4096", p.think.Text)
	}
	p.think.SetText("500")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	if !strings.Contains(p.status.Text, "at least 1024") {
		t.Fatalf("status = %q, want the budget's lower bound", p.status.Text)
	}
	p.think.SetText("16000")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(p.status.Text, "Saved") })
	s, _, err := agent.LoadProvider(context.Background(), h.db)
	if err != nil || s.ThinkingBudget != 16000 || s.Config(os.Getenv).ThinkingBudget != 16000 {
		t.Fatalf("stored %+v (%v), want a 16000-token budget reaching the provider config", s, err)
	}
}

func TestSectionNamedIgnoresCaseAndTakesOneWord(t *testing.T) {
	for in, want := range map[string]string{"providers": sectionProviders, "Agent Extensions": sectionExtensions,
		"extensions": sectionExtensions, " ADVANCED ": sectionAdvanced, "skills": sectionSkills, "": "", "agent x": ""} {
		got, ok := SectionNamed(in)
		if got != want || ok != (want != "") {
			t.Errorf("SectionNamed(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestPreferencesOpenOnTheAskedSection(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.ShowPreferences("advanced")
	if _, ok := u.prefs.objects[sectionAdvanced]; !ok {
		t.Fatal(`"advanced" did not open the Advanced section`)
	}
	u.ShowPreferences("no such section") // keeps what is shown
	if got := u.prefs.content.Objects[0]; got != u.prefs.objects[sectionAdvanced] {
		t.Fatal("an unknown section replaced the shown one")
	}
}

func TestProvidersShowTheContextWindowInUseAndItsSource(t *testing.T) {
	h := newHarness(t, harnessOptions{window: func(context.Context) agent.Window {
		return agent.Window{Tokens: 32768, Source: "ds4-server GET /v1/models context_length", Server: "ds4-server"}
	}})
	u := h.open(false)
	u.ShowPreferences(sectionProviders)
	p := u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the served window", func() bool {
		return p.served.Text == "In use: 32768 tokens, from ds4-server GET /v1/models context_length\n"+
			"MCP tools: at most 13.1 KB a request (10% of the window, Preferences → Advanced)"
	})
	if p.window.Text != "" {
		t.Fatalf("a preset's window is no override: the field shows %q, want it empty", p.window.Text)
	}
}

// Models for subagents: empty is the session's model; a saved alias is
// what an agent asking for it runs on.
func TestSubagentModelAliases(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	u.ShowPreferences(sectionProviders)
	p := u.prefs.panes[sectionProviders].(*providersPane)
	h.loop.waitFor(t, "the form to load", func() bool { return p.baseURL.Text != "" })
	if p.aliases["opus"].Text != "" {
		t.Fatalf("opus defaults to %q, want empty (the session's model)", p.aliases["opus"].Text)
	}
	p.aliases["sonnet"].SetText(" local-big ")
	test.Tap(findButton(u.prefs.win.Content(), "Save"))
	h.loop.waitFor(t, "the save", func() bool { return strings.HasPrefix(p.status.Text, "Saved") })
	if got := agent.LoadSubagentModel(context.Background(), h.db, "sonnet"); got != "local-big" {
		t.Fatalf("sonnet maps to %q", got)
	}
	if got := agent.LoadSubagentModel(context.Background(), h.db, "haiku"); got != "" {
		t.Fatalf("haiku maps to %q, want the session's model", got)
	}
}
