package ui

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/extensions"
)

// lspLines are the card's language servers: what runs, the files it
// covers, its state and the end of its stderr.
func lspLines(servers []extensions.LSPServer) []string {
	var out []string
	for _, sv := range servers {
		line := fmt.Sprintf("%s (%s, from %s)\n    %s\n    %s\n    %s", sv.Name, sv.Transport, sv.Source, sv.Target(), sv.CoversText(), sv.StateText())
		if sv.Restarts > 0 {
			line += fmt.Sprintf(" (restarted %d times)", sv.Restarts)
		}
		if tail := strings.TrimSpace(sv.Stderr); tail != "" {
			line += "\n    stderr: " + strings.ReplaceAll(lastLines(tail, 8), "\n", "\n      ")
		}
		out = append(out, line)
	}
	return out
}

// trustLSPLines are the language servers the trust dialog shows.
func trustLSPLines(servers []extensions.LSPServer) []string {
	var out []string
	for _, sv := range servers {
		line := sv.Name + "\n    " + sv.Target() + "\n    " + sv.CoversText()
		if sv.Inactive != "" {
			line += "\n    will not start: " + sv.Inactive
		}
		out = append(out, line)
	}
	return out
}
