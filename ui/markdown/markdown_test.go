package markdown

import (
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

func TestRenderHeadings(t *testing.T) {
	tests := []struct {
		name, src, text string
		size            fyne.ThemeSizeName
		monospace       bool
	}{
		{"level 1", "# Title", "Title", theme.SizeNameHeadingText, false},
		{"level 2", "## Section", "Section", theme.SizeNameSubHeadingText, false},
		{"level 3", "### Detail", "Detail", theme.SizeNameText, false},
		{"level 6", "###### Fine print", "Fine print", theme.SizeNameText, false},
		{"setext", "Title\n=====", "Title", theme.SizeNameHeadingText, false},
		{"code in heading", "# Run `go test`", "go test", theme.SizeNameHeadingText, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seg := textSegment(t, renderShown(t, tt.src, Options{}), tt.text)
			if seg.Style.SizeName != tt.size {
				t.Errorf("size = %q, want %q", seg.Style.SizeName, tt.size)
			}
			if seg.Style.TextStyle.Bold == tt.monospace {
				t.Errorf("bold = %v, want %v (monospace has no bold face)", seg.Style.TextStyle.Bold, !tt.monospace)
			}
			if seg.Style.TextStyle.Monospace != tt.monospace {
				t.Errorf("monospace = %v, want %v", seg.Style.TextStyle.Monospace, tt.monospace)
			}
		})
	}
}

func TestRenderInlineStyles(t *testing.T) {
	tests := []struct {
		name, src, text string
		want            fyne.TextStyle
	}{
		{"strong", "a **bold** word", "bold", fyne.TextStyle{Bold: true}},
		{"emphasis", "an *italic* word", "italic", fyne.TextStyle{Italic: true}},
		{"nested", "***both***", "both", fyne.TextStyle{Bold: true, Italic: true}},
		{"code span", "use `x := 1` here", "x := 1", fyne.TextStyle{Monospace: true}},
		{"bold code stays plain monospace", "**`main.go`**", "main.go", fyne.TextStyle{Monospace: true}},
		{"strikethrough", "~~gone~~", "g\u0336o\u0336n\u0336e\u0336", fyne.TextStyle{}},
		{"entities and escapes", `a &amp; b \* c&#33;`, "a & b * c!", fyne.TextStyle{}},
		{"soft break is a space", "one\ntwo", "one two", fyne.TextStyle{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seg := textSegment(t, renderShown(t, tt.src, Options{}), tt.text)
			if seg.Style.TextStyle != tt.want {
				t.Errorf("style = %+v, want %+v", seg.Style.TextStyle, tt.want)
			}
			if !seg.Inline() {
				t.Error("inline text ends its line")
			}
		})
	}
}

func TestRenderHardLineBreak(t *testing.T) {
	obj := renderShown(t, "line one  \nline two", Options{})
	segs := richTextWith(t, obj, "line one").Segments
	var texts []string
	for _, s := range segs {
		texts = append(texts, s.Textual())
	}
	if len(segs) < 3 || segs[0].Textual() != "line one" || segs[1].Inline() || segs[2].Textual() != "line two" {
		t.Errorf("segments = %q, want line one, a break, line two", texts)
	}
}

func TestRenderLinks(t *testing.T) {
	tests := []struct {
		name, src, text, url string // url "" means not clickable
	}{
		{"inline link", "read [the docs](https://example.com/docs) first", "the docs", "https://example.com/docs"},
		{"bare url", "see https://example.com/x for more", "https://example.com/x", "https://example.com/x"},
		{"www autolink", "visit www.example.com today", "www.example.com", "http://www.example.com"},
		{"angle autolink", "<https://example.org/a?b=c>", "https://example.org/a?b=c", "https://example.org/a?b=c"},
		{"email autolink", "mail <dev@example.com>", "dev@example.com", "mailto:dev@example.com"},
		{"empty label", "[](https://example.com/)", "https://example.com/", "https://example.com/"},
		{"javascript stays text", "[run](javascript:alert(1))", "run", ""},
		{"file stays text", "[secrets](file:///etc/passwd)", "secrets", ""},
		{"relative stays text", "[readme](README.md)", "readme", ""},
		{"other autolink scheme stays text", "<ftp://files.example.com/a>", "ftp://files.example.com/a", ""},
		{"emphasis kept when not clickable", "[**bold** name](mailbox:x)", "bold", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := renderShown(t, tt.src, Options{})
			links := all[*widget.Hyperlink](obj)
			if tt.url == "" {
				if len(links) != 0 {
					t.Fatalf("got %d hyperlinks, want none", len(links))
				}
				textSegment(t, obj, tt.text)
				return
			}
			if len(links) != 1 {
				t.Fatalf("got %d hyperlinks, want 1", len(links))
			}
			if links[0].Text != tt.text || links[0].URL.String() != tt.url {
				t.Errorf("link = %q -> %q, want %q -> %q", links[0].Text, links[0].URL, tt.text, tt.url)
			}
		})
	}
}

