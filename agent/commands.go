package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// hostCommandNames are the host commands without "/": extension commands
// never shadow them.
func hostCommandNames() []string {
	names := make([]string, len(HostCommands))
	for i, c := range HostCommands {
		names[i] = strings.TrimPrefix(c.Name, "/")
	}
	return names
}

// Commands lists the enabled extensions' slash commands, for completion
// and the command line; empty without extensions.
func (a *Agent) Commands() lifecycle.CommandSet { return a.commands(context.Background(), "") }

// commands is Commands for a session in project as the job ctx belongs
// to sees the extensions.
func (a *Agent) commands(ctx context.Context, project string) lifecycle.CommandSet {
	if a.cfg.Commands == nil {
		return lifecycle.CommandSet{}
	}
	return a.cfg.Commands.Commands(ctx, project, hostCommandNames())
}

// commandsHelp is the part of /help about the enabled extensions'
// commands: each name once with its hint and description, then the names
// that only run namespaced.
func (s *Session) commandsHelp() string {
	set := s.view().Commands()
	if len(set.Commands) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nCommands of enabled extensions (their text is sent to the model; inline shell in them is never run):")
	for _, c := range set.Commands {
		line := "/" + c.Name
		if c.ArgumentHint != "" {
			line += " " + c.ArgumentHint
		}
		if c.Description != "" {
			line += " — " + strings.Join(strings.Fields(c.Description), " ")
		}
		b.WriteString("\n" + line)
	}
	for _, c := range set.Conflicts {
		fmt.Fprintf(&b, "\n/%s is defined by %s: type the extension's prefix", c.Name, conflictOwners(c))
	}
	return b.String()
}

func conflictOwners(c lifecycle.CommandConflict) string {
	owners := slices.Clone(c.Sources)
	if c.Host {
		owners = append([]string{"AgentDesk"}, owners...)
	}
	return strings.Join(owners, " and ")
}

// expandCommand turns "/name args" into the extension command's prompt;
// any other text is sent as typed. ok is false when the text names a
// command ambiguously (the notice says which forms to type) or a
// UserPromptExpansion hook blocked it: nothing is sent. blocks are that
// hook's context, for the turn's user message.
func (s *Session) expandCommand(ctx context.Context, text string) (prompt string, blocks []lifecycle.ContextBlock, ok bool) {
	name, args := splitCommand(text)
	if s.a.cfg.Commands == nil || len(name) < 2 {
		return text, nil, true
	}
	exp, err := s.a.cfg.Commands.Expand(ctx, name[1:], args, s.project)
	switch {
	case errors.Is(err, lifecycle.ErrUnknownCommand):
		return text, nil, true
	case err != nil:
		s.host(ctx, Host{Kind: HostError, Text: fmt.Sprintf("Not sent: %s (you typed %q)", err, text)})
		return "", nil, false
	}
	blocks, ok = s.userPromptExpansion(ctx, exp, args, text)
	if !ok {
		return "", nil, false
	}
	if n := len(exp.NotRun); n > 0 {
		s.host(ctx, Host{Kind: HostNotice, Source: exp.Command.Extension, Label: exp.Command.Label, Extension: true,
			Text: fmt.Sprintf("/%s: %s not run (AgentDesk never runs a command's inline shell; the model sees it marked not run): %s",
				exp.Command.Name, plural(n, "inline shell command"), strings.Join(exp.NotRun, "; "))})
	}
	return exp.Prompt, blocks, true
}

// userPromptExpansion runs the UserPromptExpansion hooks for an expanded
// command. A block keeps it from being sent: the chat says why and the
// typed text goes back to the composer.
func (s *Session) userPromptExpansion(ctx context.Context, exp lifecycle.Expansion, args, typed string) ([]lifecycle.ContextBlock, bool) {
	short := exp.Command.Name
	if _, after, found := strings.Cut(short, ":"); found {
		short = after
	}
	v := s.a.cfg.Lifecycle.UserPromptExpansion(s.reporting(ctx), lifecycle.ExpansionEvent{SessionID: s.info.ID, ProjectDir: s.project,
		TranscriptPath: s.transcriptPath(), PermissionMode: s.permissionMode(),
		Command: exp.Command.Extension + ":" + short, Short: short, Args: args, Prompt: exp.Prompt})
	s.notices(ctx, v.Notices)
	if v.Blocked() {
		first := v.Reasons[0]
		s.host(ctx, Host{Kind: HostNotice, Source: first.Source, Label: first.Label, Event: lifecycle.EventUserPromptExpansion,
			Text: fmt.Sprintf("blocked /%s, which was not sent: %s", exp.Command.Name, noticeReasons(v)), Prompt: typed})
		return nil, false
	}
	return v.Blocks, true
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// typedText is what the transcript shows for a user message: the command
// as typed when the model got its expansion, else nothing extra.
func typedText(typed, sent string) string {
	if typed == sent {
		return ""
	}
	return typed
}
