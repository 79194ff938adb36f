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

// TestGopls drives the real gopls over stdio: definition across files,
// references, and the caller's "undefined:" diagnostic after an edit that
// renames the function. It runs confined, started as the host starts
// servers.
func TestGopls(t *testing.T) {
	bin := realServer(t, "AGENTDESK_GOPLS", "gopls", "gopls", "run `make test`, which installs it into bin/ (GOBIN=bin go install golang.org/x/tools/gopls@v0.23.0)")
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module example.com/tiny\n\ngo 1.22\n")
	mainText := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"x\"))\n}\n"
	utilText := "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n"
	mainGo, utilGo := filepath.Join(root, "main.go"), filepath.Join(root, "util.go")
	writeFile(t, mainGo, mainText)
	writeFile(t, utilGo, utilText)

	home := t.TempDir()
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env := append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "GOPROXY=off", "GOFLAGS=-mod=mod",
		"GOCACHE="+strings.TrimSpace(string(gocache)), "GOMODCACHE="+strings.TrimSpace(string(gomodcache)), "GOTOOLCHAIN=local")
	c := startServer(t, root, home, env, bin, "serve")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.Initialize(ctx, root, nil); err != nil {
		t.Fatalf("initialize: %v (stderr %s)", err, c.stderr.tail())
	}
	since := time.Now()
	if _, err := c.Sync(mainGo, "go", mainText); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sync(utilGo, "go", utilText); err != nil {
		t.Fatal(err)
	}
	c.WaitDiagnostics(ctx, mainGo, 1, since)

	// greet( on line 6 of main.go, character 14 (1-based, as read_file shows).
	pos := ToLSP(mainText, 6, 14)
	locs, err := c.Locations(ctx, "textDocument/definition", mainGo, pos)
	if err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || PathOf(locs[0].URI) != utilGo {
		t.Fatalf("definition = %+v, want util.go", locs)
	}
	if l, ch := FromLSP(utilText, locs[0].Range.Start); l != 3 || ch != 6 {
		t.Errorf("definition at %d:%d, want 3:6", l, ch)
	}
	refs, err := c.Locations(ctx, "textDocument/references", utilGo, locs[0].Range.Start)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range refs {
		got = append(got, Rel(root, PathOf(r.URI)))
	}
	if strings.Join(got, ",") != "util.go,main.go" && strings.Join(got, ",") != "main.go,util.go" {
		t.Errorf("references in %q, want util.go and main.go", got)
	}

	// Rename greet in util.go: main.go's call is now undefined.
	renamed := strings.Replace(utilText, "func greet", "func hello", 1)
	writeFile(t, utilGo, renamed)
	since = time.Now()
	v, _ := c.Sync(utilGo, "go", renamed)
	c.Save(utilGo)
	start := time.Now()
	c.WaitDiagnostics(ctx, utilGo, v, since)
	var shown string
	for time.Since(start) < 20*time.Second {
		if shown = FormatDiagnostics(c.DiagnosticsIn(root, mainGo, mainText)); strings.Contains(shown, "undefined: greet") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("diagnostics after %v:\n%s", time.Since(start).Round(time.Millisecond), shown)
	if !strings.HasPrefix(shown, "main.go:6:14 error undefined: greet") {
		t.Errorf("main.go diagnostics %q, want main.go:6:14 error undefined: greet", shown)
	}
	// gopls answers shutdown once its current diagnosis pass ends: on a
	// loaded machine that takes seconds.
	sctx, scancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer scancel()
	shutdownStart := time.Now()
	err = c.Shutdown(sctx)
	t.Logf("shutdown answered in %v", time.Since(shutdownStart).Round(time.Millisecond))
	if err != nil {
		t.Errorf("shutdown: %v; last output %s; stderr %s", err, c.trace.tail(), c.stderr.tail())
	}
	if !c.waitExit(5 * time.Second) {
		t.Error("gopls still running 5 s after exit")
	}
}
