package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPyright: a write that passes a str where an int is declared gets
// pyright's type error.
func TestPyright(t *testing.T) {
	bin := realServer(t, "AGENTDESK_PYRIGHT", "pyright/node_modules/.bin/pyright-langserver", "pyright-langserver",
		"run `make test`, which installs it into bin/pyright (npm install --prefix bin/pyright pyright@1.1.414)")
	root := t.TempDir()
	path := filepath.Join(root, "app.py")
	good := "def double(n: int) -> int:\n    return n * 2\n\nprint(double(2))\n"
	writeFile(t, path, good)
	home := t.TempDir()
	c := startServer(t, root, home, append(os.Environ(), "HOME="+home), bin, "--stdio")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.Initialize(ctx, root, nil); err != nil {
		t.Fatalf("initialize: %v (stderr %s)", err, c.stderr.tail())
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
		if shown = FormatDiagnostics(c.DiagnosticsIn(root, path, bad)); strings.Contains(shown, "error") {
			break
		}
	}
	t.Logf("diagnostics after %v:\n%s", time.Since(start).Round(time.Millisecond), shown)
	if !strings.HasPrefix(shown, "app.py:4:14 error") || !strings.Contains(shown, `'two'`) || !strings.Contains(shown, `"int"`) {
		t.Errorf("diagnostics %q, want app.py:4:14 error about 'two' and int", shown)
	}
}
