// Package markdown renders assistant Markdown as a tree of Fyne widgets.
//
// Render parses a finished message once with goldmark (CommonMark plus the
// GFM table, strikethrough and autolink extensions) and builds headings,
// paragraphs, lists, block quotes, code blocks with a copy button and tables
// from stock widgets. Stream shows a message that is still streaming: its
// completed blocks rendered, the block being written as text.
//
// Fyne's own RichText.ParseMarkdown is not enough for a chat transcript:
// it enables no GFM extensions (tables, strikethrough and bare URLs show as
// raw text), drops the formatting inside headings, links and nested
// emphasis, drops inline and block HTML, shows code blocks as bare
// monospace text with no background, language or copy action, opens any
// link scheme, and loads images from whatever URI the model wrote. It also
// puts everything in one RichText, which leaves no room for widgets.
package markdown

import (
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Options connects rendered Markdown to the rest of the application.
type Options struct {
	// Copy receives the exact text of a code block when its copy button is
	// tapped (production: the window clipboard). Nil hides the button.
	Copy func(text string)
	// OpenURL opens a tapped link. Nil uses fyne.CurrentApp().OpenURL.
	OpenURL func(*url.URL) error
	// ScrollOn receives the vertical wheel movement over a code block
	// (which scrolls sideways itself): the transcript's scroller.
	ScrollOn func(*fyne.ScrollEvent)
	// Do runs a change on the UI goroutine (a copy button's "Copied"
	// going back); nil: fyne.Do.
	Do func(func())
}

// markdownParser is built once: a goldmark parser holds no per-document
// state, so sharing it avoids rebuilding its block and inline tables on
// every message.
var markdownParser parser.Parser = goldmark.New(goldmark.WithExtensions(
	extension.Table,
	extension.Strikethrough,
	extension.Linkify,
)).Parser()

// newlines folds CRLF and lone CR line endings into LF so code blocks copy
// and display without stray carriage returns.
var newlines = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// Render converts Markdown to a Fyne object tree. Constructs it does not
// support (raw HTML, images) degrade to their plain text.
func Render(src string, opts Options) fyne.CanvasObject {
	source := []byte(newlines.Replace(src))
	doc := markdownParser.Parse(text.NewReader(source))
	b := &builder{source: source, copyCode: opts.Copy, openURL: opts.OpenURL, scrollOn: opts.ScrollOn, do: opts.Do}
	if b.openURL == nil {
		b.openURL = openWithApp
	}
	return container.NewVBox(b.blocks(doc)...)
}

func openWithApp(u *url.URL) error {
	return fyne.CurrentApp().OpenURL(u)
}

// builder turns one parsed document into widgets.
type builder struct {
	source    []byte
	copyCode  func(string)
	openURL   func(*url.URL) error
	scrollOn  func(*fyne.ScrollEvent)
	do        func(func())
	listDepth int
}
