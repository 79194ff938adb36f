package agent

import (
	"context"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// HostCommands are handled by AgentDesk itself: they never reach hooks or
// the model. Any other "/word" is an ordinary prompt (extensions such as
// Ponytail read their own "/ponytail …" from UserPromptSubmit).
var HostCommands = []struct{ Name, Usage, Help string }{
	{"/compact", "/compact [INSTRUCTIONS]", "summarise older messages to free context"},
	{"/ralph", "/ralph [--rounds N] TASK", "run fresh-context rounds on a task until it is done"},
	{"/new", "/new", "start a new session"},
	{"/output-style", "/output-style [NAME]", "list the output styles, or choose one from the next turn on"},
	{"/help", "/help", "list these commands"},
}

// IsHostCommand reports whether text is one of HostCommands.
func IsHostCommand(text string) bool {
	name, _ := splitCommand(text)
	for _, c := range HostCommands {
		if c.Name == name {
			return true
		}
	}
	return false
}

func splitCommand(text string) (name, args string) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") {
		return "", ""
	}
	name, args, _ = strings.Cut(text, " ")
	if i := strings.IndexAny(name, "\n\t"); i >= 0 {
		name, args = name[:i], text[i:]
	}
	return name, strings.TrimSpace(args)
}

// hostCommand runs text if it is a host command.
func (s *Session) hostCommand(ctx context.Context, text string) bool {
	name, args := splitCommand(text)
	switch name {
	case "/compact":
		if err := s.compact(ctx, 0, compaction{why: "you asked (/compact)", trigger: lifecycle.CompactManual, instructions: args}); err != nil {
			s.fail(ctx, err)
		}
	case "/ralph":
		s.ralph(ctx, args)
	case "/output-style":
		s.outputStyleCommand(ctx, args)
	case "/new":
		s.host(ctx, Host{Kind: HostInfo, Text: "Start a new session with + New (Ctrl+N), or `agentdesk run --new` on the command line."})
	case "/help":
		var b strings.Builder
		b.WriteString("Commands handled by AgentDesk (never sent to the model or to hooks):")
		for _, c := range HostCommands {
			b.WriteString("\n" + c.Usage + " — " + c.Help)
		}
		b.WriteString(s.commandsHelp())
		s.host(ctx, Host{Kind: HostInfo, Text: b.String()})
	default:
		return false
	}
	return true
}
