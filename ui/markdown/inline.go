package markdown

import (
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// strikeOverlay is the combining long stroke (U+0336). fyne.TextStyle has
// no strikethrough, so struck text carries this mark after every rune; the
// bundled fonts include it.
const strikeOverlay = '\u0336'

// clickableSchemes are the link schemes that open on tap. Model output is
// untrusted, so file:, javascript: and custom app schemes stay plain text.
var clickableSchemes = map[string]bool{"http": true, "https": true, "mailto": true}

// inlineStyle is the formatting in effect while walking a run of inlines.
type inlineStyle struct {
	text   widget.RichTextStyle
	strike bool
}

// inlines appends the segments for the inline children of parent to out.
func (b *builder) inlines(parent ast.Node, style inlineStyle, out []widget.RichTextSegment) []widget.RichTextSegment {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		out = b.inline(n, style, out)
	}
	return out
}

// inline appends the segments for one inline node. Formatting nodes adjust
// the style for their children; links we will not open, images and unknown
// nodes contribute the text of their children.
func (b *builder) inline(n ast.Node, style inlineStyle, out []widget.RichTextSegment) []widget.RichTextSegment {
	switch n := n.(type) {
	case *ast.Text:
		return b.text(n, style, out)
	case *ast.String:
		return appendText(out, string(n.Value), style)
	case *ast.CodeSpan:
		// Fyne has one monospace face; themes need not define bold or
		// italic variants of it (the test theme panics on them).
		style.text.TextStyle = fyne.TextStyle{Monospace: true}
		return appendText(out, b.plainText(n), style)
	case *ast.Emphasis:
		style.text.TextStyle.Bold = style.text.TextStyle.Bold || n.Level >= 2
		style.text.TextStyle.Italic = style.text.TextStyle.Italic || n.Level == 1
	case *east.Strikethrough:
		style.strike = true
	case *ast.Link:
		if link := b.hyperlink(string(n.Destination), b.plainText(n), style); link != nil {
			return append(out, link)
		}
	case *ast.AutoLink:
		label := string(n.Label(b.source))
		if link := b.hyperlink(autoLinkURL(n, b.source), label, style); link != nil {
			return append(out, link)
		}
		return appendText(out, label, style)
	case *ast.RawHTML:
		return appendText(out, string(n.Segments.Value(b.source)), style)
	}
	return b.inlines(n, style, out)
}

// text appends a goldmark text node, resolving escapes and entities and
// turning its trailing line break into a space or a new line.
func (b *builder) text(n *ast.Text, style inlineStyle, out []widget.RichTextSegment) []widget.RichTextSegment {
	value := n.Segment.Value(b.source)
	if !n.IsRaw() {
		value = util.ResolveNumericReferences(util.ResolveEntityNames(util.UnescapePunctuations(value)))
	}
	s := string(value)
	if n.SoftLineBreak() {
		s += " "
	}
	out = appendText(out, s, style)
	if n.HardLineBreak() {
		out = append(out, lineBreak())
	}
	return out
}

// hyperlink is a tappable link to destination, or nil when the destination
// is not something we are willing to open.
func (b *builder) hyperlink(destination, label string, style inlineStyle) widget.RichTextSegment {
	u, err := url.Parse(destination)
	if err != nil || !clickableSchemes[u.Scheme] {
		return nil
	}
	if label == "" {
		label = destination
	}
	return &widget.HyperlinkSegment{
		Alignment: style.text.Alignment,
		Text:      label,
		URL:       u,
		OnTapped:  b.linkTapped(u),
	}
}

func (b *builder) linkTapped(u *url.URL) func() {
	return func() {
		if err := b.openURL(u); err != nil {
			fyne.LogError("open link "+u.Redacted(), err)
		}
	}
}

func autoLinkURL(n *ast.AutoLink, source []byte) string {
	u := string(n.URL(source))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
		return "mailto:" + u
	}
	return u
}

// plainText is the visible text below n with all formatting dropped.
func (b *builder) plainText(n ast.Node) string {
	var sb strings.Builder
	for _, seg := range b.inlines(n, inlineStyle{}, nil) {
		sb.WriteString(seg.Textual())
	}
	return sb.String()
}

// appendText adds text in the given style, extending the previous segment
// when the style matches so RichText lays out fewer pieces.
func appendText(out []widget.RichTextSegment, s string, style inlineStyle) []widget.RichTextSegment {
	if s == "" {
		return out
	}
	if style.strike {
		s = strikeThrough(s)
	}
	if len(out) > 0 {
		if last, ok := out[len(out)-1].(*widget.TextSegment); ok && last.Style == style.text {
			last.Text += s
			return out
		}
	}
	return append(out, &widget.TextSegment{Style: style.text, Text: s})
}

func strikeThrough(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) * 3)
	for _, r := range s {
		sb.WriteRune(r)
		if r != ' ' {
			sb.WriteRune(strikeOverlay)
		}
	}
	return sb.String()
}
