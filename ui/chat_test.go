package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/tools"
	"github.com/agentdesk/agentdesk/ui/markdown"
)

func fakeProvider(s *llmtest.Server) func() (llm.Provider, llm.Config, error) {
	return func() (llm.Provider, llm.Config, error) {
		cfg := s.Config()
		p, err := agent.NewProvider(cfg)
		return p, cfg, err
	}
}

func TestEmptyStatesRender(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(false)
	h.loop.waitFor(t, "start-up", func() bool { return u.chat.modelBtn.Text == "model: deepseek-v4-flash" })
	u.main.Resize(fyne.NewSize(900, 600))
	test.AssertRendersToMarkup(t, "chat/no_project.xml", u.main.Canvas())
	if !strings.Contains(windowText(u.main), "Open a folder to start") {
		t.Fatal("no project: the empty state must say what to do")
	}

	h.ui.chat.openFolder(h.project)
	h.loop.waitFor(t, "the project to open", func() bool { return h.ui.chat.project.ID != 0 })
	h.loop.waitFor(t, "the sessions to load", func() bool { return strings.Contains(windowText(u.main), "Ask anything about this project") })
	if !strings.Contains(u.main.Title(), "project") {
		t.Errorf("title = %q, want the project's name", u.main.Title())
	}
}

func TestNoModelServerBanner(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	d := Deps{App: h.app, Do: h.loop.do, Agent: h.agent, Approvals: h.approvals, Prefs: h.db, Extensions: h.exts, DataDir: h.paths.Data, LogFile: h.paths.LogFile(),
		CheckProvider: func(context.Context) error {
			return &llm.Error{Kind: llm.ErrUnreachable, URL: "http://127.0.0.1:8000/v1"}
		}}
	h.ui = New(d)
	h.ui.main.Show()
	h.loop.waitFor(t, "the banner", func() bool {
		return strings.Contains(windowText(h.ui.main), "No model server at http://127.0.0.1:8000/v1. Start ds4-server, llama.cpp or Ollama")
	})
}

func TestSendStreamsTheAnswer(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "Hello from the **fake** model."})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	test.Type(u.chat.composer, "say hello")
	u.chat.composer.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.loop.waitFor(t, "the answer", func() bool { return strings.Contains(windowText(u.main), "Hello from the fake model.") })
	if u.chat.composer.Text != "" {
		t.Errorf("composer not cleared: %q", u.chat.composer.Text)
	}
	h.loop.waitFor(t, "the turn to end", func() bool { return u.chat.session != nil && !u.chat.session.Busy() })
	h.loop.waitFor(t, "the title in the sidebar", func() bool { return strings.Contains(allText(u.chat.sessionList), "say hello") })
	if got := server.Requests()[0].LastMessage().Texts; len(got) != 1 || got[0] != "say hello" {
		t.Fatalf("request = %q", got)
	}
	// The reply's copy button puts its Markdown on the clipboard, and says so.
	copyBtn := answerCopyButton(t, u)
	test.Tap(copyBtn)
	if got := h.app.Clipboard().Content(); got != "Hello from the **fake** model." {
		t.Fatalf("clipboard = %q, want the answer's Markdown", got)
	}
	if copyBtn.Text != "Copied" {
		t.Errorf("after copying the button says %q, want Copied", copyBtn.Text)
	}
}

// answerCopyButton is the copy button under the (only) answer.
func answerCopyButton(t *testing.T, u *UI) *markdown.CopyButton {
	t.Helper()
	var copyBtn *markdown.CopyButton
	walk(u.chat.transcript.list, func(o fyne.CanvasObject) {
		if b, ok := o.(*markdown.CopyButton); ok {
			copyBtn = b
		}
	})
	if copyBtn == nil {
		t.Fatal("the answer has no copy button")
	}
	return copyBtn
}

func TestShiftEnterAddsNewlineInsteadOfSending(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	c := u.chat.composer
	test.Type(c, "line one")
	c.KeyDown(&fyne.KeyEvent{Name: "LeftShift"})
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	c.KeyUp(&fyne.KeyEvent{Name: "LeftShift"})
	test.Type(c, "line two")
	if c.Text != "line one\nline two" {
		t.Fatalf("composer = %q", c.Text)
	}
	if u.chat.session != nil {
		t.Fatal("Shift+Enter sent the prompt")
	}
}

