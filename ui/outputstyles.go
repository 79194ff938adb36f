package ui

import (
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// styleLines are an extension's output styles on its card and in the
// trust dialog: the name to choose (EXT:NAME, a project's bare) and what
// choosing it does to the system prompt.
func styleLines(id string, styles []extensions.OutputStyle) []string {
	var out []string
	for _, s := range styles {
		name := id + ":" + s.Name
		if id == manifest.ProjectID {
			name = s.Name
		}
		line := name
		if s.Description != "" {
			line += " — " + firstLine(s.Description, 120)
		}
		if s.KeepCodingInstructions {
			line += "\n    added to the coding instructions"
		} else {
			line += "\n    replaces the coding instructions"
		}
		out = append(out, line)
	}
	return out
}
