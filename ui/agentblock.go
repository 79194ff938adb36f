package ui

import (
	"context"
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/ui/markdown"
)

// agentColors are the colours agent files name (Claude Code's palette);
// any other word gets the theme's primary colour.
var agentColors = map[string]color.NRGBA{
	"red": {0xe0, 0x4b, 0x4b, 0xff}, "orange": {0xe8, 0x8a, 0x2e, 0xff}, "yellow": {0xd9, 0xb4, 0x2b, 0xff},
	"green": {0x3f, 0xa8, 0x5b, 0xff}, "cyan": {0x2b, 0xb3, 0xc0, 0xff}, "blue": {0x3b, 0x7d, 0xd8, 0xff},
	"purple": {0x8e, 0x5b, 0xd6, 0xff}, "pink": {0xd6, 0x5b, 0xa8, 0xff},
}

func agentColor(name string) color.Color {
	if c, ok := agentColors[strings.ToLower(strings.TrimSpace(name))]; ok {
		return c
	}
	return theme.Color(theme.ColorNamePrimary)
}

// agentTitle is a delegated task's one-line summary.
func agentTitle(h *agent.Host) string {
	title := fmt.Sprintf("%s — %s — %s", h.Agent, firstLine(h.Text, 80), h.Status)
	if h.Status == agent.ChildFailed && h.Answer != "" {
		title += ": " + firstLine(h.Answer, 80)
	}
	return title
}

// renderAgent is a delegated task as one collapsible block: a bar in the
// agent's colour, its name, task and status; open, its tool calls as they
// happen, its notes and its answer, and a button that opens the child's
// whole session.
func (t *transcriptView) renderAgent(id widget.ListItemID, it *item) fyne.CanvasObject {
	h := it.entry.Host
	if len(it.child) == 0 && it.open[0] && h.Status != agent.ChildRunning {
		t.loadRound(id, it, h.Child)
	}
	bar := canvas.NewRectangle(agentColor(h.Color))
	bar.SetMinSize(fyne.NewSize(theme.Padding(), 0))
	row := t.expanderOf(id, it, 0, theme.AccountIcon(), agentTitle(h), func() fyne.CanvasObject { return t.agentBody(it) })
	return container.NewBorder(nil, nil, bar, nil, row)
}

func (t *transcriptView) agentBody(it *item) fyne.CanvasObject {
	h := it.entry.Host
	var lines []string
	for _, n := range h.Notes {
		lines = append(lines, "note: "+n)
	}
	for _, e := range it.child {
		if line := childLine(e); line != "" {
			lines = append(lines, line)
		}
	}
	box := container.NewVBox()
	if len(lines) > 0 {
		box.Add(monoBlock(strings.Join(lines, "\n")))
	}
	if h.Status == agent.ChildDone && h.Answer != "" {
		box.Add(markdown.Render(h.Answer, t.markdownOptions()))
	}
	open := &widget.Button{Text: "Open session", Icon: theme.FileTextIcon(), Importance: widget.LowImportance,
		OnTapped: func() { t.openChild(h.Child, h.Agent+" — "+firstLine(h.Text, 60)) }}
	box.Add(container.NewHBox(open))
	return box
}

// openChild shows a child's whole session (every message in full) in a
// window of its own.
func (t *transcriptView) openChild(child, title string) {
	background(t.c.u, func(ctx context.Context) ([]agent.Entry, error) {
		return t.c.u.d.Agent.Transcript(ctx, child)
	}, func(entries []agent.Entry, err error) {
		if err != nil {
			dialog.ShowError(fmt.Errorf("open the agent's session: %w", err), t.c.u.main)
			return
		}
		w := t.c.u.d.App.NewWindow(title)
		box := container.NewVBox()
		for _, e := range entries {
			box.Add(childMessage(t, e))
		}
		w.SetContent(container.NewVScroll(container.NewPadded(box)))
		w.Resize(fyne.NewSize(720, 640))
		w.Show()
	})
}

// childMessage is one stored message of a child, in full.
func childMessage(t *transcriptView, e agent.Entry) fyne.CanvasObject {
	m := e.Message()
	switch e.Role {
	case llm.RoleUser:
		return container.NewVBox(widget.NewLabelWithStyle("Task", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), markdown.Render(m.Text(), t.markdownOptions()))
	case llm.RoleAssistant:
		box := container.NewVBox()
		if text := m.Text(); text != "" {
			box.Add(markdown.Render(text, t.markdownOptions()))
		}
		for _, c := range m.ToolCalls() {
			box.Add(newSecondaryLabel("tool: "+describeCall(c), fyne.TextWrapWord))
		}
		return box
	case llm.RoleTool:
		var lines []string
		for _, p := range e.Parts {
			lines = append(lines, p.Name+": "+firstLine(p.Text, 200))
		}
		return monoBlock(strings.Join(lines, "\n"))
	}
	return widget.NewLabel("")
}