func TestApprovalModalDenyAndAllowOnce(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	write := func(name string) llmtest.Reply {
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"` + name + `","content":"hi\n"}`}}}
	}
	server.Push(write("denied.txt"), llmtest.Reply{Text: "ok, not written"}, write("allowed.txt"), llmtest.Reply{Text: "written"})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)

	u.chat.onSend("write denied.txt")
	h.loop.waitFor(t, "the approval modal", func() bool { return u.chat.approvals.current != nil })
	modal := topOverlay(u.main)
	text := allText(modal)
	if !strings.Contains(text, "Allow write_file?") || !strings.Contains(text, "+hi") || !strings.Contains(text, "Always allow for this session") {
		t.Fatalf("modal shows:\n%s", text)
	}
	test.Tap(findButton(modal, "Deny"))
	h.loop.waitFor(t, "the turn after a denial", func() bool { return strings.Contains(windowText(u.main), "ok, not written") })
	if _, err := os.Stat(filepath.Join(h.project, "denied.txt")); err == nil {
		t.Fatal("denied file was written")
	}

	now := time.Now()
	u.chat.approvals.now = func() time.Time { return now }
	u.chat.onSend("write allowed.txt")
	h.loop.waitFor(t, "the second modal", func() bool { return u.chat.approvals.current != nil })
	canvas := u.main.Canvas()
	allow := func() { canvas.(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(allowShortcut) }
	// No plain key allows, and nothing does within the guard time.
	for _, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace, fyne.KeyY} {
		canvas.OnTypedKey()(&fyne.KeyEvent{Name: k})
	}
	allow()
	canvas.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.loop.runQueued()
	if u.chat.approvals.current == nil {
		t.Fatal("a key answered the approval dialog within the guard time, or a plain key allowed")
	}
	now = now.Add(keyGuard)
	canvas.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if u.chat.approvals.current == nil {
		t.Fatal("Enter answered the approval dialog")
	}
	allow() // Ctrl/Cmd+Enter = Allow once
	h.loop.waitFor(t, "the file", func() bool { _, err := os.Stat(filepath.Join(h.project, "allowed.txt")); return err == nil })
	h.loop.waitFor(t, "the answer", func() bool { return strings.Contains(windowText(u.main), "written") && u.chat.approvals.current == nil })
}

func TestStopCancelsTheTurnAndReturnsQueuedPrompts(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	hold := make(chan struct{})
	defer close(hold)
	server.Push(llmtest.Reply{Text: "a long answer", Hold: hold})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	u.chat.onSend("first")
	h.loop.waitFor(t, "the request", func() bool { return len(server.Requests()) == 1 })
	h.loop.waitFor(t, "streaming", func() bool { return u.chat.st.Streaming })
	h.relayout(u.main)
	if !strings.Contains(windowText(u.main), "streaming…") {
		t.Error("the status bar must say the answer is streaming")
	}
	u.chat.onSend("second")
	h.loop.waitFor(t, "the queue label", func() bool { return strings.Contains(windowText(u.main), "queued: second") })
	u.chat.composer.SetText("a draft in progress") // Stop must not drop the queue because of it
	test.Tap(u.chat.stopBtn)
	h.loop.waitFor(t, "the stop", func() bool { return strings.Contains(windowText(u.main), "Stopped.") })
	if u.chat.composer.Text != "second\n\na draft in progress" {
		t.Fatalf("queued prompt and draft not both in the composer: %q", u.chat.composer.Text)
	}
}

func TestChipsContextMarkersAndHookNotices(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	u.chat.onSend("hi")
	h.loop.waitFor(t, "the answer", func() bool { return len(u.chat.transcript.items) == 2 && !u.chat.session.Busy() })
	tv := u.chat.transcript
	tv.add(agent.Entry{Role: agent.RoleHost, Host: &agent.Host{Kind: agent.HostStatus, Label: "Ponytail", Text: "PONYTAIL:FULL"}})
	tv.add(agent.Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartContext, Source: "ponytail", Event: "UserPromptSubmit", Text: "RULESET"}, {Kind: llm.PartText, Text: "my words"}}})
	tv.add(agent.Entry{Role: agent.RoleHost, Host: &agent.Host{Kind: agent.HostNotice, Extension: true, Label: "Ponytail", Text: "Ponytail: `node` was not found"}})
	h.loop.runQueued()
	h.relayout(u.main)
	text := windowText(u.main)
	for _, want := range []string{"◆ Ponytail: PONYTAIL:FULL", "ponytail added context (UserPromptSubmit)", "my words", "`node` was not found", "Open Agent Extensions"} {
		if !strings.Contains(text, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if strings.Contains(text, "RULESET") {
		t.Fatal("hidden context shown before the marker is expanded")
	}
	test.Tap(findButton(u.main.Content(), "ponytail added context"))
	h.relayout(u.main)
	if !strings.Contains(windowText(u.main), "RULESET") {
		t.Fatal("expanding the marker must show the context")
	}
	test.Tap(findButton(u.main.Content(), "Open Agent Extensions"))
	if u.prefs == nil || !u.prefs.win.Content().Visible() {
		t.Fatal("the notice's button must open Preferences")
	}
}

// An MCP server or tool that is unavailable is not a failing hook: the
// status bar's hook word changes only for a hook's failure.
func TestStatusBarCountsOnlyHookFailures(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	h.loop.runQueued()
	before := u.chat.st.Hooks
	u.chat.onEntry(agent.Entry{Role: agent.RoleHost, Host: &agent.Host{Kind: agent.HostNotice, Extension: true, Event: agent.EventMCP,
		Label: "Probe", Text: "Probe › fix: tool broken is left out"}})
	if u.chat.st.Hooks != before {
		t.Errorf("an MCP notice set the hooks word to %q", u.chat.st.Hooks)
	}
	u.chat.onEntry(agent.Entry{Role: agent.RoleHost, Host: &agent.Host{Kind: agent.HostNotice, Extension: true,
		Label: "Ponytail", Text: "Ponytail: `node` was not found"}})
	if u.chat.st.Hooks != "hooks: Ponytail failing" {
		t.Errorf("a hook failure set the hooks word to %q", u.chat.st.Hooks)
	}
}

func TestTranscriptHandlesManyMessages(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	var entries []agent.Entry
	for i := 0; i < 5000; i++ {
		role := llm.RoleUser
		if i%2 == 1 {
			role = llm.RoleAssistant
		}
		entries = append(entries, agent.Entry{Seq: int64(i + 1), Role: role, Parts: []llm.Part{{Kind: llm.PartText, Text: "message " + string(rune('a'+i%26))}}})
	}
	u.chat.transcript.setEntries("s", entries)
	h.relayout(u.main)
	if n := u.chat.transcript.length(); n != 5000 {
		t.Fatalf("rows = %d", n)
	}
	built := 0
	for _, it := range u.chat.transcript.items {
		if it.obj != nil {
			built++
		}
	}
	if built == 0 || built > 200 {
		t.Fatalf("%d rows rendered: the list must build only what is visible", built)
	}
}

func TestRalphRoundsFoldIntoOneRowWithTheirChildTranscript(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	tv := u.chat.transcript
	tv.setEntries("parent", nil)
	round := func(status string) agent.Entry {
		return agent.Entry{Session: "parent", Role: agent.RoleHost, Host: &agent.Host{Kind: agent.HostRalph, Child: "child1", Round: 1, Rounds: 3, Status: status, Text: "task"}}
	}
	tv.add(round(agent.RalphRunning))
	tv.add(agent.Entry{Session: "child1", Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "Task: build it"}}})
	tv.add(agent.Entry{Session: "child1", Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: "built part one"}}})
	tv.add(round(agent.RalphContinue))
	h.loop.runQueued()
	if len(tv.items) != 1 {
		t.Fatalf("%d rows, want the round folded into one", len(tv.items))
	}
	h.relayout(u.main)
	text := windowText(u.main)
	if !strings.Contains(text, "Ralph round 1/3 — continuing") || strings.Contains(text, "built part one") {
		t.Fatalf("collapsed round:\n%s", text)
	}
	test.Tap(findButton(u.main.Content(), "Ralph round 1/3"))
	h.relayout(u.main)
	if text := windowText(u.main); !strings.Contains(text, "› Task: build it") || !strings.Contains(text, "built part one") {
		t.Fatalf("expanded round lacks the child transcript:\n%s", text)
	}
}

// A reader who scrolled up stays where they are while the answer grows;
// at the end, or after sending a prompt, the view follows again.
func TestTranscriptFollowsOnlyAReaderAtTheEnd(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	tv := u.chat.transcript
	frame := func() { // what the driver does between two pump frames
		h.relayout(u.main)
		h.loop.runQueued()
	}
	text := func(role llm.Role, s string) agent.Entry {
		return agent.Entry{Role: role, Session: "s", Parts: []llm.Part{{Kind: llm.PartText, Text: s}}}
	}
	var entries []agent.Entry
	for i := range 60 {
		entries = append(entries, text(llm.RoleAssistant, fmt.Sprintf("answer %d", i)))
	}
	tv.setEntries("s", entries)
	frame()
	if !tv.atBottom() || tv.list.GetScrollOffset() == 0 {
		t.Fatalf("an opened session must show its end (offset %v)", tv.list.GetScrollOffset())
	}

	// An answer streams in, growing one row frame after frame: the view
	// keeps its end in sight all along.
	var streamed strings.Builder
	last := tv.list.GetScrollOffset()
	for v := range 30 {
		streamed.WriteString(fmt.Sprintf("streamed line %d\n\n", v))
		tv.setStream(agent.Stream{Active: true, Version: v + 1, Text: streamed.String()})
		if off := tv.list.GetScrollOffset(); off < last {
			t.Fatalf("frame %d: the view jumped up from %v to %v while following (flicker)", v, last, off)
		}
		frame()
		last = tv.list.GetScrollOffset()
		if !tv.atBottom() {
			t.Fatalf("frame %d: offset %v, the growing answer's end is out of sight", v, tv.list.GetScrollOffset())
		}
	}
	tv.add(text(llm.RoleAssistant, streamed.String()))
	frame()
	if !tv.atBottom() {
		t.Fatalf("offset %v: the final answer's end is out of sight", tv.list.GetScrollOffset())
	}

	// The reader scrolls up between a frame and the scroll that settles it
	// (input is handled between the two): the view stays where they put it.
	streamed.WriteString("one more line\n\n")
	tv.setStream(agent.Stream{Active: true, Version: 31, Text: streamed.String()})
	if !tv.settleQueued {
		t.Fatal("a growing row at the end must queue a settle")
	}
	tv.list.ScrollToOffset(40)
	frame()
	if off := tv.list.GetScrollOffset(); off != 40 {
		t.Fatalf("offset = %v: the settle overrode the reader's scroll", off)
	}
	tv.list.ScrollToBottom()
	frame()

	// The reader scrolls to the top; a streamed answer and a new message
	// arrive: the view stays put.
	tv.list.ScrollToOffset(0)
	frame()
	tv.setStream(agent.Stream{Active: true, Version: 100, Text: strings.Repeat("streamed line\n", 40)})
	frame()
	tv.add(text(llm.RoleAssistant, "final answer"))
	frame()
	if off := tv.list.GetScrollOffset(); off != 0 {
		t.Fatalf("offset = %v after new content: the reader was pulled away from what they were reading", off)
	}

	// Back at the end, new rows come into view again.
	tv.list.ScrollToBottom()
	frame()
	before := tv.list.GetScrollOffset()
	tv.add(text(llm.RoleAssistant, "another answer"))
	frame()
	if !tv.atBottom() || tv.list.GetScrollOffset() <= before {
		t.Fatalf("offset %v → %v: a reader at the end must follow new rows", before, tv.list.GetScrollOffset())
	}

	// Scrolled up again, the reader's own prompt brings the end back.
	tv.list.ScrollToOffset(0)
	frame()
	tv.add(text(llm.RoleUser, "my next question"))
	frame()
	if !tv.atBottom() {
		t.Fatalf("offset %v: sending a prompt must show the end", tv.list.GetScrollOffset())
	}
}

func TestDiffBlockColoursLines(t *testing.T) {
	block := diffBlock("--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n-old\n+new\n same\n")
	var rt *widget.RichText
	for _, o := range block.(*fyne.Container).Objects {
		if r, ok := o.(*widget.RichText); ok {
			rt = r
		}
	}
	want := []fyne.ThemeColorName{theme.ColorNameForeground, theme.ColorNameForeground, theme.ColorNamePrimary,
		theme.ColorNameError, theme.ColorNameSuccess, theme.ColorNameForeground}
	if rt == nil || len(rt.Segments) != len(want) {
		t.Fatalf("segments = %v, want one per line", rt)
	}
	for i, seg := range rt.Segments {
		ts := seg.(*widget.TextSegment)
		if ts.Style.ColorName != want[i] || !ts.Style.TextStyle.Monospace {
			t.Errorf("line %d %q: colour %q, want %q in monospace", i, ts.Text, ts.Style.ColorName, want[i])
		}
	}
}

// A first prompt sent while the project's sessions are still loading
// owns the view: the "resume the latest session" of the load must not
// replace it with another copy of that same, still empty, session.
func TestFirstPromptWinsOverResumingTheLatestSession(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Respond(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: "answer to " + r.LastMessage().Texts[0]}
	})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	for i := range 25 { // the two background calls finish in either order
		u.chat.closeSession()
		prompt := fmt.Sprintf("prompt %d", i)
		u.chat.reloadSessions(true)
		u.chat.onSend(prompt)
		h.loop.waitFor(t, "the answer to "+prompt, func() bool {
			s := u.chat.session
			return s != nil && !s.Busy() && strings.Contains(allText(u.chat.transcript.list), "answer to "+prompt)
		})
	}
}

// A call an extension asked about or rewrote shows why, the rewrite and
// the original, and offers no "always".
func TestApprovalForcedByAnExtension(t *testing.T) {
	a := &approvalDialogs{}
	obj := a.content(agent.ApprovalRequest{Tool: "run_command", Summary: "run_command ls -la",
		Preview: tools.Preview{Command: "ls -la", Dir: "/p"}, Forced: "Guard rewrote this call; check the rewrite against the original",
		Original: &tools.Preview{Command: "rm -rf build", Dir: "/p"}, OriginalSummary: "run_command rm -rf build"})
	text := allText(obj)
	for _, want := range []string{"Guard rewrote this call", "ls -la", "rm -rf build", "Instead of what the model wrote (this does not run)"} {
		if !strings.Contains(text, want) {
			t.Errorf("dialog lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Always allow") {
		t.Error("a forced approval must not offer 'always'")
	}
	if !strings.Contains(text, "Allow once") || findButton(obj, "Deny") == nil {
		t.Error("Allow once and Deny must stay")
	}
}

// A prompt the model never answered comes back to the composer with why
// beside it, and is not sent again with the next prompt.
func TestUnansweredPromptReturnsToTheComposer(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Status: 500, ErrorBody: llmtest.OpenAIError(500, "server melted", "server_error")}, llmtest.Reply{Text: "fine now"})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	u.chat.onSend("explain the parser")
	h.loop.waitFor(t, "the prompt back", func() bool { return u.chat.composer.Text == "explain the parser" })
	if !u.chat.unsentNote.Visible() || !strings.Contains(u.chat.unsentNote.Text, "Not answered") {
		t.Fatalf("note = %q (visible %v)", u.chat.unsentNote.Text, u.chat.unsentNote.Visible())
	}
	u.chat.onSend(u.chat.composer.Text)
	h.loop.waitFor(t, "the answer", func() bool { return strings.Contains(allText(u.chat.transcript.list), "fine now") })
	if u.chat.unsentNote.Visible() {
		t.Error("the note must go once the prompt is sent again")
	}
	last := server.Requests()[len(server.Requests())-1]
	n := 0
	for _, m := range last.Messages {
		if m.Role == "user" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d user messages sent; the failed one must not be glued to the new one", n)
	}
}
