package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
)

// DumpText writes the visible text of every open window, one window per
// section, for diagnostics and for driving the real app in tests (the
// Xvfb test reads it to check what a pane shows). Call it on the UI
// goroutine.
func (u *UI) DumpText() string {
	var b strings.Builder
	windows := []fyne.Window{u.main}
	if u.prefs != nil {
		windows = append(windows, u.prefs.win)
	}
	// The transcript's rows are not built here (that would disturb the
	// live list); its items are written from the entries instead.
	d := dumper{b: &b, skip: u.chat.transcript.list}
	for _, w := range windows {
		b.WriteString("== " + w.Title() + "\n")
		d.object(w.Content())
		for _, o := range w.Canvas().Overlays().List() {
			d.object(o)
		}
		if w == u.main {
			u.chat.transcript.dump(&b)
		}
	}
	return b.String()
}

// dump writes the transcript as role: text lines.
func (t *transcriptView) dump(b *strings.Builder) {
	b.WriteString("-- transcript\n")
	for _, it := range t.items {
		e := it.entry
		if e.Host != nil && e.Host.Kind == agent.HostAgent {
			b.WriteString("host agent: " + agentTitle(e.Host) + "\n")
			continue
		}
		if e.Host != nil {
			b.WriteString("host " + string(e.Host.Kind) + ": " + e.Host.Label + " " + e.Host.Text + "\n")
			continue
		}
		b.WriteString(string(e.Role) + ": " + e.Message().Text())
		if e.Typed != "" {
			b.WriteString(" [typed " + e.Typed + "]")
		}
		for _, c := range e.Message().ToolCalls() {
			b.WriteString(" [tool " + describeCall(c) + "]")
		}
		b.WriteString("\n")
	}
	if t.live != nil {
		b.WriteString("streaming: " + t.live.stream.Text + "\n")
	}
}

type dumper struct {
	b    *strings.Builder
	skip *widget.List
}

// object appends the text of o and everything it shows.
func (d dumper) object(o fyne.CanvasObject) {
	b := d.b
	if o == nil || !o.Visible() {
		return
	}
	if t := visibleText(o); t != "" {
		b.WriteString(t + "\n")
	}
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			d.object(c)
		}
	case *widget.Card:
		d.object(x.Content)
	case *widget.PopUp:
		d.object(x.Content)
	case *container.Scroll:
		d.object(x.Content)
	case *container.Split:
		d.object(x.Leading)
		d.object(x.Trailing)
	case *widget.List:
		for i := 0; x != d.skip && x.Length != nil && i < x.Length(); i++ {
			item := x.CreateItem()
			x.UpdateItem(i, item)
			d.object(item)
		}
	case *widget.Form:
		for _, it := range x.Items {
			b.WriteString(it.Text + ": ")
			d.object(it.Widget)
		}
	}
}

func visibleText(o fyne.CanvasObject) string {
	switch x := o.(type) {
	case *canvas.Text:
		return x.Text
	case *widget.Label:
		return x.Text
	case *widget.Button:
		return x.Text
	case *clickOnlyButton: // the approval dialog's Allow buttons
		return x.Text
	case *widget.Check:
		return "[" + map[bool]string{true: "x", false: " "}[x.Checked] + "] " + x.Text
	case *widget.Entry:
		if x.Password && x.Text != "" {
			return "(password, not shown)" // the API key field: never in a file
		}
		return x.Text
	case *widget.RichText:
		return x.String()
	case *secondaryLabel:
		return x.Text
	case *widget.Card:
		return x.Title + "\n" + x.Subtitle
	case *widget.Select:
		return x.Selected
	case *widget.Hyperlink:
		return x.Text
	}
	return ""
}
