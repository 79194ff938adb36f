//go:build unix

package dispatch

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// lspPlugin is the official marketplace's gopls-lsp as a plugin: one
// server in .lsp.json, plus one that cannot start.
func lspPlugin(cmd string) map[string]gittest.File {
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "gopls-lsp", "version": "1.0.0"}`},
		".lsp.json": {Body: `{"gopls": {"command": "` + cmd + `", "args": ["serve"], "extensionToLanguage": {".go": "go"}, "env": {"GOFLAGS": "-mod=mod"}},
			"sock": {"command": "x", "transport": "socket", "extensionToLanguage": {".c": "c"}}}`},
	}
}

func TestLSPServersListedForTrust(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"gopls-lsp": repo(t, lspPlugin("gopls"))})
	info := e.install("gopls-lsp", "")
	tr, err := e.m.TrustPrompt(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.NeedsConfirmation() || len(tr.LSPServers) != 1 || len(tr.NotRunLSP) != 1 {
		t.Fatalf("trust prompt LSP servers %+v, not run %+v", tr.LSPServers, tr.NotRunLSP)
	}
	g := tr.LSPServers[0]
	if !slices.Equal(g.Argv, []string{"gopls", "serve"}) || !slices.Equal(g.Extensions, []string{".go=go"}) ||
		!strings.Contains(g.CoversText(), `GOFLAGS="-mod=mod"`) {
		t.Errorf("trusted LSP server shown as %+v (%s)", g, g.CoversText())
	}
	if s := tr.NotRunLSP[0]; s.Name != "sock" || !strings.Contains(s.Inactive, "socket") {
		t.Errorf("socket server shown as %+v", s)
	}
	if len(info.LSPServers) != 2 || info.LSPServers[0].State != extensions.LSPNotStarted || info.LSPServers[1].State != extensions.LSPInactive {
		t.Errorf("info LSP servers after install: %+v", info.LSPServers)
	}
	for _, d := range info.Diagnostics {
		if strings.Contains(d, "lspServers: not supported") {
			t.Errorf("still reported as not run: %q", d)
		}
	}
}

func TestLSPTrustHashChangesWithTheServer(t *testing.T) {
	r := repo(t, lspPlugin("gopls"))
	e := newTestEnv(t, map[string]*gittest.Repo{"gopls-lsp": r})
	e.install("gopls-lsp", "")
	e.enable("gopls-lsp")
	r.Commit(t, "main", "run another program", lspPlugin("/tmp/evil"))
	if _, err := e.m.Update(context.Background(), "gopls-lsp", "", nil); err != nil {
		t.Fatal(err)
	}
	info, _ := e.m.Show(context.Background(), "gopls-lsp")
	if info.Status != extensions.StatusNeedsReview {
		t.Fatalf("an update that changes an LSP server's command is %s, want needs review", info.Status)
	}
}
