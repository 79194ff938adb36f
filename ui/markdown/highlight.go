package markdown

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// maxHighlighted bounds the code chroma tokenises: past it a block is shown
// plain, so a pasted log cannot stall the UI goroutine.
const maxHighlighted = 64 << 10

// tokenColors maps chroma's token categories to theme colours. Theme
// colours rather than a chroma style's hex values: they follow the
// light/dark switch, and the theme keeps each of them at WCAG AA contrast
// on the code panel (ui.TestThemeContrast).
var tokenColors = []struct {
	token chroma.TokenType
	color fyne.ThemeColorName
}{
	{chroma.Comment, theme.ColorNamePlaceHolder},
	{chroma.KeywordType, theme.ColorNameWarning},
	{chroma.Keyword, theme.ColorNameError},
	{chroma.NameBuiltin, theme.ColorNameWarning},
	{chroma.NameFunction, theme.ColorNamePrimary},
	{chroma.NameClass, theme.ColorNamePrimary},
	{chroma.LiteralString, theme.ColorNameSuccess},
	{chroma.LiteralNumber, theme.ColorNameWarning},
	{chroma.GenericInserted, theme.ColorNameSuccess},
	{chroma.GenericDeleted, theme.ColorNameError},
}

// colorOf is the theme colour a token is drawn in: that of the token
// type or of its nearest listed ancestor (KeywordDeclaration → Keyword).
func colorOf(t chroma.TokenType) fyne.ThemeColorName {
	for ; t != 0; t = t.Parent() {
		for _, tc := range tokenColors {
			if t == tc.token {
				return tc.color
			}
		}
	}
	return theme.ColorNameForeground
}

// highlight splits code into monospace segments coloured by token, for
// the language named by a fence's info string. Unknown languages, no
// language and very long code give a single plain segment.
func highlight(code, language string) []widget.RichTextSegment {
	lexer := lexerFor(language)
	if lexer == nil || len(code) > maxHighlighted {
		return []widget.RichTextSegment{codeSegment(code, theme.ColorNameForeground)}
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return []widget.RichTextSegment{codeSegment(code, theme.ColorNameForeground)}
	}
	var segs []widget.RichTextSegment
	var run strings.Builder
	runColor := theme.ColorNameForeground
	flush := func() {
		if run.Len() > 0 {
			segs = append(segs, codeSegment(run.String(), runColor))
			run.Reset()
		}
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		if c := colorOf(tok.Type); c != runColor && strings.TrimSpace(tok.Value) != "" {
			flush()
			runColor = c
		}
		run.WriteString(tok.Value)
	}
	flush()
	return trimAddedNewline(segs, code)
}

func lexerFor(language string) chroma.Lexer {
	if language == "" {
		return nil
	}
	return lexers.Get(language)
}

// trimAddedNewline drops the final newline lexers add to code that has
// none, so the block shows (and copies) exactly the code.
func trimAddedNewline(segs []widget.RichTextSegment, code string) []widget.RichTextSegment {
	if len(segs) == 0 || strings.HasSuffix(code, "\n") {
		return segs
	}
	last := segs[len(segs)-1].(*widget.TextSegment)
	last.Text = strings.TrimSuffix(last.Text, "\n")
	if last.Text == "" {
		segs = segs[:len(segs)-1]
	}
	return segs
}

// codeSegment is a run of code in one colour. The segments are inline so
// runs of different colours share a line; newlines in the text break it.
func codeSegment(text string, color fyne.ThemeColorName) *widget.TextSegment {
	style := widget.RichTextStyleCodeInline
	style.ColorName = color
	return &widget.TextSegment{Style: style, Text: text}
}