func TestLinkTapCallsOpenURL(t *testing.T) {
	var opened []string
	opts := Options{OpenURL: func(u *url.URL) error {
		opened = append(opened, u.String())
		return nil
	}}
	obj := renderShown(t, "[a](https://example.com/a) and [b](https://example.com/b)", opts)
	links := all[*widget.Hyperlink](obj)
	if len(links) != 2 {
		t.Fatalf("got %d hyperlinks, want 2", len(links))
	}
	// Hyperlink ignores taps on its padding, so aim at the text.
	test.TapAt(links[1], fyne.NewPos(links[1].Size().Width/2, links[1].Size().Height/2))
	if len(opened) != 1 || opened[0] != "https://example.com/b" {
		t.Errorf("opened %q, want [https://example.com/b]", opened)
	}
}

func TestRenderLists(t *testing.T) {
	tests := []struct {
		name, src string
		want      [][]string
	}{
		{"bullets", "- apples\n- pears\n", [][]string{{"•", "•"}}},
		{"ordered", "1. one\n2. two\n3. three\n", [][]string{{"1.", "2.", "3."}}},
		{"ordered from 7", "7. seven\n8. eight\n", [][]string{{"7.", "8."}}},
		{"paren markers", "1) first\n2) second\n", [][]string{{"1)", "2)"}}},
		{"nested", "- outer\n  - inner\n    - deepest\n- next\n", [][]string{{"•", "•"}, {"–"}, {"‣"}}},
		// As in browsers, a bullet list takes its marker from its depth
		// among all lists.
		{"mixed nesting", "1. step\n   - detail\n2. step\n", [][]string{{"1.", "2."}, {"–"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := listMarkers(renderShown(t, tt.src, Options{}))
			if !equalNested(got, tt.want) {
				t.Errorf("markers = %q, want %q", got, tt.want)
			}
		})
	}
}

func equalNested(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}

func TestNestedListIsIndented(t *testing.T) {
	obj := renderShown(t, "- outer item\n  - inner item\n    - deepest item\n", Options{})
	outer := absX(richTextWith(t, obj, "outer item"))
	inner := absX(richTextWith(t, obj, "inner item"))
	deepest := absX(richTextWith(t, obj, "deepest item"))
	if !(outer < inner && inner < deepest) {
		t.Errorf("item x positions outer=%v inner=%v deepest=%v, want increasing", outer, inner, deepest)
	}
}

func TestListItemHoldsCodeBlock(t *testing.T) {
	obj := renderShown(t, "1. Run:\n\n   ```sh\n   go test ./...\n   ```\n2. Done\n", Options{})
	codes := codeSegments(obj)
	if len(codes) != 1 || codes[0].Text != "go test ./..." {
		t.Fatalf("code segments = %v, want one with %q", codes, "go test ./...")
	}
	if got := listMarkers(obj); !equalNested(got, [][]string{{"1.", "2."}}) {
		t.Errorf("markers = %q, want [[1. 2.]]", got)
	}
}

func TestRenderCodeBlocks(t *testing.T) {
	tests := []struct {
		name, src, code, language string
	}{
		{
			name:     "fenced with language",
			src:      "```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n",
			code:     "func main() {\n\tprintln(\"hi\")\n}",
			language: "go",
		},
		{name: "info string after language", src: "~~~python title=x.py\nprint(1)\n~~~", code: "print(1)", language: "python"},
		{name: "no language", src: "```\nplain\n```", code: "plain"},
		{name: "indented", src: "text\n\n    indented\n      code\n", code: "indented\n  code"},
		{name: "keeps inner blank line", src: "```\na\n\nb\n```", code: "a\n\nb"},
		{name: "crlf", src: "```sh\r\nls\r\npwd\r\n```\r\n", code: "ls\npwd", language: "sh"},
		{name: "unclosed fence", src: "```js\nconst x = 1", code: "const x = 1", language: "js"},
		{name: "markdown inside stays literal", src: "```\n**not bold** [x](y)\n```", code: "**not bold** [x](y)"},
		{name: "fence inside a longer fence", src: "````md\n```\ninner\n```\n````", code: "```\ninner\n```", language: "md"},
		{name: "inside a quote", src: "> ```\n> quoted()\n> ```", code: "quoted()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var copied []string
			// Do drops the "Copied" revert: TestCopyButtonSaysCopied covers it.
			obj := renderShown(t, tt.src, Options{Copy: func(s string) { copied = append(copied, s) }, Do: func(func()) {}})
			codes := codeSegments(obj)
			if len(codes) != 1 || codes[0].Text != tt.code {
				t.Fatalf("code segments = %q, want one showing %q", textsOf(codes), tt.code)
			}
			if got := languageLabels(obj); strings.Join(got, ",") != tt.language {
				t.Errorf("language labels = %q, want %q", got, tt.language)
			}
			buttons := copyButtons(obj)
			if len(buttons) != 1 {
				t.Fatalf("got %d copy buttons, want 1", len(buttons))
			}
			test.Tap(buttons[0])
			if len(copied) != 1 || copied[0] != tt.code {
				t.Errorf("copied %q, want [%q]", copied, tt.code)
			}
		})
	}
}

