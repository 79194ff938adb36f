package markdown

import (
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// testWidth is wide enough that no line in the test documents wraps.
const testWidth = 800

// show lays obj out in a temporary window so renderers and absolute
// positions exist.
func show(t *testing.T, obj fyne.CanvasObject, width float32) fyne.Window {
	t.Helper()
	w := test.NewTempWindow(t, obj)
	resize(w, fyne.NewSize(width, 2000))
	return w
}

// resize resizes w and lets wrapped text settle. A resize lays containers
// out with the heights their wrapped text had at the old width; the real
// driver re-runs layouts whose min size changed on the next frame, the test
// canvas does not, so a refresh stands in for that frame.
func resize(w fyne.Window, size fyne.Size) {
	w.Resize(size)
	w.Content().Refresh()
}

// renderShown renders src with opts and lays it out at testWidth.
func renderShown(t *testing.T, src string, opts Options) fyne.CanvasObject {
	t.Helper()
	test.NewTempApp(t)
	obj := Render(src, opts)
	show(t, obj, testWidth)
	return obj
}

// all returns every object of type T below root, in tree order, descending
// into containers and into widgets through their renderers.
func all[T any](root fyne.CanvasObject) []T {
	var found []T
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if match, ok := o.(T); ok {
			found = append(found, match)
		}
		switch o := o.(type) {
		case *fyne.Container:
			for _, child := range o.Objects {
				walk(child)
			}
		case fyne.Widget:
			for _, child := range test.WidgetRenderer(o).Objects() {
				walk(child)
			}
		}
	}
	walk(root)
	return found
}

// segments flattens the segments of every RichText below root.
func segments(root fyne.CanvasObject) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	var flatten func([]widget.RichTextSegment)
	flatten = func(segs []widget.RichTextSegment) {
		for _, s := range segs {
			out = append(out, s)
			if block, ok := s.(widget.RichTextBlock); ok {
				flatten(block.Segments())
			}
		}
	}
	for _, rt := range all[*widget.RichText](root) {
		flatten(rt.Segments)
	}
	return out
}

// textSegment returns the first text segment below root whose text is text.
func textSegment(t *testing.T, root fyne.CanvasObject, text string) *widget.TextSegment {
	t.Helper()
	for _, s := range segments(root) {
		if ts, ok := s.(*widget.TextSegment); ok && ts.Text == text {
			return ts
		}
	}
	t.Fatalf("no text segment %q in %q", text, visibleText(root))
	return nil
}

// richTextWith returns the first RichText whose content contains text.
func richTextWith(t *testing.T, root fyne.CanvasObject, text string) *widget.RichText {
	t.Helper()
	for _, rt := range all[*widget.RichText](root) {
		if strings.Contains(rt.String(), text) {
			return rt
		}
	}
	t.Fatalf("no RichText containing %q in %q", text, visibleText(root))
	return nil
}

// visibleText joins the content of every RichText below root.
func visibleText(root fyne.CanvasObject) string {
	var parts []string
	for _, rt := range all[*widget.RichText](root) {
		parts = append(parts, rt.String())
	}
	return strings.Join(parts, "|")
}

// containersWithLayout returns the containers below root laid out by the
// same kind of layout as example.
func containersWithLayout(root fyne.CanvasObject, example fyne.Layout) []*fyne.Container {
	var found []*fyne.Container
	for _, c := range all[*fyne.Container](root) {
		if c.Layout != nil && reflect.TypeOf(c.Layout) == reflect.TypeOf(example) {
			found = append(found, c)
		}
	}
	return found
}

// listMarkers returns the marker texts of every list below root, outer
// lists first.
func listMarkers(root fyne.CanvasObject) [][]string {
	var lists [][]string
	for _, c := range containersWithLayout(root, layout.NewFormLayout()) {
		var markers []string
		for i := 0; i < len(c.Objects); i += 2 {
			markers = append(markers, c.Objects[i].(*widget.RichText).String())
		}
		lists = append(lists, markers)
	}
	return lists
}

// codeSegments returns one segment per code block below root, holding the
// block's whole text (highlighting splits it into runs by colour): a code
// block is a RichText of monospace segments only.
func codeSegments(root fyne.CanvasObject) []*widget.TextSegment {
	var found []*widget.TextSegment
	for _, rt := range all[*widget.RichText](root) {
		if text, ok := codeText(rt); ok {
			found = append(found, &widget.TextSegment{Text: text, Style: widget.RichTextStyleCodeBlock})
		}
	}
	return found
}

// codeText joins the segments of a RichText made only of monospace text.
func codeText(rt *widget.RichText) (string, bool) {
	var sb strings.Builder
	for _, s := range rt.Segments {
		ts, ok := s.(*widget.TextSegment)
		if !ok || !ts.Style.TextStyle.Monospace {
			return "", false
		}
		sb.WriteString(ts.Text)
	}
	return sb.String(), len(rt.Segments) > 0
}

func absX(o fyne.CanvasObject) float32 {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o).X
}
