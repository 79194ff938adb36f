package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
)

// fakeCommands knows /review (of extension "probe") and an ambiguous /dup.
type fakeCommands struct{ reserved []string }

func (f *fakeCommands) Commands(_ context.Context, _ string, reserved []string) lifecycle.CommandSet {
	f.reserved = reserved
	return lifecycle.CommandSet{Commands: []lifecycle.Command{{Name: "review", Extension: "probe", ArgumentHint: "[pr]", Description: "Review\n a PR"}},
		Conflicts: []lifecycle.CommandConflict{{Name: "dup", Sources: []string{"a", "b"}}, {Name: "help", Sources: []string{"c"}, Host: true}}}
}

func (f *fakeCommands) Expand(_ context.Context, name, args, project string) (lifecycle.Expansion, error) {
	switch name {
	case "review", "probe:review":
		return lifecycle.Expansion{Command: lifecycle.Command{Name: name, Extension: "probe", Label: "Probe"},
			Prompt: "EXPANDED review of " + args + " in " + project, NotRun: []string{"git status"}}, nil
	case "dup":
		return lifecycle.Expansion{}, errors.New("/dup is a command of 2 extensions: type /a:dup or /b:dup")
	}
	return lifecycle.Expansion{}, lifecycle.ErrUnknownCommand
}

func TestSlashCommandTypedShownExpandedSent(t *testing.T) {
	e := newEnv(t)
	e.commands = &fakeCommands{}
	e.open()
	s := e.newSession()
	e.send(s, "/review  src/x.go")
	req := e.server.Requests()[0]
	if got := joined(req.LastMessage()); got != "EXPANDED review of src/x.go in "+e.project.Path {
		t.Fatalf("the model got %q", got)
	}
	if n := e.life.count("UserPromptSubmit:/review  src/x.go"); n != 1 {
		t.Fatalf("UserPromptSubmit calls %q, want the text as typed once", e.life.Calls())
	}
	if s.Title() != "/review  src/x.go" {
		t.Errorf("title %q", s.Title())
	}
	notes := hostTexts(s, HostNotice)
	if len(notes) != 1 || !strings.Contains(notes[0], "/review: 1 inline shell command not run") || !strings.Contains(notes[0], "git status") {
		t.Errorf("notices %q", notes)
	}
	// The transcript, also reopened, shows the command as typed.
	for _, entries := range [][]Entry{s.Entries(), e.resume(s.ID()).Entries()} {
		i := slices.IndexFunc(entries, func(en Entry) bool { return en.Role == llm.RoleUser })
		if i < 0 || entries[i].Typed != "/review  src/x.go" {
			t.Fatalf("user entry %+v", entries)
		}
	}
}

func TestSlashTextThatIsNoCommandIsAPrompt(t *testing.T) {
	e := newEnv(t)
	e.commands = &fakeCommands{}
	e.open()
	s := e.newSession()
	for _, text := range []string{"/usr/bin is empty?", "/unknown thing"} {
		e.send(s, text)
		reqs := e.server.Requests()
		if got := joined(reqs[len(reqs)-1].LastMessage()); got != text {
			t.Errorf("sent %q, want %q as typed", got, text)
		}
	}
	for _, en := range s.Entries() {
		if en.Typed != "" {
			t.Errorf("entry %+v keeps a typed text though nothing was expanded", en)
		}
	}
}

func TestAmbiguousSlashCommandIsNotSent(t *testing.T) {
	e := newEnv(t)
	e.commands = &fakeCommands{}
	e.open()
	s := e.newSession()
	e.send(s, "/dup x")
	if n := len(e.server.Requests()); n != 0 {
		t.Fatalf("%d model requests for an ambiguous command", n)
	}
	if e.life.count("UserPromptSubmit:") != 0 {
		t.Error("UserPromptSubmit fired for a prompt that was not sent")
	}
	notes := hostTexts(s, HostError)
	if len(notes) != 1 || !strings.Contains(notes[0], "type /a:dup or /b:dup") || !strings.Contains(notes[0], `"/dup x"`) {
		t.Fatalf("notices %q", notes)
	}
}