func TestCodeBlockWithoutCopyHasNoButton(t *testing.T) {
	obj := renderShown(t, "```go\nx := 1\n```", Options{})
	if n := len(copyButtons(obj)); n != 0 {
		t.Errorf("got %d copy buttons, want none", n)
	}
	if got := languageLabels(obj); len(got) != 1 || got[0] != "go" {
		t.Errorf("language labels = %q, want [go]", got)
	}
}

// TestLongCodeLinesScrollSideways: a long line neither widens the message
// nor is cut: its block scrolls sideways, and vertical wheel movement over
// it goes on to the transcript.
func TestLongCodeLinesScrollSideways(t *testing.T) {
	test.NewTempApp(t)
	long := strings.Repeat("x", 2000)
	var passedOn []float32
	obj := Render("```\n"+long+"\n```", Options{ScrollOn: func(ev *fyne.ScrollEvent) { passedOn = append(passedOn, ev.Scrolled.DY) }})
	const width = 300
	show(t, obj, width)
	if min := obj.MinSize().Width; min >= width {
		t.Errorf("min width = %v with a 2000-character line, want below %v", min, width)
	}
	scrolls := all[*codeScroll](obj)
	if len(scrolls) != 1 {
		t.Fatalf("got %d code scrollers, want 1", len(scrolls))
	}
	s := scrolls[0]
	if s.Size().Width > width || s.Content.Size().Width <= width {
		t.Fatalf("scroller %v wide showing %v, want the window's width showing more", s.Size().Width, s.Content.Size().Width)
	}
	s.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DX: -120}})
	if s.Offset.X <= 0 {
		t.Errorf("offset after a sideways scroll = %v, want > 0", s.Offset.X)
	}
	s.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -40}})
	if len(passedOn) != 1 || passedOn[0] != -40 {
		t.Errorf("vertical wheel passed on = %v, want [-40]", passedOn)
	}
}

// TestCodeIsHighlighted: a fenced block with a known language is coloured
// by token with theme colours; an unknown one stays plain.
func TestCodeIsHighlighted(t *testing.T) {
	obj := renderShown(t, "```go\n// say hi\nfunc main() { println(\"hi\", 42) }\n```", Options{})
	want := map[string]fyne.ThemeColorName{
		"// say hi": theme.ColorNamePlaceHolder,
		"func":      theme.ColorNameError,
		"main":      theme.ColorNamePrimary,
		`"hi"`:      theme.ColorNameSuccess,
		"42":        theme.ColorNameWarning,
	}
	for text, color := range want {
		if got := colorAt(t, obj, text); got != color {
			t.Errorf("%q drawn in %q, want %q", text, got, color)
		}
	}
	if got := codeSegments(obj)[0].Text; got != "// say hi\nfunc main() { println(\"hi\", 42) }" {
		t.Errorf("code = %q", got)
	}
	plain := renderShown(t, "```nosuchlanguage\nfunc main()\n```", Options{})
	if got := colorAt(t, plain, "func"); got != theme.ColorNameForeground {
		t.Errorf("unknown language: %q drawn in %q", "func", got)
	}
}

