package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/servers"
)

// mcpSection lists a card's MCP servers, one row each: name, state (not
// started, starting, ready with its tool count, failed, needs sign-in)
// and, for a server that ran or failed, Restart. Tools and the stderr
// tail are in the details.
func (p *extensionsPane) mcpSection(info extensions.Info, st *cardState) fyne.CanvasObject {
	if len(info.MCPServers) == 0 {
		return nil
	}
	box := container.NewVBox(widget.NewLabelWithStyle("MCP servers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	for _, sv := range info.MCPServers {
		state := &widget.Label{Text: sv.Name + " — " + sv.StateText(), Wrapping: fyne.TextWrapWord}
		switch sv.State {
		case extensions.MCPFailed, extensions.MCPInactive:
			state.Importance = widget.DangerImportance
		case extensions.MCPNeedsSignIn:
			state.Importance = widget.WarningImportance
		}
		buttons := container.NewHBox()
		actions := []fyne.CanvasObject{p.restartButton(info.ID, sv, st)}
		if info.Status == extensions.StatusEnabled {
			actions = append([]fyne.CanvasObject{p.signInButton(info.ID, sv, st)}, actions...)
		}
		for _, b := range actions {
			if b != nil {
				buttons.Add(b)
			}
		}
		box.Add(container.NewBorder(nil, nil, nil, buttons, state))
		if c := sv.CollisionText(); c != "" {
			box.Add(&widget.Label{Text: "Same name as another server: " + c, Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance})
		}
		if switches := p.toolSwitches(info.ID, sv, st); switches != nil {
			box.Add(switches)
		}
		if changed := pendingOf(info.PendingTools, sv.Name); len(changed) > 0 {
			review := &widget.Button{Text: "Review", Importance: widget.HighImportance, OnTapped: func() { p.onReviewTools(info, changed) }}
			if st.busy {
				review.Disable()
			}
			box.Add(container.NewBorder(nil, nil, nil, review, &widget.Label{Text: changedText(len(changed)) + "; they are withheld from the model until you review them.",
				Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance}))
		}
	}
	return box
}

// pendingOf are the withheld tools of one server.
func pendingOf(pending []extensions.PendingTool, server string) []extensions.PendingTool {
	var out []extensions.PendingTool
	for _, t := range pending {
		if t.Server == server {
			out = append(out, t)
		}
	}
	return out
}

func changedText(n int) string {
	if n == 1 {
		return "1 tool changed since you trusted this server"
	}
	return fmt.Sprintf("%d tools changed since you trusted this server", n)
}

// onReviewTools shows the withheld tools' diff (description text and
// schema, escapes visible): Accept offers them from the next prompt on,
// Keep withholding leaves them out.
func (p *extensionsPane) onReviewTools(info extensions.Info, changed []extensions.PendingTool) {
	var diff strings.Builder
	for _, t := range info.ForDisplay().PendingTools {
		if t.Server == changed[0].Server {
			diff.WriteString(t.DiffText() + "\n")
		}
	}
	body := &widget.Label{Text: strings.TrimSpace(diff.String()), Wrapping: fyne.TextWrapBreak, TextStyle: fyne.TextStyle{Monospace: true}}
	content := container.NewBorder(newSecondaryLabel("What the server now tells the model. Accept only what you would let it read as instructions.",
		fyne.TextWrapWord), nil, nil, nil, container.NewVScroll(body))
	d := dialog.NewCustomConfirm(changedText(len(changed)), "Accept", "Keep withholding", content, func(ok bool) {
		if !ok {
			return
		}
		p.run(info.ID, func(ctx context.Context) (string, error) {
			n, err := p.u.d.Extensions.AcceptTools(ctx, info.ID, changed)
			return fmt.Sprintf("Accepted %d tools; they are offered from the next prompt on.", n), err
		})
	}, p.window())
	d.Resize(fyne.NewSize(760, 420))
	dialogKeys(p.window(), d, d.Dismiss)
	if p.onTrust != nil {
		p.onTrust(d)
	}
	d.Show()
}

// errNoHost: this window runs no MCP servers (a pane without a
// dispatcher, as in some tests).
var errNoHost = errors.New("MCP servers do not run here")

// mcp is the host of the running servers, or nil.
func (p *extensionsPane) mcp() *servers.MCP {
	if p.u.d.Running == nil {
		return nil
	}
	return p.u.d.Running.MCP()
}

// withHost runs f on the host, or says there is none.
func (p *extensionsPane) withHost(f func(h *servers.MCP) error) error {
	h := p.mcp()
	if h == nil {
		return errNoHost
	}
	return f(h)
}

// restartButton stops the server so the next prompt starts it afresh;
// nil for a server that never started or cannot.
func (p *extensionsPane) restartButton(id string, sv extensions.MCPServer, st *cardState) fyne.CanvasObject {
	if sv.State != extensions.MCPFailed && sv.State != extensions.MCPReady {
		return nil
	}
	b := &widget.Button{Text: "Restart", Icon: theme.ViewRefreshIcon(), Importance: widget.LowImportance, OnTapped: func() {
		p.run(id, func(ctx context.Context) (string, error) {
			if err := p.withHost(func(h *servers.MCP) error { h.Restart(id, sv.Name); return nil }); err != nil {
				return "", err
			}
			return fmt.Sprintf("MCP server %s stopped; it starts again with the next prompt.", sv.Name), nil
		})
	}}
	if st.busy {
		b.Disable()
	}
	return b
}

// signInButton offers Sign in for a remote server that needs it (the
// system browser opens; the pane stays usable while it waits) and Sign
// out for one with a kept sign-in; nil otherwise.
func (p *extensionsPane) signInButton(id string, sv extensions.MCPServer, st *cardState) fyne.CanvasObject {
	var b *widget.Button
	switch {
	case sv.SignedIn:
		b = &widget.Button{Text: "Sign out", Importance: widget.LowImportance, OnTapped: func() {
			p.run(id, func(ctx context.Context) (string, error) {
				return fmt.Sprintf("Signed out of %s; its tools leave the next prompt.", sv.Name), p.withHost(func(h *servers.MCP) error { return h.SignOut(ctx, id, sv.Name) })
			})
		}}
	case sv.State == extensions.MCPNeedsSignIn || sv.OAuth && sv.State == extensions.MCPNotStarted:
		b = &widget.Button{Text: "Sign in", Icon: theme.LoginIcon(), Importance: widget.HighImportance, OnTapped: func() {
			p.run(id, func(ctx context.Context) (string, error) {
				return fmt.Sprintf("Signed in to %s; its tools join the next prompt.", sv.Name), p.withHost(func(h *servers.MCP) error { return h.SignIn(ctx, id, sv.Name) })
			})
		}}
	default:
		return nil
	}
	if st.busy {
		b.Disable()
	}
	return b
}

// mcpLines are the details of each server: what it runs or reaches, its
// environment names, tools, and the last of its stderr.
func mcpLines(servers []extensions.MCPServer) []string {
	var out []string
	for _, sv := range servers {
		line := fmt.Sprintf("%s (%s, from %s)\n    %s", sv.Name, sv.Type, sv.Source, sv.Target())
		if env := sv.EnvText(); env != "" {
			line += "\n    " + env
		}
		line += "\n    " + sv.StateText()
		if c := sv.CollisionText(); c != "" {
			line += "\n    " + c
		}
		if len(sv.Tools) > 0 {
			line += "\n    tools: " + strings.Join(sv.Tools, ", ")
		}
		if tail := strings.TrimSpace(sv.Stderr); tail != "" {
			line += "\n    stderr: " + strings.ReplaceAll(lastLines(tail, 8), "\n", "\n      ")
		}
		out = append(out, line)
	}
	return out
}

// trustServerLines are the MCP servers the trust dialog shows.
func trustServerLines(servers []extensions.MCPServer) []string {
	var out []string
	for _, sv := range servers {
		line := sv.Name + "  (" + sv.Type + ")\n    " + sv.Target()
		if env := sv.EnvText(); env != "" {
			line += "\n    " + env
		}
		if sv.Inactive != "" {
			line += "\n    will not start: " + sv.Inactive
		}
		out = append(out, line)
	}
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
