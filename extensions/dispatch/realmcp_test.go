//go:build unix

package dispatch

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/servers"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestRealPluginMCPServers loads the MCP declarations of published
// plugins from local mirrors (bare or not), served over loopback HTTPS,
// and checks they are reported precisely: context-mode's server declared
// twice counts once; the official marketplace's remote servers read only
// the variables their headers name; a launcher that is not on PATH,
// a placeholder URL and an OAuth server each get their own state. It
// needs no network. Run it with the mirrors' paths:
//
//	MCP_CONTEXT_MODE=/path/to/context-mode.git \
//	MCP_OFFICIAL_MARKETPLACE=/path/to/claude-plugins-official.git \
//	MCP_KNOWLEDGE_WORK=/path/to/knowledge-work-plugins.git \
//	  go test -tags migrated_fynedo -run TestRealPluginMCPServers -v ./extensions/
func TestRealPluginMCPServers(t *testing.T) {
	repos := map[string]*gittest.Repo{}
	for name, env := range map[string]string{"context-mode": "MCP_CONTEXT_MODE", "official": "MCP_OFFICIAL_MARKETPLACE", "knowledge": "MCP_KNOWLEDGE_WORK"} {
		if dir := os.Getenv(env); dir != "" {
			repos[name] = &gittest.Repo{Dir: dir}
		}
	}
	if len(repos) == 0 {
		t.Skip("MCP_CONTEXT_MODE, MCP_OFFICIAL_MARKETPLACE and MCP_KNOWLEDGE_WORK name no mirrors")
	}
	l := newLoopEnv(t, repos)
	l.disp = l.mcpDispatcher(servers.MCPConfig{PATH: func() string { return "/usr/bin:/bin" },
		StartTimeout: func() time.Duration { return 5 * time.Second }})
	install := func(repoName, plugin string) extensions.Info {
		t.Helper()
		info, err := l.m.InstallFrom(context.Background(), extensions.Source{URL: l.url(repoName), Plugin: plugin}, nil)
		if err != nil {
			t.Fatalf("install %s %s: %v", repoName, plugin, err)
		}
		for _, s := range info.MCPServers {
			t.Logf("%s › %s: %s — %s %s", info.ID, s.Name, s.Target(), s.StateText(), s.EnvText())
		}
		return info
	}
	start := func(info extensions.Info) map[string]extensions.MCPServer {
		t.Helper()
		l.enable(info.ID)
		set := l.disp.Tools(context.Background(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: l.project})
		for _, n := range set.Notices {
			t.Logf("notice: %s", n.Text)
		}
		shown, _ := liveShow(context.Background(), l.m, l.disp, info.ID)
		out := map[string]extensions.MCPServer{}
		for _, s := range shown.MCPServers {
			out[s.Name] = s
			t.Logf("after start: %s › %s: %s", info.ID, s.Name, s.StateText())
		}
		return out
	}
	if repos["context-mode"] != nil {
		info := install("context-mode", "")
		if len(info.MCPServers) != 1 {
			t.Fatalf("context-mode declares its server in .mcp.json and plugin.json: want it once, got %+v", info.MCPServers)
		}
		s := info.MCPServers[0]
		if s.Source != ".mcp.json" || !slices.Equal(s.Argv, []string{"node", "${CLAUDE_PLUGIN_ROOT}/start.mjs"}) || s.Inactive != "" {
			t.Errorf("context-mode server: %+v", s)
		}
	}
	if repos["official"] != nil {
		gh := install("official", "github").MCPServers
		if len(gh) != 1 || gh[0].URL != "https://api.githubcopilot.com/mcp/" || !slices.Equal(gh[0].UserEnv, []string{"GITHUB_PERSONAL_ACCESS_TOKEN"}) {
			t.Errorf("github server: %+v", gh)
		}
		if c7 := install("official", "context7").MCPServers; len(c7) != 1 || !slices.Equal(c7[0].UserEnv, []string{"CONTEXT7_API_KEY"}) {
			t.Errorf("context7 server: %+v", c7)
		}
		serena := start(install("official", "serena"))["serena"]
		if serena.State != extensions.MCPFailed || !strings.Contains(serena.Error, "needs `uvx`, which was not found on PATH") {
			t.Errorf("serena without uvx: %+v", serena)
		}
	}
	if repos["knowledge"] != nil {
		servers := start(install("knowledge", "engineering"))
		if s := servers["google calendar"]; s.State != extensions.MCPInactive || !strings.Contains(s.Inactive, "placeholder") {
			t.Errorf("placeholder server: %+v", s)
		}
		if s := servers["slack"]; s.State != extensions.MCPNeedsSignIn || !s.OAuth {
			t.Errorf("OAuth server: %+v", s)
		}
	}
}
