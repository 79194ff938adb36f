package ui

import (
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
)

// commandLines lists an extension's slash commands for its card.
func (p *extensionsPane) commandLines(info extensions.Info) []string {
	return commandLines(info.ID, info.Commands, p.commandConflicts)
}

// commandLines shows each command with its argument hint, description and
// allowed tools, marking names that run only as /ID:NAME.
func commandLines(id string, commands []extensions.Command, conflicts []lifecycle.CommandConflict) []string {
	var out []string
	for _, c := range commands {
		line := "/" + c.Name
		if c.ArgumentHint != "" {
			line += " " + c.ArgumentHint
		}
		if c.Description != "" {
			line += " — " + firstLine(c.Description, 100)
		}
		if len(c.AllowedTools) > 0 {
			line += "\n    allowed-tools (shown only, approvals still asked): " + strings.Join(c.AllowedTools, ", ")
		}
		if note := conflictNote(id, c.Name, conflicts); note != "" {
			line += "\n    " + note
		}
		out = append(out, line)
	}
	return out
}

func conflictNote(id, name string, conflicts []lifecycle.CommandConflict) string {
	i := slices.IndexFunc(conflicts, func(c lifecycle.CommandConflict) bool {
		return c.Name == name && slices.Contains(c.Sources, id)
	})
	switch {
	case i < 0:
		return ""
	case conflicts[i].Host:
		return "[conflict: AgentDesk's own /" + name + " wins; type /" + id + ":" + name + "]"
	}
	var others []string
	for _, s := range conflicts[i].Sources {
		if s != id {
			others = append(others, s)
		}
	}
	return "[conflict: also in " + strings.Join(others, ", ") + "; type /" + id + ":" + name + "]"
}
