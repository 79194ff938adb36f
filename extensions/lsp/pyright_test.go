package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pyrightPath finds pyright-langserver: AGENTDESK_PYRIGHT, the
// repository's bin/pyright/node_modules/.bin, or PATH.
func pyrightPath(t *testing.T) string {
	if p := os.Getenv("AGENTDESK_PYRIGHT"); p != "" {
		return p
	}
	if p, err := filepath.Abs("../../bin/pyright/node_modules/.bin/pyright-langserver"); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("pyright-langserver"); err == nil {
		return p
	}
	t.Skip("pyright-langserver not found: set AGENTDESK_PYRIGHT or `npm install --prefix bin/pyright pyright@1.1.414`")
	return ""
}

// TestPyright: a write that passes a str where an int is declared gets
// pyright's type error.
func TestPyright(t *testing.T) {
	bin := pyrightPath(t)
	root := t.TempDir()
	path := filepath.Join(root, "app.py")
	good := "def double(n: int) -> int:\n    return n * 2\n\nprint(double(2))\n"
	writeFile(t, path, good)
	home := t.TempDir()
	cmd := exec.Command(bin, "--stdio")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+home)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c := NewClient(stdout, stdin, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.Initialize(ctx, root, nil); err != nil {
		t.Fatalf("initialize: %v (stderr %s)", err, stderr.String())
	}
	since := time.Now()
	c.Sync(path, "python", good)
	c.WaitDiagnostics(ctx, path, 1, since)

	bad := strings.Replace(good, "double(2)", `double("two")`, 1)
	writeFile(t, path, bad)
	since = time.Now()
	v, _ := c.Sync(path, "python", bad)
	c.Save(path)
	start := time.Now()
	var shown string
	for time.Since(start) < 30*time.Second {
		wctx, wcancel := context.WithTimeout(ctx, time.Second)
		c.WaitDiagnostics(wctx, path, v, since)
		wcancel()
		var ds []Diagnostic
		for _, d := range c.Diagnostics(path) {
			l, ch := FromLSP(bad, d.Range.Start)
			ds = append(ds, Diagnostic{Path: Rel(root, path), Line: l, Col: ch, Severity: d.Severity, Message: d.Message, Source: d.Source})
		}
		if shown = FormatDiagnostics(ds); strings.Contains(shown, "error") {
			break
		}
	}
	t.Logf("diagnostics after %v:\n%s", time.Since(start).Round(time.Millisecond), shown)
	if !strings.HasPrefix(shown, "app.py:4:14 error") || !strings.Contains(shown, `'two'`) || !strings.Contains(shown, `"int"`) {
		t.Errorf("diagnostics %q, want app.py:4:14 error about 'two' and int", shown)
	}
}
