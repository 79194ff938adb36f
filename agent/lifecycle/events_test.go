package lifecycle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// declaredEvents parses the package's non-test files for the Event*
// string constants, so a new event constant without a table row fails.
func declaredEvents(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		collectEvents(f, out)
	}
	return out
}

func collectEvents(f *ast.File, out map[string]string) {
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, id := range spec.Names {
			if !strings.HasPrefix(id.Name, "Event") || i >= len(spec.Values) {
				continue
			}
			if lit, ok := spec.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				out[id.Name], _ = strconv.Unquote(lit.Value)
			}
		}
		return true
	})
}

func TestEveryDeclaredEventHasARow(t *testing.T) {
	declared := declaredEvents(t)
	if len(declared) == 0 {
		t.Fatal("no Event constants found")
	}
	for constName, value := range declared {
		spec, ok := LookupEvent(value)
		if !ok {
			t.Errorf("%s (%q) has no row in the event table", constName, value)
			continue
		}
		if spec.Kind == 0 || spec.ClaudeName == "" {
			t.Errorf("%s: row %+v lacks a kind or a Claude Code name", constName, spec)
		}
	}
	if len(Events()) != len(declared) {
		t.Errorf("event table has %d rows for %d declared events", len(Events()), len(declared))
	}
}

func TestEventTableRowsAreUnique(t *testing.T) {
	names, claude := map[string]bool{}, map[string]bool{}
	for _, e := range Events() {
		if names[e.Name] || claude[e.ClaudeName] {
			t.Errorf("event %q appears twice", e.Name)
		}
		names[e.Name], claude[e.ClaudeName] = true, true
		if got, ok := LookupClaudeEvent(e.ClaudeName); !ok || got != e {
			t.Errorf("LookupClaudeEvent(%q) = %+v, %v", e.ClaudeName, got, ok)
		}
	}
}

func TestEventKinds(t *testing.T) {
	for name, want := range map[string]bool{EventPreToolUse: true, EventUserPromptExpansion: true, EventStop: true,
		EventSessionStart: false, EventPreCompact: false, "NoSuchEvent": false} {
		if got := EventKindOf(name).Guard(); got != want {
			t.Errorf("%s: Guard() = %v, want %v", name, got, want)
		}
	}
	if EventKindOf(EventUserPromptExpansion) == KindQuiet || EventKindOf(EventPostToolUse) != KindQuiet {
		t.Error("quiet kinds are wrong")
	}
}
