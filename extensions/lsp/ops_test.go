package lsp

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestHoverTextForms(t *testing.T) {
	for raw, want := range map[string]string{
		`{"contents":{"kind":"markdown","value":"**func** f()"}}`: "**func** f()",
		`{"contents":"plain"}`:                                                "plain",
		`{"contents":{"language":"go","value":"func f()"}}`:                   "```go\nfunc f()\n```",
		`{"contents":[{"language":"python","value":"def f()"},"Doubles n."]}`: "```python\ndef f()\n```\n\nDoubles n.",
		`null`:            "",
		`{"contents":[]}`: "",
	} {
		if got := hoverText(json.RawMessage(raw)); got != want {
			t.Errorf("hoverText(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestOutlineNestsAndConvertsPositions(t *testing.T) {
	text := "package main\n\ntype T struct{ é, b int }\n"
	raw := `[{"name":"T","kind":23,"detail":"struct{...}","range":{},"selectionRange":{"start":{"line":2,"character":5}},
		"children":[{"name":"b","kind":8,"selectionRange":{"start":{"line":2,"character":19}}}]}]`
	want := "Struct T struct{...} 3:6\n  Field b 3:20"
	if got := outline(json.RawMessage(raw), text); got != want {
		t.Errorf("outline:\n%s\nwant\n%s", got, want)
	}
	// SymbolInformation[] (no hierarchy) reads its location.
	raw = `[{"name":"main","kind":12,"location":{"uri":"file:///p/m.go","range":{"start":{"line":0,"character":0}}}}]`
	if got := outline(json.RawMessage(raw), text); got != "Function main 1:1" {
		t.Errorf("flat outline %q", got)
	}
	if got := outline(json.RawMessage(`[]`), text); got != "No symbols in this file." {
		t.Errorf("empty outline %q", got)
	}
}

func TestWorkspaceSymbolsShowOutsideFilesWithoutOpening(t *testing.T) {
	opened := map[string]bool{}
	files := func(path string) (string, bool) {
		opened[path] = true
		if strings.HasPrefix(path, "/p/") {
			return "package a\n\nfunc Greet() {}\n", true
		}
		return "", false
	}
	raw := `[{"name":"Greet","kind":12,"containerName":"a","location":{"uri":"file:///p/a/a.go","range":{"start":{"line":2,"character":5}}}},
		{"name":"Println","kind":12,"location":{"uri":"file:///usr/lib/go/src/fmt/print.go","range":{"start":{"line":9,"character":5}}}}]`
	got := FormatLocations(workspaceSymbols(json.RawMessage(raw), "/p", &fileTexts{files: files, known: map[string]string{}}))
	want := "a/a.go:3:6: Function Greet (in a)\n/usr/lib/go/src/fmt/print.go:10:6: Function Println"
	if got != want {
		t.Errorf("workspace symbols:\n%s\nwant\n%s", got, want)
	}
}

func TestSummaryReadsTheDiagnosticsBlock(t *testing.T) {
	ds := []Diagnostic{{Path: "main.go", Line: 6, Col: 14, Severity: SeverityError, Message: "undefined: greet", Source: "compiler"},
		{Path: "x.go", Line: 1, Col: 1, Severity: SeverityWarning, Message: "unused"},
		{Path: "x.go", Line: 2, Col: 1, Severity: SeverityHint, Message: "hint"}}
	result := "Edited util.go.\n\n" + DiagnosticsHeader + "gopls:\n" + FormatDiagnostics(ds) + "\n(gopls started for this file (2.1 s))"
	server, errs, warns, first, ok := Summary(result)
	if !ok || server != "gopls" || errs != 1 || warns != 1 || first != "main.go:6:14 error undefined: greet (compiler)" {
		t.Errorf("Summary = %q %d %d %q %v", server, errs, warns, first, ok)
	}
	if _, _, _, _, ok := Summary("Edited util.go."); ok {
		t.Error("a result without diagnostics has a summary")
	}
}
