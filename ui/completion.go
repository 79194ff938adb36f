package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// maxCompletionRows bounds the list above the composer; typing narrows it.
const maxCompletionRows = 8

// slashItem is one command the completion offers.
type slashItem struct {
	name, hint, help, source string
}

func (s slashItem) text() string {
	line := "/" + s.name
	if s.hint != "" {
		line += " " + s.hint
	}
	if s.help != "" {
		line += " — " + firstLine(s.help, 90)
	}
	if s.source != "" {
		line += "  (" + s.source + ")"
	}
	return line
}

// slashCompletion offers commands while the composer holds "/word" on one
// line: AgentDesk's own first, then the enabled extensions'. The extension
// list is read in the background each time the list opens, so a disabled
// extension's commands are gone the next time.
type slashCompletion struct {
	c        *chatView
	box      *fyne.Container
	all      []slashItem
	shown    []slashItem
	selected int
	open     bool
	fetch    int // counts reads; a late answer for an older opening is dropped
}

func newSlashCompletion(c *chatView) *slashCompletion {
	s := &slashCompletion{c: c, box: container.NewVBox()}
	s.box.Hide()
	c.composer.OnChanged = s.update
	c.composer.keys = s.key
	c.composer.tabs = func() bool { return s.open }
	return s
}

func (s *slashCompletion) object() fyne.CanvasObject { return s.box }

// update follows the composer's text.
func (s *slashCompletion) update(text string) {
	prefix, ok := slashPrefix(text)
	switch {
	case !ok:
		s.close()
		return
	case !s.open:
		s.open, s.selected = true, 0
		s.all = hostItems()
		s.load()
	}
	s.filter(prefix)
}

// slashPrefix is the command name being typed: text is "/" then no
// space or line break yet.
func slashPrefix(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "/")
	if !ok || strings.ContainsAny(rest, " \t\n") {
		return "", false
	}
	return strings.ToLower(rest), true
}

func hostItems() []slashItem {
	var items []slashItem
	for _, h := range agent.HostCommands {
		name := strings.TrimPrefix(h.Name, "/")
		hint := strings.TrimSpace(strings.TrimPrefix(h.Usage, h.Name))
		items = append(items, slashItem{name: name, hint: hint, help: h.Help, source: "AgentDesk"})
	}
	return items
}

// load reads the extensions' commands off the UI goroutine.
func (s *slashCompletion) load() {
	s.fetch++
	fetch := s.fetch
	background(s.c.u, func(context.Context) (lifecycle.CommandSet, error) {
		return s.c.u.d.Agent.Commands(), nil
	}, func(set lifecycle.CommandSet, _ error) {
		if fetch != s.fetch || !s.open {
			return
		}
		s.all = hostItems()
		for _, cmd := range set.Commands {
			s.all = append(s.all, slashItem{name: cmd.Name, hint: cmd.ArgumentHint, help: cmd.Description, source: cmd.Label})
		}
		if prefix, ok := slashPrefix(s.c.composer.Text); ok {
			s.filter(prefix)
		}
	})
}

// filter keeps the commands whose name, or name after "EXT:", starts
// with prefix.
func (s *slashCompletion) filter(prefix string) {
	s.shown = s.shown[:0]
	for _, it := range s.all {
		_, short, _ := strings.Cut(it.name, ":")
		if strings.HasPrefix(strings.ToLower(it.name), prefix) || short != "" && strings.HasPrefix(strings.ToLower(short), prefix) {
			s.shown = append(s.shown, it)
		}
	}
	s.selected = min(s.selected, max(len(s.shown)-1, 0))
	s.render()
}

func (s *slashCompletion) render() {
	s.box.Objects = nil
	if !s.open || len(s.shown) == 0 {
		s.box.Hide()
		return
	}
	first := max(0, s.selected-maxCompletionRows+1) // keep the selection visible
	for i := first; i < len(s.shown) && i < first+maxCompletionRows; i++ {
		it, importance := s.shown[i], widget.LowImportance
		if i == s.selected {
			importance = widget.HighImportance
		}
		s.box.Add(&widget.Button{Text: it.text(), Alignment: widget.ButtonAlignLeading, Importance: importance,
			OnTapped: func() { s.accept(it) }})
	}
	s.box.Show()
	s.box.Refresh()
}

// key handles the list's keys while it is open: Up/Down move, Tab or
// Enter accept, Esc closes. Enter on a command already typed in full
// sends it.
func (s *slashCompletion) key(k *fyne.KeyEvent) bool {
	if !s.open || len(s.shown) == 0 {
		return false
	}
	switch k.Name {
	case fyne.KeyUp:
		s.selected = (s.selected + len(s.shown) - 1) % len(s.shown)
	case fyne.KeyDown:
		s.selected = (s.selected + 1) % len(s.shown)
	case fyne.KeyTab:
		s.accept(s.shown[s.selected])
	case fyne.KeyReturn, fyne.KeyEnter:
		if s.c.composer.Text == "/"+s.shown[s.selected].name {
			s.close()
			return false
		}
		s.accept(s.shown[s.selected])
	case fyne.KeyEscape:
		s.close()
	default:
		return false
	}
	s.render()
	return true
}

// accept puts "/name " in the composer, ready for arguments.
func (s *slashCompletion) accept(it slashItem) {
	text := "/" + it.name + " "
	s.close()
	s.c.composer.SetText(text)
	s.c.composer.CursorColumn = len([]rune(text))
	s.c.composer.Refresh()
	if cv := fyne.CurrentApp().Driver().CanvasForObject(s.c.composer); cv != nil {
		cv.Focus(s.c.composer)
	}
}

func (s *slashCompletion) close() {
	s.open, s.shown, s.selected = false, nil, 0
	s.render()
}
