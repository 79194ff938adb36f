package markdown

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// codeBlock shows code in monospace, highlighted by language, on a tinted
// panel headed by its language and a copy button. Long lines scroll
// sideways rather than wrap: code keeps its shape.
func (b *builder) codeBlock(n ast.Node, language string) fyne.CanvasObject {
	code := trimFinalNewline(linesText(n.Lines(), b.source))
	body := widget.NewRichText(highlight(code, language)...)

	var content fyne.CanvasObject = newCodeScroll(body, b.scrollOn)
	if header := b.codeHeader(code, language); header != nil {
		content = container.NewBorder(header, nil, nil, nil, content)
	}
	panel := newSurface(theme.ColorNameInputBackground, theme.SizeNameInputRadius, fyne.Size{})
	return container.NewStack(panel, container.NewPadded(content))
}

// codeHeader is the row above the code, or nil when it would be empty.
func (b *builder) codeHeader(code, language string) fyne.CanvasObject {
	var label, copyButton fyne.CanvasObject
	if language != "" {
		style := widget.RichTextStyleParagraph
		style.ColorName = theme.ColorNamePlaceHolder
		style.SizeName = theme.SizeNameCaptionText
		label = widget.NewRichText(&widget.TextSegment{Style: style, Text: language})
	}
	if b.copyCode != nil {
		copyButton = NewCopyButton("", func() string { return code }, b.copyCode, b.do)
	}
	if label == nil && copyButton == nil {
		return nil
	}
	return container.NewBorder(nil, nil, label, copyButton)
}

// linesText joins the source lines of a block; each keeps its newline.
func linesText(lines *text.Segments, source []byte) string {
	var sb strings.Builder
	for i := range lines.Len() {
		line := lines.At(i)
		sb.Write(line.Value(source))
	}
	return sb.String()
}

// trimFinalNewline drops the terminator of the last line, which belongs to
// the Markdown around a block rather than to its content.
func trimFinalNewline(s string) string {
	return strings.TrimSuffix(s, "\n")
}
