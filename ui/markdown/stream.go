package markdown

import (
	"bytes"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Stream shows a message while it streams: the blocks that are complete
// rendered as Render renders them, the block still being written as plain
// text. Every top-level block but the last is complete (Markdown only
// changes the last block as text arrives: a setext underline, a table's
// delimiter row, a list's next item), so when the message ends the
// rendered blocks stay as they are and only the last one turns into
// Markdown.
//
// Update re-parses the text (cheap) but builds widgets only when another
// block completes; callers throttle updates to their frame rate.
type Stream struct {
	opts     Options
	done     string // the source of the completed blocks, as rendered
	rendered fyne.CanvasObject
	open     *widget.Label
	box      *fyne.Container
}

// NewStream returns an empty streaming view.
func NewStream(opts Options) *Stream {
	s := &Stream{opts: opts, open: &widget.Label{Wrapping: fyne.TextWrapWord}}
	s.box = container.NewVBox(s.open)
	return s
}

// Object is the view; it stays the same object across updates.
func (s *Stream) Object() fyne.CanvasObject { return s.box }

// Update shows src, the message so far.
func (s *Stream) Update(src string) {
	src = newlines.Replace(src)
	done, open := splitOpen(src)
	if done != s.done {
		s.done = done
		s.rendered = nil
		if done != "" {
			s.rendered = Render(done, s.opts)
		}
		s.box.Objects = s.box.Objects[:0]
		if s.rendered != nil {
			s.box.Objects = append(s.box.Objects, s.rendered)
		}
		s.box.Objects = append(s.box.Objects, s.open)
		s.box.Refresh()
	}
	s.open.SetText(open)
	if open == "" {
		s.open.Hide()
	} else {
		s.open.Show()
	}
}

// splitOpen splits src before its last top-level block: the completed
// blocks, and the block still open.
func splitOpen(src string) (done, open string) {
	source := []byte(src)
	doc := markdownParser.Parse(text.NewReader(source))
	for n := doc.LastChild(); n != nil && n != doc.FirstChild(); n = n.PreviousSibling() {
		if start, ok := blockStart(n, source); ok {
			return src[:start], src[start:]
		}
		// A block whose start cannot be told (a bare rule or fence) stays
		// open with the one after it.
	}
	return "", src
}

// blockStart is the offset of the first line of a top-level block: the
// start of the line holding its first text, or its fence line.
func blockStart(n ast.Node, source []byte) (int, bool) {
	if fence, ok := n.(*ast.FencedCodeBlock); ok {
		return fenceStart(fence, source)
	}
	for d := n; d != nil; d = d.FirstChild() {
		if fence, ok := d.(*ast.FencedCodeBlock); ok {
			if start, ok := fenceStart(fence, source); ok {
				return lineStart(source, start), true
			}
			return 0, false
		}
		if d.Type() == ast.TypeBlock && d.Lines().Len() > 0 {
			return lineStart(source, d.Lines().At(0).Start), true
		}
	}
	return 0, false
}

// fenceStart is the start of a fenced code block's opening fence line.
func fenceStart(fence *ast.FencedCodeBlock, source []byte) (int, bool) {
	switch {
	case fence.Info != nil:
		return lineStart(source, fence.Info.Segment.Start), true
	case fence.Lines().Len() > 0:
		first := lineStart(source, fence.Lines().At(0).Start)
		if first == 0 {
			return 0, false
		}
		return lineStart(source, first-1), true
	}
	return 0, false
}

// lineStart is the offset of the start of the line holding offset.
func lineStart(source []byte, offset int) int {
	return bytes.LastIndexByte(source[:offset], '\n') + 1
}