// colorAt is the colour of the code segment holding text.
func colorAt(t *testing.T, root fyne.CanvasObject, text string) fyne.ThemeColorName {
	t.Helper()
	for _, s := range segments(root) {
		if ts, ok := s.(*widget.TextSegment); ok && ts.Style.TextStyle.Monospace && strings.Contains(ts.Text, text) {
			return ts.Style.ColorName
		}
	}
	t.Fatalf("no code segment holds %q", text)
	return ""
}

// TestCopyButtonSaysCopied: a tap copies and says so, then the button goes
// back to its icon.
func TestCopyButtonSaysCopied(t *testing.T) {
	defer func(d time.Duration) { CopiedFor = d }(CopiedFor)
	CopiedFor = 10 * time.Millisecond
	var copied []string
	done := make(chan func(), 1)
	obj := renderShown(t, "```\nls -l\n```", Options{Copy: func(s string) { copied = append(copied, s) }, Do: func(f func()) { done <- f }})
	b := copyButtons(obj)[0]
	test.Tap(b)
	if len(copied) != 1 || copied[0] != "ls -l" || b.Text != "Copied" {
		t.Fatalf("after a tap: copied %q, button says %q", copied, b.Text)
	}
	(<-done)()
	if b.Text != "" || b.Icon.Name() != theme.ContentCopyIcon().Name() {
		t.Errorf("afterwards the button says %q with icon %s", b.Text, b.Icon.Name())
	}
}

func languageLabels(root fyne.CanvasObject) []string {
	var labels []string
	for _, s := range segments(root) {
		if ts, ok := s.(*widget.TextSegment); ok && ts.Style.SizeName == theme.SizeNameCaptionText && ts.Text != "" {
			labels = append(labels, ts.Text)
		}
	}
	return labels
}

func copyButtons(root fyne.CanvasObject) []*CopyButton {
	var buttons []*CopyButton
	for _, b := range all[*CopyButton](root) {
		if b.Icon != nil && b.Icon.Name() == theme.ContentCopyIcon().Name() {
			buttons = append(buttons, b)
		}
	}
	return buttons
}

func textsOf(segs []*widget.TextSegment) []string {
	texts := make([]string, len(segs))
	for i, s := range segs {
		texts[i] = s.Text
	}
	return texts
}

func TestRenderTable(t *testing.T) {
	src := "| Name | Count | Note |\n| :--- | :---: | ---: |\n| a | 1 | **x** |\n| b |\n| c | 3 | z | extra |\n"
	obj := renderShown(t, src, Options{})
	rows := containersWithLayout(obj, layout.NewGridLayoutWithColumns(1))
	want := [][]string{{"Name", "Count", "Note"}, {"a", "1", "x"}, {"b", "", ""}, {"c", "3", "z"}}
	if len(rows) != len(want) {
		t.Fatalf("got %d table rows, want %d", len(rows), len(want))
	}
	for i, row := range rows {
		if len(row.Objects) != 3 {
			t.Fatalf("row %d has %d cells, want 3", i, len(row.Objects))
		}
		for j, cell := range row.Objects {
			if got := cell.(*widget.RichText).String(); got != want[i][j] {
				t.Errorf("cell %d,%d = %q, want %q", i, j, got, want[i][j])
			}
		}
	}
	header := rows[0].Objects[1].(*widget.RichText).Segments[0].(*widget.TextSegment)
	if !header.Style.TextStyle.Bold || header.Style.Alignment != fyne.TextAlignCenter {
		t.Errorf("header cell style = %+v, want bold and centred", header.Style)
	}
	body := rows[1].Objects[0].(*widget.RichText).Segments[0].(*widget.TextSegment)
	if body.Style.TextStyle.Bold {
		t.Error("body cell is bold")
	}
}

func TestRenderBlockquote(t *testing.T) {
	obj := renderShown(t, "before\n\n> quoted **text**\n> more\n\nafter", Options{})
	quote := richTextWith(t, obj, "quoted text more")
	after := richTextWith(t, obj, "after")
	if absX(quote) <= absX(after) {
		t.Errorf("quote x = %v, want right of body text at %v", absX(quote), absX(after))
	}
	bars := all[*surface](obj)
	if len(bars) != 1 || absX(bars[0]) >= absX(quote) || bars[0].Size().Height < quote.Size().Height {
		t.Errorf("want one bar left of and as tall as the quote, got %d", len(bars))
	}
	if textSegment(t, obj, "text").Style.TextStyle != (fyne.TextStyle{Bold: true}) {
		t.Error("emphasis lost inside the quote")
	}
}

