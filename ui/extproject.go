package ui

import (
	"context"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// projectCard is the open folder's own Claude Code settings, listed first
// in Agent Extensions as the extension "project" (it wins same-name
// commands and agents over plugins): whether they run, what they declare,
// and the one step that changes it, Review and trust… or Untrust.
func (p *extensionsPane) projectCard(f project.Folder) fyne.CanvasObject {
	var state, cta string
	switch f.Status {
	case project.StatusTrusted:
		state, cta = "Trusted: its hooks, MCP servers and allow rules run.", "Untrust"
	case project.StatusChanged:
		state, cta = "Changed since you trusted it: nothing of it runs until you trust it again.", "Review and trust…"
		if f.Reason != "" {
			state = "Waits for trust: " + safetext.Strip(f.Reason) + "."
		}
	default:
		state, cta = "Not trusted: nothing of it runs until you trust the folder (its deny rules already hold).", "Review and trust…"
	}
	body := container.NewVBox(&widget.Label{Text: safetext.Strip(f.Summary()), Wrapping: fyne.TextWrapWord},
		&widget.Label{Text: state, Wrapping: fyne.TextWrapWord})
	var btn *widget.Button
	if f.Status == project.StatusTrusted {
		btn = &widget.Button{Text: cta, OnTapped: func() { p.untrustProject(f) }}
	} else {
		btn = &widget.Button{Text: cta, Importance: widget.HighImportance, OnTapped: func() {
			reviewAndTrust(p.u, p.window(), f, p.projectChanged)
		}}
	}
	details := &widget.Label{Text: reviewText(f), Wrapping: fyne.TextWrapWord, TextStyle: fyne.TextStyle{Monospace: true}}
	acc := widget.NewAccordion(widget.NewAccordionItem("What it declares", details))
	if lines := runLines(p.projectRuns); len(lines) > 0 {
		runs := &widget.Label{Text: safetext.Strip(strings.Join(lines, "\n")), TextStyle: fyne.TextStyle{Monospace: true}}
		acc.Append(widget.NewAccordionItem("Recent hook runs", runs))
	}
	body.Add(container.NewHBox(btn))
	if f.Status == project.StatusTrusted {
		p.projectPendingRows(f, body)
	}
	body.Add(acc)
	return &widget.Card{Title: "This project's settings", Subtitle: tildePath(f.Dir) + " · .claude/ and .mcp.json", Content: body}
}

// projectPendingRows adds, per server of the folder with tools withheld
// since they changed after their first listing, the count and Review
// (the same diff and Accept as an extension's card): folder trust covers
// what runs, not what its servers tell the model.
func (p *extensionsPane) projectPendingRows(f project.Folder, body *fyne.Container) {
	owner := extensions.PinOwner(manifest.ProjectID, f.Dir)
	info := extensions.Info{ID: owner, PendingTools: p.projectPending}
	var seen []string
	for _, t := range p.projectPending {
		if slices.Contains(seen, t.Server) {
			continue
		}
		seen = append(seen, t.Server)
		changed := pendingOf(p.projectPending, t.Server)
		review := &widget.Button{Text: "Review", Importance: widget.HighImportance, OnTapped: func() { p.onReviewTools(info, changed) }}
		if p.cardFor(owner).busy {
			review.Disable()
		}
		text := safetext.Strip(t.Server) + ": " + changedText(len(changed)) + "; they are withheld from the model until you review them."
		body.Add(container.NewBorder(nil, nil, nil, review, &widget.Label{Text: text, Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance}))
	}
}

func (p *extensionsPane) untrustProject(f project.Folder) {
	dialog.ShowConfirm("Untrust this folder?", "Its hooks and MCP servers stop and its allow rules no longer apply; its deny rules still hold. Nothing in the folder changes.",
		func(ok bool) {
			if !ok {
				return
			}
			background(p.u, func(ctx context.Context) (struct{}, error) {
				return struct{}{}, p.u.d.Projects.Untrust(ctx, f.Dir)
			}, func(_ struct{}, err error) {
				if err != nil {
					p.showInstallMessage(sentence(err), true)
					return
				}
				p.projectChanged()
			})
		}, p.window())
}

// projectChanged redraws after the folder's trust changed here: the card,
// and the bar above the composer, which says the same.
func (p *extensionsPane) projectChanged() {
	if p.u.chat != nil && p.u.chat.trust != nil {
		p.u.chat.trust.check(p.u.chat.project.Path)
	}
	p.reload()
}

// projectFolder is the open folder's settings for the card, when it has
// any (or was trusted): false hides the card.
func (p *extensionsPane) projectFolder(ctx context.Context, dir string) (project.Folder, bool) {
	if p.u.d.Projects == nil || strings.TrimSpace(dir) == "" {
		return project.Folder{}, false
	}
	f, err := p.u.d.Projects.Folder(ctx, dir)
	if err != nil || (!f.Declares() && f.Status != project.StatusTrusted) {
		return project.Folder{}, false
	}
	return f, true
}
