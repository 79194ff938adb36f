package ui

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/agent/tools"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// The approval dialog shows a call as it runs: a bidi override or an
// escape sequence the model or a hook wrote is a visible escape, never
// raw.
func TestApprovalDialogShowsEscapesVisibly(t *testing.T) {
	a := &approvalDialogs{}
	obj := a.content(agent.ApprovalRequest{Tool: "run_command", Summary: "run_command rm -rf ~\u202e/gnp.sj",
		Preview: tools.Preview{Command: "rm -rf ~\u202e/gnp.sj \x1b[2J", Dir: "/p"}, Forced: "Guard\x1b]0;t\x07 asked",
		Original: &tools.Preview{Diff: "+x\x1b[1A\u009b\n"}, OriginalSummary: "edit_file x"})
	text := allText(obj)
	if r, found := safetext.FindUnsafe(text); found {
		t.Fatalf("raw %U in the dialog:\n%q", r, text)
	}
	for _, want := range []string{`rm -rf ~\u202e/gnp.sj \x1b[2J`, `+x\x1b[1A\u009b`, `Guard\x1b]0;t\x07 asked`} {
		if !strings.Contains(text, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, text)
		}
	}
}

// What the model and the server send reaches the transcript, the status
// and the composer's note without a raw control character.
func TestTranscriptShowsNoRawControlCharacters(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Reasoning: "think \x1b[2J\u202e", Text: "answer \x1b]0;pwned\x07 \u202eok\u200b",
		ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"no\u202eexist\u009b.txt"}`}}},
		llmtest.Reply{Text: "done \x1b[31mred\x1b[0m"},
		llmtest.Reply{Status: 500, ErrorBody: llmtest.OpenAIError(500, "melted \x1b[2J\u202e down", "server_error")})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	u.chat.onSend("go")
	h.loop.waitFor(t, "the answer", func() bool { return strings.Contains(allText(u.chat.transcript.list), "done red") })
	u.chat.onSend("again")
	h.loop.waitFor(t, "the server's error", func() bool { return strings.Contains(windowText(u.main), "melted") })
	text := windowText(u.main)
	if r, found := safetext.FindUnsafe(text); found {
		t.Fatalf("raw %U shown:\n%q", r, text)
	}
	for _, want := range []string{"answer  ok", `no\u202eexist\u009b.txt`, "melted  down"} {
		if !strings.Contains(text, want) {
			t.Errorf("the window lacks %q:\n%s", want, text)
		}
	}
}

// An update's summary on the card quotes the package: versions cleaned,
// hook commands exactly with escapes visible.
func TestUpdateSummaryIsSafe(t *testing.T) {
	res := extensions.UpdateResult{OldCommit: "aaaaaaaaaaaa1", NewCommit: "bbbbbbbbbbbb2", OldVersion: "1.0\x1b[2J",
		Info:  extensions.Info{Version: "2.0\u202e"},
		Hooks: manifest.HookDiff{Added: []manifest.Hook{{Event: "SessionStart", Argv: []string{"run\u202e", "\x1b]0;t\x07"}}}}}
	text := updateSummary(res)
	if r, found := safetext.FindUnsafe(text); found {
		t.Fatalf("raw %U in %q", r, text)
	}
	if !strings.Contains(text, "1.0 → 2.0") || !strings.Contains(text, `run\u202e`) {
		t.Fatalf("summary = %q", text)
	}
}
