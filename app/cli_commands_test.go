package main

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestRunSlashCommand: `agentdesk run "/x args"` sends the extension
// command's text, `ext show` lists the commands and names a conflict with
// a host command, and an ambiguous or host-shadowed name is handled the
// same way as in the window.
func TestRunSlashCommand(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	c, url := cliWithRepo(t, "probe", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "probe"}`},
		"commands/review.md":         {Body: "---\ndescription: Review a PR\nargument-hint: [pr]\nallowed-tools: Read\n---\nREVIEW-BODY pr=$1 root=${CLAUDE_PLUGIN_ROOT}\nLog: !`git log -1`\n"},
		"commands/help.md":           {Body: "PROBE-HELP\n"},
	})
	c.env = append(c.env, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m")
	c.ok("ext", "install", url)
	if out := c.ok("ext", "enable", "probe", "--yes"); !strings.Contains(out, "It adds these slash commands") || !strings.Contains(out, "/help /review") {
		t.Errorf("ext enable does not name the commands:\n%s", out)
	}
	show := c.ok("ext", "show", "probe")
	for _, want := range []string{"command /review [pr] — Review a PR", "allowed-tools (shown only, approvals still asked): Read",
		"command /help conflicts with AgentDesk's own /help: type /probe:help"} {
		if !strings.Contains(show, want) {
			t.Errorf("ext show lacks %q:\n%s", want, show)
		}
	}

	project := t.TempDir()
	_, errOut, code := c.run("", "run", "--project", project, "/review 7")
	if code != 0 || !strings.Contains(errOut, "» /review 7: the model gets the command's text") || !strings.Contains(errOut, "1 inline shell command not run") {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	got := strings.Join(server.Requests()[0].LastMessage().Texts, "\n")
	if !strings.HasPrefix(got, "REVIEW-BODY pr=7 root="+c.home) || !strings.Contains(got, "Log: (not run: git log -1)") {
		t.Fatalf("the model got %q", got)
	}
	if _, errOut, _ = c.run("", "run", "--project", project, "/probe:help"); !strings.Contains(errOut, "» /probe:help") {
		t.Fatalf("namespaced run:\n%s", errOut)
	}
	if last := server.Requests()[1].LastMessage().Texts; last[len(last)-1] != "PROBE-HELP" {
		t.Fatalf("the model got %q", last)
	}
}
