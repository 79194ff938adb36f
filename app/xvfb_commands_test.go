//go:build xvfb

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestXvfbSlashCompletion: with an extension's commands enabled, "/" in
// the real window's composer lists AgentDesk's commands then the
// extension's; Down, Tab and arguments run one, and the transcript shows
// what was typed while the model got the command's text.
func TestXvfbSlashCompletion(t *testing.T) {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "probe", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "reviewkit", "interface": {"displayName": "Review Kit"}}`},
		"commands/review.md":         {Body: "---\ndescription: Review a pull request for bugs and style\nargument-hint: [pr-number] [priority]\n---\nReview pull request $1 (priority $2).\n"},
		"commands/release-notes.md":  {Body: "---\ndescription: Draft release notes since a tag\nargument-hint: [since-tag]\n---\nDraft release notes since $1.\n"},
		"commands/triage.md":         {Body: "---\ndescription: Triage open issues by label\n---\nTriage the open issues.\n"},
	})
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"reviewkit": r})
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "Reviewing PR 42 now."})

	home, project := homeWithPlugin(t, srv, "reviewkit")

	x := startXvfb(t)
	appEnv := []string{"AGENTDESK_PROJECT=" + project, "AGENTDESK_BASE_URL=" + server.URL, "AGENTDESK_MODEL=" + llmtest.ModelName}
	a, win := openWindow(t, x, "AgentDesk — project", func() *runningApp { return launch(t, x, home, appEnv) })
	a.dump("Ask anything about this project")
	x.typeText(win, "/")
	text := a.dump("/review [pr-number] [priority] — Review a pull request")
	if strings.Index(text, "/compact") > strings.Index(text, "/review") {
		t.Errorf("AgentDesk's commands must come first:\n%s", text)
	}
	t.Logf("screenshot: %s", x.screenshot(win, "slash-completion.png"))
	x.typeText(win, "rev")
	x.keys(win, "Tab")
	x.typeText(win, "42 high")
	time.Sleep(300 * time.Millisecond) // the dump does not show the composer's text
	x.keys(win, "Return")
	a.dump("assistant: Reviewing PR 42 now.")
	if got := server.Requests()[0].LastMessage().Texts; len(got) != 1 || got[0] != "Review pull request 42 (priority high)." {
		t.Fatalf("the model got %q", got)
	}
	if text := a.dump("[typed /review 42 high]"); !strings.Contains(text, "Review pull request 42") {
		t.Fatalf("transcript:\n%s", text)
	}
	t.Logf("screenshot: %s", x.screenshot(win, "slash-command.png"))
	a.quit()
}
