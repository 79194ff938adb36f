package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTestSet opens a Set on a fresh project directory holding files
// (slash paths to contents) and closes it when the test ends.
func newTestSet(t *testing.T, files map[string]string, opts Options) (*Set, string) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	s, err := New(dir, opts)
	if err != nil {
		t.Fatalf("New(%s): %v", dir, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s, dir
}

// writeTree creates files below dir; a path ending in "/" is a directory.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			mustMkdir(t, p)
			continue
		}
		mustMkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// args marshals a tool's argument object.
func args(t *testing.T, v map[string]any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// run calls the named tool with the given arguments.
func run(t *testing.T, s *Set, name string, v map[string]any) Result {
	t.Helper()
	tool, ok := s.Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) found nothing", name)
	}
	return tool.Run(context.Background(), args(t, v))
}

// checkResult checks a result's error flag and the fragments its text
// must contain.
func checkResult(t *testing.T, got Result, wantErr bool, fragments ...string) {
	t.Helper()
	if got.IsError != wantErr {
		t.Errorf("IsError = %v, want %v; text:\n%s", got.IsError, wantErr, got.Text)
	}
	for _, f := range fragments {
		if !strings.Contains(got.Text, f) {
			t.Errorf("result does not contain %q; text:\n%s", f, got.Text)
		}
	}
}

func readFileT(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
