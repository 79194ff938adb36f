package lsp

import (
	"fmt"
	"strings"
	"testing"
)

func TestPositionsUTF16(t *testing.T) {
	// "é" is one UTF-16 unit (two UTF-8 bytes), "😀" two units (four
	// bytes); the second line ends in \r\n.
	text := "package main\nx := \"é😀z\" // ok\r\nlast"
	cases := []struct {
		line, char int
		want       Position
	}{
		{1, 1, Position{0, 0}},
		{1, 9, Position{0, 8}},
		{2, 7, Position{1, 6}},   // on é
		{2, 8, Position{1, 7}},   // on 😀
		{2, 9, Position{1, 9}},   // on z: after the surrogate pair
		{2, 99, Position{1, 17}}, // past the end: the end (16 code points, 17 units, before \r)
		{3, 5, Position{2, 4}},
		{0, 0, Position{0, 0}},
		{9, 3, Position{8, 0}}, // past the last line
	}
	for _, c := range cases {
		got := ToLSP(text, c.line, c.char)
		if got != c.want {
			t.Errorf("ToLSP(%d,%d) = %+v, want %+v", c.line, c.char, got, c.want)
		}
		if c.line < 1 || c.line > 3 || c.char > 20 {
			continue
		}
		if l, ch := FromLSP(text, got); l != c.line || ch != c.char {
			t.Errorf("FromLSP(%+v) = %d,%d, want %d,%d", got, l, ch, c.line, c.char)
		}
	}
	// Inside the surrogate pair lands after it; past the end is the end.
	if l, ch := FromLSP(text, Position{1, 8}); l != 2 || ch != 9 {
		t.Errorf("mid-pair = %d,%d, want 2,9", l, ch)
	}
	if l, ch := FromLSP(text, Position{1, 500}); l != 2 || ch != 17 {
		t.Errorf("past the end = %d,%d, want 2,17", l, ch)
	}
}

func TestFormatLocationsBounded(t *testing.T) {
	if got := FormatLocations(nil); got != "No results." {
		t.Errorf("empty = %q", got)
	}
	got := FormatLocations([]Location{{Path: "main.go", Line: 6, Col: 2, Text: "\tgreet(\"x\")  "}, {Path: "/usr/lib/go/src/fmt/print.go", Line: 1, Col: 1, Text: "package fmt"}})
	if want := "main.go:6:2: greet(\"x\")\n/usr/lib/go/src/fmt/print.go:1:1: package fmt"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var many []Location
	for i := range 250 {
		many = append(many, Location{Path: "a.go", Line: i + 1, Col: 1, Text: "x"})
	}
	got = FormatLocations(many)
	if n := strings.Count(got, "a.go:"); n != MaxLocations || !strings.HasSuffix(got, "(100 of 250 results shown; the rest were cut)") {
		t.Errorf("%d locations shown, ending %q", n, got[len(got)-60:])
	}
	long := strings.Repeat("y", 1000)
	for i := range many {
		many[i].Text = long
	}
	got = FormatLocations(many)
	if len(got) > MaxResultBytes || !strings.Contains(got, "results shown; the rest were cut") {
		t.Errorf("%d bytes, want at most %d with a note", len(got), MaxResultBytes)
	}
	if b := Bound(strings.Repeat("line\n", 10000)); len(b) > MaxResultBytes || !strings.Contains(b, "(cut: ") {
		t.Errorf("Bound: %d bytes", len(b))
	}
	if Bound("short") != "short" {
		t.Error("Bound changed a short text")
	}
}

func TestFormatDiagnosticsErrorsFirstBounded(t *testing.T) {
	ds := []Diagnostic{
		{Path: "util.go", Line: 3, Col: 1, Severity: SeverityWarning, Message: "unused", Source: "vet"},
		{Path: "main.go", Line: 6, Col: 14, Severity: SeverityError, Message: "undefined:\n greet", Source: "compiler"},
		{Path: "main.go", Line: 2, Col: 1, Severity: SeverityHint, Message: "could be simpler"},
		{Path: "a.go", Line: 9, Col: 1, Message: "no severity"},
	}
	want := "a.go:9:1 error no severity\nmain.go:6:14 error undefined: greet (compiler)\nutil.go:3:1 warning unused (vet)"
	if got := FormatDiagnostics(ds); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var many []Diagnostic
	for i := range 30 {
		many = append(many, Diagnostic{Path: "w.go", Line: i + 1, Col: 1, Severity: SeverityWarning, Message: fmt.Sprint("w", i)})
	}
	many = append(many, Diagnostic{Path: "z.go", Line: 1, Col: 1, Severity: SeverityError, Message: "the error"})
	got := strings.Split(FormatDiagnostics(many), "\n")
	if len(got) != MaxDiagnostics+1 || got[0] != "z.go:1:1 error the error" || got[MaxDiagnostics] != "(11 more not shown)" {
		t.Errorf("bounded: %d lines, first %q, last %q", len(got), got[0], got[len(got)-1])
	}
	if FormatDiagnostics([]Diagnostic{{Severity: SeverityHint}}) != "" {
		t.Error("hints only should show nothing")
	}
}

func TestRel(t *testing.T) {
	if got := Rel("/p", "/p/sub/a.go"); got != "sub/a.go" {
		t.Errorf("inside: %q", got)
	}
	if got := Rel("/p", "/usr/a.go"); got != "/usr/a.go" {
		t.Errorf("outside: %q", got)
	}
}
