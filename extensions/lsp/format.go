package lsp

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Bounds of what one result shows the model.
const (
	MaxLocations   = 100
	MaxResultBytes = 16 << 10
	MaxDiagnostics = 20
)

// Location is a place in a file as the model sees it: a path (relative to
// the project when inside it), 1-based line and character, and the line's
// text.
type Location struct {
	Path      string
	Line, Col int
	Text      string
}

// Rel is path relative to root when it is inside it, else path as is
// (shown, never opened).
func Rel(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return path
}

// FormatLocations is one "path:line:col: text" line per location, at most
// MaxLocations and MaxResultBytes, with a note saying how many were left
// out. No locations is said in words.
func FormatLocations(locs []Location) string {
	if len(locs) == 0 {
		return "No results."
	}
	var b strings.Builder
	shown := 0
	for _, l := range locs {
		line := fmt.Sprintf("%s:%d:%d: %s\n", l.Path, l.Line, l.Col, strings.TrimSpace(l.Text))
		if shown == MaxLocations || b.Len()+len(line) > MaxResultBytes-200 {
			break
		}
		b.WriteString(line)
		shown++
	}
	if shown < len(locs) {
		fmt.Fprintf(&b, "(%d of %d results shown; the rest were cut)\n", shown, len(locs))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Bound cuts text (a hover, an outline) to MaxResultBytes on a line
// boundary, with a note when cut.
func Bound(text string) string {
	if len(text) <= MaxResultBytes {
		return text
	}
	cut := text[:MaxResultBytes-100]
	if nl := strings.LastIndexByte(cut, '\n'); nl > 0 {
		cut = cut[:nl]
	}
	return cut + fmt.Sprintf("\n(cut: %d of %d bytes shown)", len(cut), len(text))
}

// Severity is LSP's DiagnosticSeverity.
type Severity int

// The LSP severities; 0 (absent) is read as an error, as the
// specification leaves it to the client.
const (
	SeverityError       Severity = 1
	SeverityWarning     Severity = 2
	SeverityInformation Severity = 3
	SeverityHint        Severity = 4
)

func (s Severity) String() string {
	switch s {
	case SeverityWarning:
		return "warning"
	case SeverityInformation:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "error"
}

func (s Severity) rank() int {
	if s < SeverityError || s > SeverityHint {
		return 1
	}
	return int(s)
}

// Diagnostic is one published diagnostic, positions already converted to
// the model's 1-based ones.
type Diagnostic struct {
	Path      string
	Line, Col int
	Severity  Severity
	Message   string
	Source    string
}

// FormatDiagnostics shows errors and warnings (information and hints are
// left out), errors first, then by path and position, at most
// MaxDiagnostics, one a line: "main.go:6:14 error undefined: greet
// (compiler)". Nothing to show is "".
func FormatDiagnostics(ds []Diagnostic) string {
	var kept []Diagnostic
	for _, d := range ds {
		if d.Severity.rank() <= int(SeverityWarning) {
			kept = append(kept, d)
		}
	}
	slices.SortStableFunc(kept, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Severity.rank(), b.Severity.rank()), strings.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	var b strings.Builder
	for i, d := range kept {
		if i == MaxDiagnostics {
			fmt.Fprintf(&b, "(%d more not shown)\n", len(kept)-i)
			break
		}
		msg := strings.Join(strings.Fields(d.Message), " ")
		fmt.Fprintf(&b, "%s:%d:%d %s %s", d.Path, d.Line, d.Col, d.Severity, msg)
		if d.Source != "" {
			fmt.Fprintf(&b, " (%s)", d.Source)
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// DiagnosticsHeader starts the diagnostics a write's result gets:
// "Diagnostics from gopls:" and one FormatDiagnostics line each.
const DiagnosticsHeader = "Diagnostics from "

// Summary reads the diagnostics block of a write's result back, for the
// transcript's tool row: the server, how many errors and warnings, and
// the first line. ok is false when the result has none.
func Summary(result string) (server string, errors, warnings int, first string, ok bool) {
	i := strings.Index(result, "\n"+DiagnosticsHeader)
	if i < 0 {
		if !strings.HasPrefix(result, DiagnosticsHeader) {
			return "", 0, 0, "", false
		}
		i = -1
	}
	block := result[i+1+len(DiagnosticsHeader):]
	head, rest, _ := strings.Cut(block, "\n")
	server = strings.TrimSuffix(head, ":")
	for _, line := range strings.Split(rest, "\n") {
		_, after, found := strings.Cut(line, " ")
		if !found {
			break
		}
		switch {
		case strings.HasPrefix(after, SeverityError.String()+" "):
			errors++
		case strings.HasPrefix(after, SeverityWarning.String()+" "):
			warnings++
		default:
			continue
		}
		if first == "" {
			first = line
		}
	}
	return server, errors, warnings, first, errors+warnings > 0
}
