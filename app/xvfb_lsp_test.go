//go:build xvfb

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestXvfbLSP: in the real window, an approved edit that renames a Go
// function shows gopls's error in the caller on its tool row, the model
// gets it in the result, and quitting ends gopls.
func TestXvfbLSP(t *testing.T) {
	gopls, err := filepath.Abs(filepath.Join("..", "bin", "gopls"))
	if _, serr := os.Stat(gopls); err != nil || serr != nil {
		t.Skip("bin/gopls not installed: run make test")
	}
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "gopls", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "gopls-lsp"}`},
		".lsp.json":                  {Body: `{"gopls": {"command": "` + gopls + `", "extensionToLanguage": {".go": "go"}}}`},
	})
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"gopls-lsp": r})
	server := llmtest.NewOpenAI(t)
	server.Push(
		llmtest.Reply{Text: "Renaming it.", ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Args: `{"path":"util.go","old_string":"func greet","new_string":"func hello"}`}}},
		llmtest.Reply{Text: "Renamed; **main.go** still calls `greet`."},
	)
	home, project := homeWithPlugin(t, srv, "gopls-lsp")
	for name, text := range map[string]string{"go.mod": "module example.com/tiny\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"x\"))\n}\n",
		"util.go": "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n"} {
		os.WriteFile(filepath.Join(project, name), []byte(text), 0o644)
	}

	x := startXvfb(t)
	appEnv := []string{"AGENTDESK_PROJECT=" + project, "AGENTDESK_BASE_URL=" + server.URL, "AGENTDESK_MODEL=" + llmtest.ModelName,
		"GOTOOLCHAIN=local", "GOPROXY=off"}
	a, win := openWindow(t, x, "AgentDesk — project", func() *runningApp { return launch(t, x, home, appEnv) })
	a.dump("Ask anything about this project")
	x.typeText(win, "rename greet to hello")
	x.keys(win, "Return")
	a.dump("Allow edit_file?")
	time.Sleep(600 * time.Millisecond) // past the key guard
	x.keys(win, "ctrl+Return")         // Allow once
	a.dump("still calls")
	if reqs := server.Requests(); len(reqs) != 2 || !strings.Contains(strings.Join(toolResultsOf(reqs[1]), ""), "main.go:6:14 error undefined: greet") {
		t.Fatalf("the model did not get the diagnostics: %+v", reqs)
	}
	t.Logf("screenshot: %s", x.screenshot(win, "lsp-diagnostics-xvfb.png"))
	a.quit()
	if left := processesIn(project); len(left) > 0 {
		t.Fatalf("processes outlived the app: %v", left)
	}
}
