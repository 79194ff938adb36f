package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// commandsHarness is the UI with an enabled extension "probe" that has
// two slash commands, talking to a fake model server.
func commandsHarness(t *testing.T) (*harness, *llmtest.Server) {
	t.Helper()
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "probe", "interface": {"displayName": "Probe"}}`},
		"commands/review.md":         {Body: "---\ndescription: Review a pull request\nargument-hint: [pr]\nallowed-tools: Bash(git diff:*)\n---\nREVIEW-BODY pr=$1\n"},
		"commands/rebase.md":         {Body: "REBASE-BODY\n"},
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
	return h, model
}

// rows are the completion list's lines and the selected one.
func rows(s *slashCompletion) (lines []string, selected string) {
	if !s.box.Visible() {
		return nil, ""
	}
	for _, o := range s.box.Objects {
		b := o.(*widget.Button)
		lines = append(lines, b.Text)
		if b.Importance == widget.HighImportance {
			selected = b.Text
		}
	}
	return lines, selected
}

func TestSlashCompletionKeyboardAndMouse(t *testing.T) {
	h, _ := commandsHarness(t)
	u := h.open(true)
	c, comp := u.chat.composer, u.chat.completion
	test.Type(c, "/")
	h.loop.waitFor(t, "extension commands in the list", func() bool {
		lines, _ := rows(comp)
		return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "/review") })
	})
	lines, selected := rows(comp)
	want := []string{"/compact", "/ralph [--rounds N] TASK — ", "/new — ", "/output-style [NAME] — ", "/help — ", "/rebase  (Probe)",
		"/review [pr] — Review a pull request  (Probe)", "/probe:rebase  (Probe)", "/probe:review [pr] — Review a pull request  (Probe)"}
	want = want[:maxCompletionRows] // the rest is reached by moving the selection
	if len(lines) != len(want) || selected != lines[0] {
		t.Fatalf("rows %q (selected %q), want %d rows, host commands first", lines, selected, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("row %d = %q, want %q…", i, lines[i], w)
		}
	}
	if !c.AcceptsTab() {
		t.Error("Tab must reach the open list")
	}

	// Typing narrows; Down then Tab accepts the second match.
	test.Type(c, "re")
	if lines, _ = rows(comp); len(lines) != 4 {
		t.Fatalf("after /re: %q", lines)
	}
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if _, selected = rows(comp); !strings.HasPrefix(selected, "/review") {
		t.Fatalf("Down selected %q", selected)
	}
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
	if c.Text != "/review " || comp.box.Visible() || c.AcceptsTab() {
		t.Fatalf("after Tab: composer %q, list open %v", c.Text, comp.box.Visible())
	}

	// Esc closes the list without stopping anything or sending.
	c.SetText("")
	test.Type(c, "/pro")
	h.loop.waitFor(t, "the list", func() bool { return comp.box.Visible() })
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if comp.box.Visible() || c.Text != "/pro" {
		t.Fatalf("after Esc: list open %v, composer %q", comp.box.Visible(), c.Text)
	}

	// A click accepts; Up wraps to the last row; Enter accepts.
	c.SetText("")
	test.Type(c, "/probe:")
	h.loop.waitFor(t, "the list", func() bool { return comp.box.Visible() })
	test.Tap(comp.box.Objects[1].(*widget.Button))
	if c.Text != "/probe:review " {
		t.Fatalf("after a click: %q", c.Text)
	}
	c.SetText("")
	test.Type(c, "/")
	h.loop.waitFor(t, "the list", func() bool { lines, _ := rows(comp); return len(lines) == len(want) })
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if c.Text != "/probe:review " || u.chat.session != nil {
		t.Fatalf("after Up, Enter: composer %q, sent %v", c.Text, u.chat.session != nil)
	}
}

func TestSlashCommandShowsTypedTextAndSendsExpansion(t *testing.T) {
	h, model := commandsHarness(t)
	u := h.open(true)
	c := u.chat.composer
	test.Type(c, "/review 12")
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.loop.waitFor(t, "the turn to end", func() bool {
		return u.chat.session != nil && !u.chat.session.Busy() && len(model.Requests()) == 1
	})
	if got := model.Requests()[0].LastMessage().Texts; len(got) != 1 || got[0] != "REVIEW-BODY pr=12" {
		t.Fatalf("the model got %q", got)
	}
	h.loop.waitFor(t, "the user row", func() bool { return len(u.chat.transcript.items) >= 2 })
	h.relayout(u.main)
	text := windowText(u.main)
	if !strings.Contains(text, "/review 12") || !strings.Contains(text, "Sent to the model as the command's text") || strings.Contains(text, "REVIEW-BODY") {
		t.Fatalf("transcript:\n%s", text)
	}
	test.Tap(findButton(u.main.Content(), "Sent to the model as the command's text"))
	h.relayout(u.main)
	if !strings.Contains(windowText(u.main), "REVIEW-BODY pr=12") {
		t.Fatal("expanding the marker must show what the model got")
	}
}

func TestExtensionCardListsCommands(t *testing.T) {
	h, _ := commandsHarness(t)
	u := h.open(false)
	u.ShowPreferences(sectionExtensions)
	win := u.prefs.win
	h.loop.waitFor(t, "the card", func() bool { return strings.Contains(windowText(win), "2 commands") })
	test.Tap(findButton(win.Content(), "▸ Details"))
	h.loop.runQueued()
	text := windowText(win)
	for _, want := range []string{"Slash commands", "/review [pr] — Review a pull request",
		"allowed-tools (shown only, approvals still asked): Bash(git diff:*)", "/rebase"} {
		if !strings.Contains(text, want) {
			t.Errorf("details lack %q:\n%s", want, text)
		}
	}
}
