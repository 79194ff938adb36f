package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// walk visits every object under o, depth first, including what widgets
// render (so list rows and card contents are reached).
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walk(c, visit)
		}
	}
}

// allText joins the visible text under o.
func allText(o fyne.CanvasObject) string {
	var b strings.Builder
	walk(o, func(c fyne.CanvasObject) {
		if t := visibleText(c); t != "" {
			b.WriteString(t)
			b.WriteString("\n")
		}
	})
	return b.String()
}

func findButton(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	walk(o, func(c fyne.CanvasObject) {
		if b, ok := c.(*widget.Button); ok && found == nil && strings.Contains(b.Text, text) {
			found = b
		}
	})
	return found
}

func windowText(w fyne.Window) string {
	text := allText(w.Content())
	for _, ov := range w.Canvas().Overlays().List() {
		text += allText(ov)
	}
	return text
}

func topOverlay(w fyne.Window) fyne.CanvasObject { return w.Canvas().Overlays().Top() }
