// Package safetext makes text from packages, hooks and models safe to put
// on a terminal or in a label: no escape sequences that could move the
// cursor, recolour, retitle or rewrite what is shown (an ANSI sequence in
// a plugin's description could hide the commands of a trust prompt), no
// bidi controls that reorder what is read, no invisible characters.
// Printable text, newlines and tabs are kept.
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Strip removes escape sequences and control, bidi and zero-width
// characters; invalid UTF-8 becomes U+FFFD. For names, descriptions and
// messages, where what is removed carries no meaning.
func Strip(s string) string { return rewrite(s, false) }

// Visible is Strip for text that must be shown exactly, such as the argv
// of a trust prompt: what Strip would remove is written as an escape
// (\x1b[31m, \u202e) instead, so nothing hides and nothing is lost.
func Visible(s string) string { return rewrite(s, true) }

func rewrite(s string, show bool) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x1b { // an escape sequence: dropped, or shown whole
			n := escapeLen(s[i:])
			if show {
				writeEscaped(&b, s[i:i+n])
			}
			i += n
			continue
		}
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case unsafeRune(r) && show:
			writeEscaped(&b, string(r))
		case !unsafeRune(r):
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// writeEscaped writes s with its unsafe runes as \xNN or \uNNNN.
func writeEscaped(b *strings.Builder, s string) {
	for _, r := range s {
		switch {
		case !unsafeRune(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
}

// FindUnsafe returns the first character of s that Strip would remove
// (an escape's ESC, a control, bidi or invisible character), for tests
// and checks that text is safe to show.
func FindUnsafe(s string) (rune, bool) {
	for _, r := range s {
		if unsafeRune(r) {
			return r, true
		}
	}
	return 0, false
}

func isClean(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unsafeRune(r) {
			return false
		}
	}
	return true
}

// unsafeRune: C0 controls but tab and newline, DEL, C1 controls, bidi
// controls and zero-width characters.
func unsafeRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x2069:
		return true
	case r == 0x061c || r == 0xfeff:
		return true
	}
	return false
}

// escapeLen is the length of the escape sequence at the start of s
// (which starts with ESC): CSI (ESC [ … final byte), OSC and other string
// sequences (ESC ] … BEL or ESC \), or ESC and one byte.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', '^', '_', 'X':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}

// JSON makes encoded JSON safe to print: every rune Strip would remove
// becomes a \uXXXX escape, so the data read back is unchanged while no
// C1 control, bidi or invisible character reaches the terminal raw
// (encoding/json escapes C0 controls itself, not these). Outside strings
// JSON holds only ASCII punctuation and whitespace, so only strings
// change.
func JSON(encoded []byte) []byte {
	s := string(encoded)
	if isClean(s) {
		return encoded
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return []byte(b.String())
}
