package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// agentsHarness is the UI with an enabled extension "probe" that has an
// agent, talking to a fake model server.
func agentsHarness(t *testing.T) (*harness, *llmtest.Server) {
	t.Helper()
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "probe", "interface": {"displayName": "Probe"}}`},
		"agents/explorer.md": {Body: "---\nname: explorer\ndescription: Explores the code base and reports where things are\n" +
			"tools: Read, Grep, Glob, WebFetch\ncolor: cyan\n---\nYou explore.\n"},
	})
	r.SetHEAD(t, "main")
	server := gittest.Serve(t, map[string]*gittest.Repo{"probe": r})
	model := llmtest.NewOpenAI(t)
	h := newHarness(t, harnessOptions{provider: fakeProvider(model), managerOpts: []extensions.Option{extensions.WithHTTPClient(server.Client)}})
	ctx := context.Background()
	info, err := h.exts.Install(ctx, server.URL+"/probe.git", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := h.exts.TrustPrompt(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.exts.Enable(ctx, info.ID, tr.Hash); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(h.project, "sync.go"), []byte("package sync\n\nfunc Retry() {}\n"), 0o644)
	return h, model
}

// delegation is the model's side of one delegated task: the parent asks
// the explorer, which greps, then answers; the parent sums up.
func delegation(model *llmtest.Server) {
	model.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"find the retry code","prompt":"Where is Retry defined?"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "grep", Args: `{"pattern":"func Retry"}`}}},
		llmtest.Reply{Text: "`Retry` is defined in **sync.go**, line 3."},
		llmtest.Reply{Text: "The explorer found `Retry` in sync.go."},
	)
}

func TestDelegatedTaskIsOneCollapsibleBlock(t *testing.T) {
	h, model := agentsHarness(t)
	delegation(model)
	u := h.open(true)
	u.chat.onSend("Where is the retry code?")
	h.loop.waitFor(t, "the turn to end", func() bool {
		return u.chat.session != nil && !u.chat.session.Busy() && strings.Contains(windowText(u.main), "The explorer found")
	})
	h.relayout(u.main)
	text := windowText(u.main)
	if !strings.Contains(text, "explorer — find the retry code — done") || strings.Contains(text, "grep func Retry") {
		t.Fatalf("collapsed block:\n%s", text)
	}
	test.Tap(findButton(u.main.Content(), "explorer — find the retry code"))
	h.loop.waitFor(t, "the child's transcript", func() bool {
		h.relayout(u.main)
		return strings.Contains(windowText(u.main), "grep func Retry")
	})
	text = windowText(u.main)
	for _, want := range []string{"not available in AgentDesk, so not given to it: WebFetch", "defined in", "Open session"} {
		if !strings.Contains(text, want) {
			t.Errorf("expanded block lacks %q:\n%s", want, text)
		}
	}

	u.ShowPreferences(sectionAgents)
	a := u.prefs.panes[sectionAgents].(*agentsPane)
	h.loop.waitFor(t, "the agents", func() bool { return strings.Contains(a.list.Text, "explorer  [extension Probe]") })
	if !strings.Contains(a.list.Text, "general-purpose  [built in]") || !strings.Contains(a.list.Text, "tools: Read, Grep, Glob, WebFetch (not available in AgentDesk, so not given to it: WebFetch)") {
		t.Errorf("Agents view:\n%s", a.list.Text)
	}
}
