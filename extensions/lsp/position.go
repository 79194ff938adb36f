// Package lsp holds what AgentDesk's language-server client needs besides
// the wire: position conversions between the model's 1-based lines and
// characters and LSP's 0-based UTF-16 positions, and the compact, bounded
// text the lsp tool and the edit tools' diagnostics show the model.
package lsp

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Position is an LSP position: 0-based line, 0-based UTF-16 code unit
// offset in that line (the encoding every server supports).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// lineOf returns the 0-based line of text, without its line ending ("" past
// the end).
func lineOf(text string, line int) string {
	for i := 0; i < line; i++ {
		nl := strings.IndexByte(text, '\n')
		if nl < 0 {
			return ""
		}
		text = text[nl+1:]
	}
	if nl := strings.IndexByte(text, '\n'); nl >= 0 {
		text = text[:nl]
	}
	return strings.TrimSuffix(text, "\r")
}

// ToLSP converts the model's 1-based line and character (characters
// counted as Unicode code points, as read_file shows them) in text to an
// LSP position. A character past the line's end is its end; values below
// 1 are 1.
func ToLSP(text string, line, char int) Position {
	line, char = max(line, 1), max(char, 1)
	l := lineOf(text, line-1)
	units, n := 0, 0
	for _, r := range l {
		if n == char-1 {
			break
		}
		units += utf16.RuneLen(r) // invalid bytes range as U+FFFD: one unit
		n++
	}
	return Position{Line: line - 1, Character: units}
}

// FromLSP converts an LSP position in text to the model's 1-based line
// and character (code points). An offset inside a surrogate pair or past
// the end of the line lands on the next code point or the line's end.
func FromLSP(text string, p Position) (line, char int) {
	l := lineOf(text, max(p.Line, 0))
	units, n := 0, 0
	for len(l) > 0 && units < p.Character {
		r, size := utf8.DecodeRuneInString(l)
		l = l[size:]
		units += utf16.RuneLen(r)
		n++
	}
	return max(p.Line, 0) + 1, n + 1
}
