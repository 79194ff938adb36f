package ui

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"
)

func TestLSPLinesShowStateAndStderr(t *testing.T) {
	got := lspLines([]extensions.LSPServer{
		{Name: "gopls", Transport: "stdio", Source: ".lsp.json", Argv: []string{"gopls", "serve"}, Extensions: []string{".go=go"},
			State: extensions.LSPNotStarted},
		{Name: "pyright", Transport: "stdio", Source: "plugin.json", Argv: []string{"pyright-langserver", "--stdio"}, Extensions: []string{".py=python"},
			State: "failed", Restarts: 2, Stderr: "a\nb\nexec: not found"},
	})
	if len(got) != 2 || !strings.Contains(got[0], "gopls serve") || !strings.Contains(got[0], "files .go=go") ||
		!strings.Contains(got[0], "not started (starts with the first covered file)") {
		t.Errorf("gopls line %q", got[0])
	}
	if !strings.Contains(got[1], "failed (restarted 2 times)") || !strings.Contains(got[1], "exec: not found") {
		t.Errorf("pyright line %q", got[1])
	}
	trust := trustLSPLines([]extensions.LSPServer{{Name: "sock", Argv: []string{"x"}, Extensions: []string{".c=c"}, Inactive: "transport \"socket\" is not supported"}})
	if !strings.Contains(trust[0], "will not start: transport") {
		t.Errorf("trust line %q", trust[0])
	}
}
