//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// officialLSPEntries are the official marketplace's gopls-lsp and
// pyright-lsp entries as anthropics/claude-plugins-official lists them
// (strict: false, the servers declared in the entry).
const officialLSPEntries = `{"name": "gopls-lsp", "description": "Go language server for code intelligence and refactoring", "version": "1.0.0", "source": "./plugins/gopls-lsp", "category": "development", "strict": false, "lspServers": {"gopls": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}},
{"name": "pyright-lsp", "description": "Python language server (Pyright) for type checking and code intelligence", "version": "1.0.0", "source": "./plugins/pyright-lsp", "category": "development", "strict": false, "lspServers": {"pyright": {"command": "pyright-langserver", "args": ["--stdio"], "extensionToLanguage": {".py": "python", ".pyi": "python"}}}}`

// officialMarketplace is the real official marketplace when
// $AGENTDESK_OFFICIAL_MARKETPLACE names a clone or bare mirror of it,
// else one holding its two LSP entries.
func officialMarketplace(t *testing.T) *gittest.Repo {
	if dir := os.Getenv("AGENTDESK_OFFICIAL_MARKETPLACE"); dir != "" {
		return &gittest.Repo{Dir: dir}
	}
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "official LSP plugins", map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name": "claude-plugins-official", "plugins": [` + officialLSPEntries + `]}`},
		"plugins/gopls-lsp/README.md":     {Body: "# gopls\n\nInstall: go install golang.org/x/tools/gopls@latest\n"},
		"plugins/pyright-lsp/README.md":   {Body: "# pyright\n\nInstall: npm install -g pyright\n"},
	})
	r.SetHEAD(t, "main")
	return r
}

// binOf is the folder of a language server the Makefile installs into
// bin/, or of one on PATH; the test is skipped without it.
func binOf(t *testing.T, rel, name string) string {
	if p, err := filepath.Abs(filepath.Join("..", "bin", rel)); err == nil {
		if _, err := os.Stat(p); err == nil {
			return filepath.Dir(p)
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return filepath.Dir(p)
	}
	t.Skipf("%s not found: run `make test`, which installs it into bin/", name)
	return ""
}

// The official gopls-lsp and pyright-lsp, installed from their
// marketplace over loopback HTTPS and enabled, used through a scripted
// model by `agentdesk run`: the lsp tool is offered and finds a
// definition, an edit that renames a Go function gets the caller's
// "undefined:" in its result, a Python write gets pyright's type error,
// and no server is left once the run ends.
func TestRunUsesOfficialLSPPlugins(t *testing.T) {
	goplsDir := binOf(t, "gopls", "gopls")
	pyrightDir := binOf(t, "pyright/node_modules/.bin/pyright-langserver", "pyright-langserver")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH")
	}
	srv := gittest.Serve(t, map[string]*gittest.Repo{"claude-plugins-official": officialMarketplace(t)})
	model := llmtest.NewOpenAI(t)
	path := strings.Join([]string{goplsDir, pyrightDir, filepath.Dir(goBin), filepath.Dir(node), "/usr/bin", "/bin"}, ":")
	c := newCLI(t, "SSL_CERT_FILE="+srv.CAFile, "AGENTDESK_BASE_URL="+model.URL, "AGENTDESK_MODEL=m", "GOTOOLCHAIN=local", "GOPROXY=off")
	for i, kv := range c.env {
		if strings.HasPrefix(kv, "PATH=") {
			c.env[i] = "PATH=" + path
		}
	}
	out := c.ok("ext", "install", srv.URL+"/claude-plugins-official.git", "--plugin", "gopls-lsp", "--plugin", "pyright-lsp")
	if !strings.Contains(out, "2 installed") {
		t.Fatalf("install:\n%s", out)
	}
	if out := c.ok("ext", "enable", "gopls-lsp", "--yes"); !strings.Contains(out, "gopls") {
		t.Errorf("enable does not name the server:\n%s", out)
	}
	c.ok("ext", "enable", "pyright-lsp", "--yes")

	project := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/tiny\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"x\"))\n}\n",
		"util.go": "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(project, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	badPy := "def double(n: int) -> int:\n    return n * 2\n\nprint(double(\"two\"))\n"
	model.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "lsp", Args: `{"operation":"goToDefinition","filePath":"main.go","line":6,"character":14}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Args: `{"path":"util.go","old_string":"func greet","new_string":"func hello"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"app.py","content":` + strconv.Quote(badPy) + `}`}}},
		llmtest.Reply{Text: "DONE"},
	)
	stdout, stderr, code := c.run("", "run", "--project", project, "--approve", "all", "rename greet")
	if code != 0 || !strings.Contains(stdout, "DONE") {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	reqs := model.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4\n%s", len(reqs), stderr)
	}
	if !strings.Contains(strings.Join(reqs[0].Tools, ","), "lsp") {
		t.Errorf("the lsp tool is not offered: %q", reqs[0].Tools)
	}
	result := func(i int) string {
		msgs := reqs[i].Messages
		last := msgs[len(msgs)-1]
		return strings.Join(last.ToolResults, "\n")
	}
	if got := result(1); !strings.Contains(got, "util.go:3:6: func greet(name string) string") {
		t.Errorf("goToDefinition result:\n%s", got)
	}
	if got := result(2); !strings.Contains(got, "Diagnostics from gopls:\nmain.go:6:14 error undefined: greet") {
		t.Errorf("edit_file result:\n%s", got)
	}
	if got := result(3); !strings.Contains(got, "Diagnostics from pyright:\napp.py:4:14 error") {
		t.Errorf("write_file result:\n%s", got)
	}
	if left := processesIn(project); len(left) > 0 {
		t.Errorf("processes still running in the project after the run: %v", left)
	}
}

// processesIn lists the processes whose working folder is dir.
func processesIn(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || cwd != dir {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}