func TestRenderThematicBreak(t *testing.T) {
	obj := renderShown(t, "above\n\n---\n\nbelow", Options{})
	var separators int
	for _, s := range segments(obj) {
		if _, ok := s.(*widget.SeparatorSegment); ok {
			separators++
		}
	}
	if separators != 1 {
		t.Errorf("got %d separators, want 1", separators)
	}
}

func TestRenderDegradesUnsupported(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"html block", "<div class=\"x\">\nhello\n</div>", "<div class=\"x\">\nhello\n</div>"},
		{"inline html", "a <kbd>Ctrl</kbd> b", "a <kbd>Ctrl</kbd> b"},
		{"image", "![a diagram](diagram.png)", "a diagram"},
		{"task list marker", "- [ ] todo", "[ ] todo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := renderShown(t, tt.src, Options{})
			if got := visibleText(obj); !strings.Contains(got, tt.want) {
				t.Errorf("visible text %q does not contain %q", got, tt.want)
			}
			for _, s := range segments(obj) {
				if _, ok := s.(*widget.ImageSegment); ok {
					t.Error("image segment rendered")
				}
			}
		})
	}
}

func TestRenderEmpty(t *testing.T) {
	for _, src := range []string{"", "   \n\n", "#"} {
		if n := len(renderShown(t, src, Options{}).(*fyne.Container).Objects); n != 0 {
			t.Errorf("Render(%q) has %d blocks, want none", src, n)
		}
	}
}

func TestRenderMarkupGolden(t *testing.T) {
	test.NewTempApp(t)
	src, err := os.ReadFile("testdata/mixed.md")
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, Render(string(src), Options{Copy: func(string) {}}))
	resize(w, fyne.NewSize(500, 1000))
	test.AssertRendersToMarkup(t, "markdown/mixed.xml", w.Canvas())
}

func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"# h\n\n- a\n  1. b\n\n> q\n\n```go\nx\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"[x](https://e.com) ~~s~~ **b** *i* `c` <b>h</b> ![i](p.png)\n\n---\n",
		"1. a\n\n   ```\n   unclosed",
		"|a|\n|-|\n|`|`|\n",
		"> - ```\n> x\n",
		"\t\tcode\r\n\x00\xff",
	} {
		f.Add(seed)
	}
	test.NewTempApp(f)
	w := test.NewTempWindow(f, nil)
	w.Resize(fyne.NewSize(240, 400))
	f.Fuzz(func(t *testing.T, src string) {
		w.SetContent(Render(src, Options{Copy: func(string) {}}))
	})
}

func BenchmarkRender(b *testing.B) {
	src := readAnswer(b)
	opts := Options{Copy: func(string) {}}
	for b.Loop() {
		Render(src, opts)
	}
}

// BenchmarkRenderAndLayout includes the first layout pass, which is where
// text is measured and wrapped.
func BenchmarkRenderAndLayout(b *testing.B) {
	src := readAnswer(b)
	opts := Options{Copy: func(string) {}}
	test.NewTempApp(b)
	w := test.NewTempWindow(b, nil)
	w.Resize(fyne.NewSize(testWidth, 600))
	for b.Loop() {
		w.SetContent(Render(src, opts))
	}
}

func readAnswer(b *testing.B) string {
	b.Helper()
	src, err := os.ReadFile("testdata/answer.md")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	return string(src)
}

func TestCodePanelFollowsThemeChange(t *testing.T) {
	obj := renderShown(t, "```\nx\n```", Options{})
	panels := all[*surface](obj)
	if len(panels) != 1 {
		t.Fatalf("got %d panels, want 1", len(panels))
	}
	fill := func() any {
		return test.WidgetRenderer(panels[0]).Objects()[0].(*canvas.Rectangle).FillColor
	}
	for _, th := range []fyne.Theme{theme.LightTheme(), theme.DarkTheme()} {
		test.ApplyTheme(t, th)
		want := th.Color(theme.ColorNameInputBackground, fyne.CurrentApp().Settings().ThemeVariant())
		if got := fill(); got != want {
			t.Errorf("panel fill = %v after theme change, want %v", got, want)
		}
	}
}
