package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
)

// findBar is Ctrl/Cmd+F: a bar above the transcript that finds text in
// the open session's messages (case-insensitive), newest match first,
// and scrolls to each. Enter or the arrows go to the next (older) match,
// Shift+Enter to the previous, Esc closes it and returns to the composer.
type findBar struct {
	c     *chatView
	entry *findEntry
	count *widget.Label
	box   *fyne.Container
	hits  []int // transcript rows that match, oldest first
	at    int   // index into hits of the row shown
}

func newFindBar(c *chatView) *findBar {
	f := &findBar{c: c, count: &widget.Label{}}
	f.entry = newFindEntry(f)
	prev := &widget.Button{Icon: theme.MoveUpIcon(), Importance: widget.LowImportance, OnTapped: func() { f.step(-1) }}
	next := &widget.Button{Icon: theme.MoveDownIcon(), Importance: widget.LowImportance, OnTapped: func() { f.step(1) }}
	closeBtn := &widget.Button{Icon: theme.CancelIcon(), Importance: widget.LowImportance, OnTapped: f.hide}
	f.box = container.NewBorder(nil, nil, widget.NewLabel("Find"), container.NewHBox(f.count, prev, next, closeBtn), f.entry)
	f.box.Hide()
	return f
}

func (f *findBar) object() fyne.CanvasObject { return f.box }

// show opens the bar with the focus in it, searching what it holds.
func (f *findBar) show() {
	f.box.Show()
	f.c.u.main.Canvas().Focus(f.entry)
	f.search(f.entry.Text)
}

func (f *findBar) hide() {
	f.box.Hide()
	f.hits = nil
	f.c.u.main.Canvas().Focus(f.c.composer)
}

// search finds q and shows the newest match.
func (f *findBar) search(q string) {
	f.hits = f.c.transcript.find(q)
	f.at = len(f.hits) - 1
	f.showHit()
}

// step moves to the next older (+1) or newer (-1) match, wrapping.
func (f *findBar) step(d int) {
	if len(f.hits) == 0 {
		return
	}
	f.at = ((f.at-d)%len(f.hits) + len(f.hits)) % len(f.hits)
	f.showHit()
}

func (f *findBar) showHit() {
	switch {
	case strings.TrimSpace(f.entry.Text) == "":
		f.count.SetText("")
	case len(f.hits) == 0:
		f.count.SetText("no match")
	default:
		f.count.SetText(fmt.Sprintf("%d of %d", len(f.hits)-f.at, len(f.hits)))
		f.c.transcript.revealRow(f.hits[f.at])
	}
}

// find lists the rows whose text holds q, case-insensitive.
func (t *transcriptView) find(q string) []int {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	var rows []int
	for i, it := range t.items {
		if strings.Contains(strings.ToLower(entryText(it.entry)), q) {
			rows = append(rows, i)
		}
	}
	return rows
}

// revealRow scrolls a row into view and stops following the stream, so
// new output does not scroll the match away.
func (t *transcriptView) revealRow(id int) {
	t.follow = false
	t.list.ScrollTo(id)
}

// entryText is what a reader sees of an entry, for finding.
func entryText(e agent.Entry) string {
	if e.Host != nil {
		return e.Host.Text
	}
	var b strings.Builder
	if e.Typed != "" {
		b.WriteString(e.Typed + "\n")
	}
	for _, p := range e.Parts {
		switch p.Kind {
		case llm.PartText, llm.PartReasoning, llm.PartToolResult:
			b.WriteString(p.Text + "\n")
		case llm.PartToolCall:
			b.WriteString(p.Name + " " + p.Args + "\n")
		}
	}
	return b.String()
}

// findEntry is the find bar's field: Enter = next, Shift+Enter =
// previous, Esc = close.
type findEntry struct {
	widget.Entry
	f      *findBar
	shift  shiftState
	window windowShortcuts
}

// TypedShortcut hands the window's shortcuts on, as the composer does.
func (e *findEntry) TypedShortcut(s fyne.Shortcut) {
	if !e.window.handOn(e, s) {
		e.Entry.TypedShortcut(s)
	}
}

func newFindEntry(f *findBar) *findEntry {
	e := &findEntry{f: f}
	e.PlaceHolder = "Find in this session"
	e.OnChanged = f.search
	e.ExtendBaseWidget(e)
	return e
}

func (e *findEntry) KeyDown(k *fyne.KeyEvent) { e.shift.note(k, true); e.Entry.KeyDown(k) }

func (e *findEntry) KeyUp(k *fyne.KeyEvent) { e.shift.note(k, false); e.Entry.KeyUp(k) }

func (e *findEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		e.f.hide()
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.shift.down {
			e.f.step(-1)
		} else {
			e.f.step(1)
		}
	case fyne.KeyDown:
		e.f.step(1)
	case fyne.KeyUp:
		e.f.step(-1)
	default:
		e.Entry.TypedKey(k)
	}
}
