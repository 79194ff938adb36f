package ui

import "github.com/agentdesk/agentdesk/extensions"

// styleLines are an extension's output styles on its card and in the
// trust dialog: the name to choose (EXT:NAME, a project's bare) and what
// choosing it does to the system prompt.
func styleLines(id string, styles []extensions.OutputStyle) []string {
	var out []string
	for _, s := range styles {
		line := extensions.StyleName(id, s.Name)
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
