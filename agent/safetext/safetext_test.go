package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStripAndVisible(t *testing.T) {
	for _, tt := range []struct{ in, strip, visible string }{
		{"plain text\n\twith tab", "plain text\n\twith tab", "plain text\n\twith tab"},
		{"\x1b[31mred\x1b[0m", "red", `\x1b[31mred\x1b[0m`},
		{"title\x1b]0;pwned\x07 after", "title after", `title\x1b]0;pwned\x07 after`},
		{"osc st\x1b]8;;http://x\x1b\\link", "osc stlink", `osc st\x1b]8;;http://x\x1b\link`},
		{"erase\x1b[2K\x1b[1Aline", "eraseline", `erase\x1b[2K\x1b[1Aline`},
		{"cr\roverwrite", "croverwrite", `cr\x0doverwrite`},
		{"bell\x07 del\x7f c1\u009b", "bell del c1", `bell\x07 del\x7f c1\u009b`},
		{"rm -rf ~\u202e/gnp.sj", "rm -rf ~/gnp.sj", `rm -rf ~\u202e/gnp.sj`},
		{"zero\u200bwidth\ufeff", "zerowidth", `zero\u200bwidth\ufeff`},
		{"bad \xff utf8", "bad \ufffd utf8", "bad \ufffd utf8"},
		{"unterminated \x1b[31", "unterminated ", `unterminated \x1b[31`},
	} {
		if got := Strip(tt.in); got != tt.strip {
			t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.strip)
		}
		if got := Visible(tt.in); got != tt.visible {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.visible)
		}
	}
}

func FuzzStrip(f *testing.F) {
	for _, s := range []string{"\x1b[31mx", "\x1b]0;t\x07", "a\u202eb", "\xff\xfe", "\x1b", "\x1b[", "ok\n\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Strip(s), Visible(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q", s)
			}
			for _, r := range out {
				if unsafeRune(r) {
					t.Fatalf("unsafe rune %U left in %q (from %q)", r, out, s)
				}
			}
			if strings.Contains(out, "\x1b") {
				t.Fatalf("ESC left in %q", out)
			}
		}
	})
}
