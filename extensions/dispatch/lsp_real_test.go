//go:build unix

package dispatch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// realGopls is the real gopls for a test: $AGENTDESK_GOPLS, the
// repository's bin/ (where the Makefile installs it), or PATH; the test
// is skipped without one.
func realGopls(t *testing.T) string {
	if p := os.Getenv("AGENTDESK_GOPLS"); p != "" {
		return p
	}
	if p, err := filepath.Abs("../../bin/gopls"); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	t.Skip("gopls not found: run `make test`, which installs it into bin/")
	return ""
}

// goModule is a two-file module: main.go calls greet, util.go defines it.
func goModule(t *testing.T) (root, mainText, utilText string) {
	root = t.TempDir()
	mainText = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"x\"))\n}\n"
	utilText = "package main\n\n// greet says hi.\nfunc greet(name string) string { return \"hi \" + name }\n"
	for name, text := range map[string]string{"go.mod": "module example.com/tiny\n\ngo 1.22\n", "main.go": mainText, "util.go": utilText} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, mainText, utilText
}

// TestLSPHostWithRealGopls installs gopls-lsp as the official marketplace
// declares it (command "gopls", .go files), enables it, and uses the
// dispatcher as the agent loop does: the server starts lazily, confined,
// answers definition, references, hover and symbols, gives the caller's
// "undefined:" after a write renames the function, shows on the card,
// and is gone after a disable.
func TestLSPHostWithRealGopls(t *testing.T) {
	gopls := realGopls(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "gopls-lsp", "version": "1.0.0"}`},
		".lsp.json":                  {Body: `{"gopls": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}`},
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"gopls-lsp": repo(t, files)})
	e.install("gopls-lsp", "")
	e.enable("gopls-lsp")
	path := filepath.Dir(gopls) + ":" + filepath.Dir(goBin) + ":/usr/bin:/bin"
	home := t.TempDir()
	d := New(e.m, Config{HookPATH: func() string { return path }, Environ: func() []string { return []string{"HOME=" + home, "GOTOOLCHAIN=local", "GOPROXY=off"} }})
	t.Cleanup(d.Close)
	ctx := context.Background()

	root, mainText, utilText := goModule(t)
	if other := t.TempDir(); d.Covers(ctx, other) {
		t.Error("the lsp tool is offered in a project without Go files")
	}
	if !d.Covers(ctx, root) {
		t.Fatal("the lsp tool is not offered in a Go project")
	}
	mainGo, utilGo := filepath.Join(root, "main.go"), filepath.Join(root, "util.go")
	d.FileRead(ctx, root, mainGo, mainText) // starts gopls in the background

	query := func(op, path, text string, line, char int) string {
		t.Helper()
		qctx, cancel := context.WithTimeout(ctx, 90*time.Second)
		defer cancel()
		res := d.Query(qctx, root, lifecycle.CodeQuery{Operation: op, Path: path, Text: text, Line: line, Character: char})
		if res.IsError {
			t.Fatalf("%s: %s", op, res.Text)
		}
		return res.Text
	}
	// greet( on line 6 of main.go, character 14.
	if got := query("goToDefinition", mainGo, mainText, 6, 14); got != `util.go:4:6: func greet(name string) string { return "hi " + name }` {
		t.Errorf("definition:\n%s", got)
	}
	refs := query("findReferences", utilGo, utilText, 4, 6)
	if !strings.Contains(refs, "main.go:6:14: fmt.Println(greet(\"x\"))") || !strings.Contains(refs, "util.go:4:6:") {
		t.Errorf("references:\n%s", refs)
	}
	if hover := query("hover", mainGo, mainText, 6, 15); !strings.Contains(hover, "func greet(name string) string") || !strings.Contains(hover, "greet says hi") {
		t.Errorf("hover:\n%s", hover)
	}
	if syms := query("documentSymbol", utilGo, utilText, 0, 0); !strings.Contains(syms, "Function greet") {
		t.Errorf("document symbols:\n%s", syms)
	}
	if calls := query("incomingCalls", utilGo, utilText, 4, 6); !strings.Contains(calls, "main.go:6:14: in Function main:") {
		t.Errorf("incoming calls:\n%s", calls)
	}

	// The agent renames greet in util.go: main.go's call breaks.
	renamed := strings.Replace(utilText, "func greet", "func hello", 1)
	if err := os.WriteFile(utilGo, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	diag := d.FileWritten(ctx, root, utilGo, renamed)
	t.Logf("diagnostics after %v:\n%s", time.Since(start).Round(time.Millisecond), diag)
	if !strings.Contains(diag, "Diagnostics from gopls:\nmain.go:6:14 error undefined: greet") {
		t.Errorf("write result gets %q, want main.go:6:14 error undefined: greet", diag)
	}

	info, err := e.m.Show(ctx, "gopls-lsp")
	if err != nil {
		t.Fatal(err)
	}
	d.AddState(&info)
	sv := info.LSPServers[0]
	if sv.State != extensions.MCPReady || sv.Pid == 0 {
		t.Fatalf("card shows %+v", sv)
	}
	if confined, _ := childproc.SandboxStatus(); confined && runtime.GOOS == "linux" {
		childproctest.RequireConfined(t, sv.Pid)
	}
	if _, err := e.m.Disable(ctx, "gopls-lsp"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(sv.Pid, 0); err == nil {
		t.Errorf("gopls (pid %d) still runs after the disable", sv.Pid)
	}
}
