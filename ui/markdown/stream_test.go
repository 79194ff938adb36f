package markdown

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/text"
)

func TestSplitOpen(t *testing.T) {
	tests := []struct {
		name, src, done string
	}{
		{"one paragraph", "just text", ""},
		{"two paragraphs", "first\n\nsecond, still", "first\n\n"},
		{"heading then list", "# Title\n- a\n- b", "# Title\n"},
		{"code then text", "```go\nx := 1\n```\n\nnext", "```go\nx := 1\n```\n\n"},
		{"open fence", "text\n\n```go\nfunc main() {", "text\n\n"},
		{"fence without info", "text\n\n```\nplain", "text\n\n"},
		{"bare fence", "text\n\n```\n", ""},
		{"paragraph may become a table", "intro\n\n| a | b |", "intro\n\n"},
		{"quote", "> quoted\n\nafter", "> quoted\n\n"},
		{"rule stays open with what follows", "a\n\n---\n", ""},
		{"list item with code", "para\n\n- ```sh\n  ls\n  ```", "para\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done, open := splitOpen(tt.src)
			if done != tt.done || done+open != tt.src {
				t.Errorf("splitOpen(%q) = %q + %q, want %q first", tt.src, done, open, tt.done)
			}
		})
	}
}

// TestStreamHasNoJumpAtTheEnd streams a long answer a few characters at
// a time: completed blocks are rendered as they complete, the rendering is
// rebuilt only then, and what was rendered is exactly how the final
// message starts.
func TestStreamHasNoJumpAtTheEnd(t *testing.T) {
	test.NewTempApp(t)
	raw, err := os.ReadFile("testdata/answer.md")
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	s := NewStream(Options{})
	show(t, s.Object(), testWidth)
	rebuilds, last := 0, s.rendered
	for i := 101; i < len(src); i += 101 {
		s.Update(src[:i])
		if s.rendered != last {
			rebuilds++
			last = s.rendered
		}
		if got := s.done + s.open.Text; got != strings.ReplaceAll(src[:i], "\r\n", "\n") {
			t.Fatalf("at %d: shown %q, want the text so far", i, got)
		}
	}
	s.Update(src)
	if s.rendered == nil || s.open.Text == "" {
		t.Fatal("a finished stream shows no rendered blocks, or no open one")
	}
	if blocks := countBlocks(src); rebuilds > blocks {
		t.Errorf("rebuilt %d times for %d blocks, want at most once per block", rebuilds, blocks)
	}
	final := Render(src, Options{})
	show(t, final, testWidth)
	// Block by block, the final rendering shows what the stream showed;
	// only the last streamed text block may have grown (the next paragraph
	// joins its RichText).
	streamed, finished := s.rendered.(*fyne.Container).Objects, final.(*fyne.Container).Objects
	for i, obj := range streamed {
		got, want := blockText(obj), blockText(finished[i])
		if got != want && (i < len(streamed)-1 || !strings.HasPrefix(want, got)) {
			t.Errorf("block %d streamed as %.200q, final %.200q", i, got, want)
		}
	}
	if s.rendered.MinSize().Height >= final.MinSize().Height {
		t.Errorf("streamed part %v tall, final %v: want the final to only add the last block", s.rendered.MinSize().Height, final.MinSize().Height)
	}
}

// TestStreamOpenBlockIsText: the block being written shows its raw text,
// so half a construct never flickers between renderings.
func TestStreamOpenBlockIsText(t *testing.T) {
	test.NewTempApp(t)
	s := NewStream(Options{})
	s.Update("Intro **done**.\n\nNow `half")
	if got := visibleText(s.rendered); !strings.Contains(got, "done") || strings.Contains(got, "**") {
		t.Errorf("rendered part = %q, want the first paragraph as Markdown", got)
	}
	if s.open.Text != "Now `half" || !s.open.Visible() {
		t.Errorf("open block = %q", s.open.Text)
	}
	if _, ok := s.box.Objects[len(s.box.Objects)-1].(*widget.Label); !ok {
		t.Error("the open block is not last")
	}
}

func countBlocks(src string) int {
	doc := markdownParser.Parse(text.NewReader([]byte(src)))
	return doc.ChildCount()
}

// blockText is the text of a rendered block; for a text run only its own
// segments (visibleText would add its links' texts after them).
func blockText(o fyne.CanvasObject) string {
	if rt, ok := o.(*widget.RichText); ok {
		return rt.String()
	}
	return visibleText(o)
}
