package manifest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func lspServer(t *testing.T, pkg *Package, name string) LSPServer {
	t.Helper()
	for _, s := range pkg.LSPServers {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no LSP server %q in %+v (diagnostics %q)", name, pkg.LSPServers, pkg.Diagnostics)
	return LSPServer{}
}

// Declarations as the official marketplace's LSP plugins write them
// (gopls-lsp, pyright-lsp: a strict:false entry becomes the manifest), a
// .lsp.json file, and the broken ones.
func TestLoadLSPServers(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "langs",
			"lspServers": {
				"gopls": {"command": "gopls", "extensionToLanguage": {".go": "go"}, "startupTimeout": 20000,
					"settings": {"gopls": {"staticcheck": true}}, "initializationOptions": {"x": 1},
					"restartOnCrash": true, "maxRestarts": 3},
				"wrapped": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/ls.sh", "args": ["--stdio"], "extensionToLanguage": {".ts": "typescript", ".d.ts": "typescript-decl"},
					"env": {"TOKEN": "${MY_TOKEN}"}},
				"sock": {"command": "srv", "transport": "socket", "extensionToLanguage": {".c": "c"}},
				"nolang": {"command": "srv"},
				"nocmd": {"extensionToLanguage": {".rs": "rust"}}
			}}`,
		".lsp.json": `{"pyright": {"command": "pyright-langserver", "args": ["--stdio"], "extensionToLanguage": {".py": "python", ".pyi": "python"}}}`,
		"bin/ls.sh": "#!/bin/sh\nexec x\n",
	})
	if err := os.Chmod(filepath.Join(root, "bin", "ls.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	pkg := mustLoad(t, root)
	var names []string
	for _, s := range pkg.LSPServers {
		names = append(names, s.Name)
	}
	if want := []string{"pyright", "gopls", "wrapped", "sock", "nolang", "nocmd"}; !slices.Equal(names, want) {
		t.Fatalf("servers %q, want %q (diagnostics %q)", names, want, pkg.Diagnostics)
	}
	py := lspServer(t, pkg, "pyright")
	if py.Source != ".lsp.json" || py.Inactive != "" || !slices.Equal(py.Argv(), []string{"pyright-langserver", "--stdio"}) || py.Transport != LSPStdio {
		t.Errorf("pyright = %+v", py)
	}
	if lang, ok := py.Language("pkg/mod.PYI"); !ok || lang != "python" {
		t.Errorf("pyright covers mod.PYI as %q %v", lang, ok)
	}
	if _, ok := py.Language("main.go"); ok {
		t.Error("pyright covers main.go")
	}
	g := lspServer(t, pkg, "gopls")
	if g.StartupTimeoutMS != 20000 || !g.RestartOnCrash || g.MaxRestarts != 3 || string(g.Settings) != `{"gopls": {"staticcheck": true}}` || string(g.InitializationOptions) != `{"x": 1}` || g.Inactive != "" {
		t.Errorf("gopls = %+v", g)
	}
	w := lspServer(t, pkg, "wrapped")
	if w.Inactive != "" || !slices.Equal(w.Files, []string{"bin/ls.sh"}) || len(w.FileSHA256) != 1 || !slices.Equal(w.UserEnv, []string{"MY_TOKEN"}) {
		t.Errorf("wrapped = %+v", w)
	}
	if lang, _ := w.Language("x.d.ts"); lang != "typescript-decl" {
		t.Errorf("x.d.ts is %q, want the longest extension's language", lang)
	}
	for name, want := range map[string]string{"sock": `transport "socket" is not supported`, "nolang": "covers no file", "nocmd": "no command"} {
		if s := lspServer(t, pkg, name); !strings.Contains(s.Inactive, want) {
			t.Errorf("%s: inactive %q, want %q", name, s.Inactive, want)
		}
	}
	if hasDiagnostic(pkg, "not supported, ignored") {
		t.Errorf("LSP servers still reported as not run: %q", pkg.Diagnostics)
	}
}

// An LSP server is part of what the user trusts: adding one, or changing
// its argv or settings, changes the hash; without one the hash is the
// hooks-and-MCP hash as before.
func TestTrustHashLSP(t *testing.T) {
	hooks := []Hook{{Event: "SessionStart", Argv: []string{"echo"}}}
	mcp := []MCPServer{{Name: "m", Type: MCPStdio, Command: "srv"}}
	if TrustHashWithLSP(hooks, mcp, nil) != TrustHash(hooks, mcp) || TrustHashWithLSP(hooks, nil, nil) != HooksHash(hooks) {
		t.Fatal("without LSP servers the hash changed")
	}
	base := LSPServer{Name: "gopls", Transport: LSPStdio, Command: "gopls", ExtensionToLanguage: []NameValue{{".go", "go"}}}
	h0 := TrustHashWithLSP(hooks, mcp, []LSPServer{base})
	if h0 == TrustHash(hooks, mcp) {
		t.Error("adding an LSP server kept the hash")
	}
	changed := []func(*LSPServer){
		func(s *LSPServer) { s.Args = []string{"serve"} },
		func(s *LSPServer) { s.Settings = []byte(`{"a":1}`) },
		func(s *LSPServer) { s.Env = []NameValue{{"A", "b"}} },
		func(s *LSPServer) { s.ExtensionToLanguage = append(s.ExtensionToLanguage, NameValue{".mod", "go.mod"}) },
		func(s *LSPServer) { s.Files, s.FileSHA256 = []string{"x"}, []string{"00"} },
	}
	for i, f := range changed {
		s := base
		f(&s)
		if TrustHashWithLSP(hooks, mcp, []LSPServer{s}) == h0 {
			t.Errorf("change %d kept the hash", i)
		}
	}
}