func TestAgentCommandsReserveHostCommands(t *testing.T) {
	e := newEnv(t)
	fake := &fakeCommands{}
	e.commands = fake
	e.open()
	if set := e.agent.Commands(); len(set.Commands) != 1 {
		t.Fatalf("commands %+v", set)
	}
	if want := []string{"compact", "ralph", "new", "output-style", "help"}; !slices.Equal(fake.reserved, want) {
		t.Errorf("reserved %q, want %q", fake.reserved, want)
	}
}

func TestHelpListsExtensionCommands(t *testing.T) {
	e := newEnv(t)
	e.commands = &fakeCommands{}
	e.open()
	s := e.newSession()
	e.send(s, "/help")
	info := hostTexts(s, HostInfo)
	if len(info) != 1 {
		t.Fatalf("info %q", info)
	}
	for _, want := range []string{"/compact", "Commands of enabled extensions", "/review [pr] — Review a PR",
		"/dup is defined by a and b: type the extension's prefix", "/help is defined by AgentDesk and c"} {
		if !strings.Contains(info[0], want) {
			t.Errorf("/help lacks %q:\n%s", want, info[0])
		}
	}
}

// UserPromptExpansion fires once the command is expanded, before
// UserPromptSubmit; its context joins the turn's user message.
func TestUserPromptExpansionSeesTheExpansionAndAddsContext(t *testing.T) {
	e := newEnv(t)
	e.commands = &fakeCommands{}
	e.open()
	e.life.setEnabled("gate")
	e.life.expansion = func(lifecycle.ExpansionEvent) lifecycle.Verdict {
		return lifecycle.Verdict{HookResult: lifecycle.HookResult{Blocks: []lifecycle.ContextBlock{
			{Source: "gate", Event: lifecycle.EventUserPromptExpansion, Text: "review in German"}}}}
	}
	s := e.newSession()
	e.send(s, "/probe:review 42")
	if calls := e.life.Calls(); slices.Index(calls, "UserPromptExpansion:probe:review") < 0 ||
		slices.Index(calls, "UserPromptExpansion:probe:review") > slices.Index(calls, "UserPromptSubmit:/probe:review 42") {
		t.Fatalf("calls %q: UserPromptExpansion must fire before UserPromptSubmit", calls)
	}
	ev := e.life.expansions[0]
	if ev.Command != "probe:review" || ev.Short != "review" || ev.Args != "42" || !strings.HasPrefix(ev.Prompt, "EXPANDED review of 42") || ev.SessionID != s.ID() {
		t.Fatalf("expansion event %+v", ev)
	}
	user := e.server.Requests()[0].LastMessage()
	if got := joined(user); !strings.Contains(got, "review in German") || !strings.Contains(got, "EXPANDED review of 42") {
		t.Fatalf("the user message lacks the hook's context or the expansion: %q", got)
	}
}

// A block keeps the command from being sent: no model call, no
// UserPromptSubmit, the reason in the chat and the text given back.
func TestUserPromptExpansionBlockSendsNothing(t *testing.T) {
	e := newEnv(t)
	e.commands = &fakeCommands{}
	e.open()
	e.life.expansion = func(lifecycle.ExpansionEvent) lifecycle.Verdict {
		return lifecycle.Verdict{Reasons: []lifecycle.Reason{{Source: "gate", Label: "Gate", Text: "no reviews on main"}}}
	}
	s := e.newSession()
	e.send(s, "/review 42")
	if n := len(e.server.Requests()); n != 0 {
		t.Fatalf("a blocked command reached the model (%d requests)", n)
	}
	if n := e.life.count("UserPromptSubmit"); n != 0 {
		t.Fatalf("UserPromptSubmit fired for a blocked command: %v", e.life.Calls())
	}
	var h *Host
	for _, en := range s.Entries() {
		if en.Host != nil && en.Host.Event == lifecycle.EventUserPromptExpansion {
			h = en.Host
		}
	}
	if h == nil || !strings.Contains(h.Text, "no reviews on main") || !strings.Contains(h.Text, "/review") || h.Prompt != "/review 42" {
		t.Fatalf("the chat must say why and give the text back: %+v", h)
	}
}
