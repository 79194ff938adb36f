package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/extensions"
)

// lspSection lists a card's language servers once one has started, one
// row each: name, state (starting, ready with its pid and indexing,
// failed and why, restarts) and Restart. What it runs and its stderr
// are in the details.
func (p *extensionsPane) lspSection(info extensions.Info, st *cardState) fyne.CanvasObject {
	var rows []fyne.CanvasObject
	for _, sv := range info.LSPServers {
		if sv.State == extensions.LSPNotStarted || sv.State == extensions.LSPInactive || sv.State == "" {
			continue
		}
		text := sv.Name + " — " + sv.StateText()
		if sv.Restarts > 0 {
			text += fmt.Sprintf(" (restarted %d times)", sv.Restarts)
		}
		state := &widget.Label{Text: text, Wrapping: fyne.TextWrapWord}
		if sv.State == extensions.MCPFailed {
			state.Importance = widget.DangerImportance
		}
		var restart fyne.CanvasObject = container.NewHBox()
		if sv.State == extensions.MCPFailed || sv.State == extensions.MCPReady {
			b := &widget.Button{Text: "Restart", Icon: theme.ViewRefreshIcon(), Importance: widget.LowImportance, OnTapped: func() {
				p.run(info.ID, func(ctx context.Context) (string, error) {
					if p.u.d.Running == nil || p.u.d.Running.LSP() == nil {
						return "", errNoHost
					}
					p.u.d.Running.LSP().Restart(info.ID, sv.Name)
					return fmt.Sprintf("Language server %s stopped; it starts again with the next file it covers.", sv.Name), nil
				})
			}}
			if st.busy {
				b.Disable()
			}
			restart = b
		}
		rows = append(rows, container.NewBorder(nil, nil, nil, restart, state))
	}
	if len(rows) == 0 {
		return nil
	}
	return container.NewVBox(append([]fyne.CanvasObject{widget.NewLabelWithStyle("LSP servers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}, rows...)...)
}

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
