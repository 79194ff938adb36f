package markdown

import (
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// bullets are the unordered-list markers by nesting depth, cycling for
// deeper levels; all are in Fyne's bundled fonts.
var bullets = []string{"•", "–", "‣"}

// quoteBarWidth is the width of the rule drawn beside a block quote.
const quoteBarWidth = 3

// blocks renders the block children of parent, top to bottom. Consecutive
// text blocks (paragraphs, headings, rules) share one RichText so a long
// answer costs a handful of widgets rather than one per paragraph.
func (b *builder) blocks(parent ast.Node) []fyne.CanvasObject {
	var objects []fyne.CanvasObject
	var run []widget.RichTextSegment
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		if segs, ok := b.textBlock(n); ok {
			if len(run) > 0 && len(segs) > 0 {
				run = append(run, blockGap())
			}
			run = append(run, segs...)
			continue
		}
		if len(run) > 0 {
			objects = append(objects, wrappingText(run))
			run = nil
		}
		objects = append(objects, b.block(n))
	}
	if len(run) > 0 {
		objects = append(objects, wrappingText(run))
	}
	return objects
}

// stack renders the block children of parent as a single object.
func (b *builder) stack(parent ast.Node) fyne.CanvasObject {
	objects := b.blocks(parent)
	if len(objects) == 1 {
		return objects[0]
	}
	return container.NewVBox(objects...)
}

// textBlock returns the segments of a block that flows as text, or false
// for blocks that need their own widgets.
func (b *builder) textBlock(n ast.Node) ([]widget.RichTextSegment, bool) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return b.paragraph(n, widget.RichTextStyleInline), true
	case *ast.Heading:
		return b.paragraph(n, headingStyle(n.Level)), true
	case *ast.ThematicBreak:
		return []widget.RichTextSegment{&widget.SeparatorSegment{}}, true
	case *ast.HTMLBlock:
		return b.htmlBlock(n), true
	}
	return nil, false
}

// block renders a block that is not flowing text.
func (b *builder) block(n ast.Node) fyne.CanvasObject {
	switch n := n.(type) {
	case *ast.List:
		return b.list(n)
	case *ast.Blockquote:
		return b.blockquote(n)
	case *ast.FencedCodeBlock:
		return b.codeBlock(n, string(n.Language(b.source)))
	case *ast.CodeBlock:
		return b.codeBlock(n, "")
	case *east.Table:
		return b.table(n)
	}
	return wrappingText(b.paragraph(n, widget.RichTextStyleInline))
}

// paragraph renders the inline children of n as one line-broken paragraph.
func (b *builder) paragraph(n ast.Node, style widget.RichTextStyle) []widget.RichTextSegment {
	segs := b.inlines(n, inlineStyle{text: style}, nil)
	if len(segs) == 0 {
		return nil
	}
	return append(segs, lineBreak())
}

// htmlBlock shows raw HTML as the text the model wrote.
func (b *builder) htmlBlock(n *ast.HTMLBlock) []widget.RichTextSegment {
	raw := linesText(n.Lines(), b.source)
	if n.HasClosure() {
		raw += string(n.ClosureLine.Value(b.source))
	}
	if raw = trimFinalNewline(raw); raw == "" {
		return nil
	}
	return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: raw}}
}

func headingStyle(level int) widget.RichTextStyle {
	style := widget.RichTextStyleStrong
	switch level {
	case 1:
		style.SizeName = theme.SizeNameHeadingText
	case 2:
		style.SizeName = theme.SizeNameSubHeadingText
	}
	return style
}

// list lays items out as marker | content rows; the form layout sizes the
// marker column to the widest marker, so nested lists indent naturally.
func (b *builder) list(l *ast.List) fyne.CanvasObject {
	b.listDepth++
	defer func() { b.listDepth-- }()

	cells := make([]fyne.CanvasObject, 0, 2*l.ChildCount())
	number := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := bullets[(b.listDepth-1)%len(bullets)]
		if l.IsOrdered() {
			marker = strconv.Itoa(number) + string(l.Marker)
			number++
		}
		cells = append(cells, listMarker(marker), b.stack(item))
	}
	return container.New(layout.NewFormLayout(), cells...)
}

func listMarker(marker string) fyne.CanvasObject {
	style := widget.RichTextStyleParagraph
	style.Alignment = fyne.TextAlignTrailing
	return widget.NewRichText(&widget.TextSegment{Style: style, Text: marker})
}

func (b *builder) blockquote(n *ast.Blockquote) fyne.CanvasObject {
	bar := newSurface(theme.ColorNamePlaceHolder, "", fyne.NewSize(quoteBarWidth, 0))
	return container.NewBorder(nil, nil, bar, nil, b.stack(n))
}

// wrappingText is a word-wrapping RichText. NewRichText is required: a
// RichText literal's zero Scroll value means "scroll both ways".
func wrappingText(segs []widget.RichTextSegment) *widget.RichText {
	rt := widget.NewRichText(segs...)
	rt.Wrapping = fyne.TextWrapWord
	return rt
}

// blockGap is an empty caption-sized row that separates consecutive text
// blocks sharing a RichText, which otherwise sit only a line spacing apart.
func blockGap() widget.RichTextSegment {
	style := widget.RichTextStyleParagraph
	style.SizeName = theme.SizeNameCaptionText
	return &widget.TextSegment{Style: style}
}

// lineBreak ends the current line of a RichText: a segment that is not
// inline finishes its row.
func lineBreak() widget.RichTextSegment {
	return &widget.TextSegment{Style: widget.RichTextStyleParagraph}
}
