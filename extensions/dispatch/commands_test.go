//go:build unix

package dispatch

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// probeCommands is a plugin with slash commands (arguments, variables,
// inline shell, a manifest path) and a UserPromptSubmit hook recording
// its stdin.
func probeCommands() map[string]gittest.File {
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "probe", "commands": "./extra/deploy.md"}`},
		"commands/review.md": {Body: "---\ndescription: Review a pull request\nargument-hint: [pr] [priority]\n" +
			"allowed-tools: Bash(git diff:*)\nmodel: haiku\n---\n" +
			"PROBE-REVIEW pr=$1 priority=$2 all=[$ARGUMENTS] guide=${CLAUDE_PLUGIN_ROOT}/guide.md\nStatus: !`git status`\n"},
		"commands/shared.md": {Body: "---\ndescription: \"\\e[31mred\\e[0m \\u202Eshared\"\n---\nPROBE-SHARED\n"},
		"extra/deploy.md":    {Body: "PROBE-DEPLOY to ${CLAUDE_PROJECT_DIR}\n"},
		"hooks/hooks.json": {Body: `{"hooks": {"UserPromptSubmit": [{"hooks": [
			{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/record.sh"}]}]}}`},
		"hooks/record.sh": {Body: "#!/bin/sh\ncat > \"$CLAUDE_PLUGIN_DATA/prompt.json\"\n", Mode: 0o755},
	}
}

// otherCommands conflicts with probe on /shared and with a host command
// on /help.
func otherCommands() map[string]gittest.File {
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "other"}`},
		"commands/shared.md":         {Body: "OTHER-SHARED\n"},
		"commands/help.md":           {Body: "OTHER-HELP\n"},
	}
}

func newCommandsEnv(t *testing.T) *loopEnv {
	return newLoopEnv(t, map[string]*gittest.Repo{"probe": repo(t, probeCommands()), "other": repo(t, otherCommands())}, "other", "probe")
}

func names(set lifecycle.CommandSet) []string {
	var out []string
	for _, c := range set.Commands {
		out = append(out, c.Name)
	}
	return out
}

func TestCommandsRegistry(t *testing.T) {
	l := newCommandsEnv(t)
	set := l.disp.Commands(context.Background(), "", []string{"help", "new"})
	want := []string{"deploy", "review", "other:help", "other:shared", "probe:deploy", "probe:review", "probe:shared"}
	if !slices.Equal(names(set), want) {
		t.Fatalf("commands %q, want %q", names(set), want)
	}
	wantConflicts := []lifecycle.CommandConflict{{Name: "shared", Sources: []string{"other", "probe"}}, {Name: "help", Sources: []string{"other"}, Host: true}}
	if len(set.Conflicts) != 2 || !slices.ContainsFunc(set.Conflicts, func(c lifecycle.CommandConflict) bool {
		return c.Name == "shared" && slices.Equal(c.Sources, wantConflicts[0].Sources) && !c.Host
	}) || !slices.ContainsFunc(set.Conflicts, func(c lifecycle.CommandConflict) bool { return c.Name == "help" && c.Host }) {
		t.Fatalf("conflicts %+v, want %+v", set.Conflicts, wantConflicts)
	}
	review := set.Commands[1]
	if review.Extension != "probe" || review.Description != "Review a pull request" || review.ArgumentHint != "[pr] [priority]" ||
		!slices.Equal(review.AllowedTools, []string{"Bash(git diff:*)"}) {
		t.Errorf("review %+v", review)
	}
	if shared := set.Commands[len(set.Commands)-1]; shared.Name != "probe:shared" || shared.Description != "red shared" {
		t.Errorf("probe:shared %+v: its description must reach the window without escapes", shared)
	}
	info, err := l.m.Show(context.Background(), "probe")
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Commands) != 3 || !slicesHas(info.Diagnostics, `command /review asks for model "haiku": ignored`) {
		t.Errorf("info commands %+v, diagnostics %q", info.Commands, info.Diagnostics)
	}

	// Disabling removes its commands at once, and /shared becomes unique.
	if _, err := l.m.Disable(context.Background(), "other"); err != nil {
		t.Fatal(err)
	}
	set = l.disp.Commands(context.Background(), "", nil)
	if want := []string{"deploy", "review", "shared", "probe:deploy", "probe:review", "probe:shared"}; !slices.Equal(names(set), want) || len(set.Conflicts) != 0 {
		t.Fatalf("after disable: commands %q conflicts %+v", names(set), set.Conflicts)
	}
	if err := l.m.Uninstall(context.Background(), "probe"); err != nil {
		t.Fatal(err)
	}
	if set = l.disp.Commands(context.Background(), "", nil); len(set.Commands) != 0 {
		t.Fatalf("after uninstall: %q", names(set))
	}
}

func slicesHas(list []string, substr string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, substr) })
}

func TestCommandsRunThroughTheLoop(t *testing.T) {
	l := newCommandsEnv(t)
	s := l.session()
	typed := `/review 12 "very high"`
	r := l.send(s, typed)
	sent := strings.Join(r.LastMessage().Texts, "\n")
	dir := l.info.Dir // probe was enabled last
	want := `PROBE-REVIEW pr=12 priority=very high all=[12 "very high"] guide=` + dir + "/guide.md\nStatus: (not run: git status)"
	if !strings.Contains(sent, want) || strings.Contains(sent, typed) {
		t.Fatalf("the model got %q, want the expansion %q", sent, want)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(l.dataFile("prompt.json")), &in); err != nil {
		t.Fatal(err)
	}
	if in["prompt"] != typed {
		t.Fatalf("UserPromptSubmit prompt = %v, want the text as typed", in["prompt"])
	}
	users := userEntries(s)
	if len(users) != 1 || users[0].Typed != typed || s.Title() != typed {
		t.Fatalf("user entries %+v, title %q", users, s.Title())
	}
	if notes := hosts(s, agent.HostNotice); len(notes) != 1 || !strings.Contains(notes[0], "not run") {
		t.Errorf("notices %q", notes)
	}

	// Namespaced, appended arguments, a manifest path, the project variable.
	for prompt, want := range map[string]string{
		"/other:shared x y": "OTHER-SHARED\n\nARGUMENTS: x y",
		"/probe:shared":     "PROBE-SHARED",
		"/deploy":           "PROBE-DEPLOY to " + s.Project(),
		"/usr/bin is gone":  "/usr/bin is gone",
	} {
		r := l.send(s, prompt)
		if got := r.LastMessage().Texts; got[len(got)-1] != want {
			t.Errorf("%s sent %q, want %q", prompt, got, want)
		}
	}
	n := len(l.model.Requests())
	s.Submit("/shared")
	l.idle(s)
	if len(l.model.Requests()) != n {
		t.Error("an ambiguous command reached the model")
	}
	if notes := hosts(s, agent.HostError); !slicesHas(notes, "type /other:shared or /probe:shared") {
		t.Errorf("notices %q", notes)
	}
}

func userEntries(s *agent.Session) []agent.Entry {
	var out []agent.Entry
	for _, e := range s.Entries() {
		if e.Role == llm.RoleUser {
			out = append(out, e)
		}
	}
	return out
}
