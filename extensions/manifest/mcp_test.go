package manifest

import (
	"slices"
	"strings"
	"testing"
)

func server(t *testing.T, pkg *Package, name string) MCPServer {
	t.Helper()
	for _, s := range pkg.MCPServers {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no MCP server %q in %+v (diagnostics %q)", name, pkg.MCPServers, pkg.Diagnostics)
	return MCPServer{}
}

// Declarations as real plugins write them: context-mode declares its one
// server both in .mcp.json and inline (it counts once); the official
// marketplace ships bare maps, http servers with ${VAR} headers, a
// placeholder URL; 21st-dev uses Codex's bearer_token_env_var.
func TestLoadMCPServers(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "ctx",
			"userConfig": {"token": {"sensitive": true}, "region": {"default": "eu"}},
			"mcpServers": {
				"context-mode": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/start.mjs"]},
				"github": {"type": "http", "url": "https://api.example.com/mcp/", "headers": {"Authorization": "Bearer ${GITHUB_PERSONAL_ACCESS_TOKEN}"}},
				"blank": {"type": "http", "url": ""},
				"magic": {"url": "https://21st.example/mcp", "bearer_token_env_var": "API_KEY_21ST", "env_http_headers": {"X-Team": "TEAM"}},
				"tf": {"command": "docker", "args": ["run", "-e", "TFE_TOKEN=${TFE_TOKEN}", "img"], "env": {"REGION": "${user_config.region}", "TOKEN": "${user_config.token}", "DB": "${DB_URL:-sqlite}"}},
				"leaky": {"command": "srv", "args": ["--token", "${user_config.token}"]},
				"plain": {"type": "http", "url": "http://example.com/mcp"},
				"ws": {"type": "ws", "url": "wss://x"},
				"gone": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/missing"},
				"with space": {"command": "srv", "oauth": {"clientId": "x"}}
			}}`,
		".mcp.json": `{"mcpServers": {"context-mode": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/start.mjs"]}}}`,
		"start.mjs": "console.log(1)",
	})
	pkg := mustLoad(t, root)
	var names []string
	for _, s := range pkg.MCPServers {
		names = append(names, s.Name)
	}
	want := []string{"context-mode", "github", "blank", "magic", "tf", "leaky", "plain", "ws", "gone", "with space"}
	if !slices.Equal(names, want) {
		t.Fatalf("servers %q, want %q", names, want)
	}
	ctx := server(t, pkg, "context-mode")
	if ctx.Source != ".mcp.json" || ctx.Type != MCPStdio || ctx.Inactive != "" || !slices.Equal(ctx.Files, []string{"start.mjs"}) {
		t.Errorf("context-mode = %+v", ctx)
	}
	if gh := server(t, pkg, "github"); !slices.Equal(gh.UserEnv, []string{"GITHUB_PERSONAL_ACCESS_TOKEN"}) || gh.Inactive != "" {
		t.Errorf("github = %+v, want it to read GITHUB_PERSONAL_ACCESS_TOKEN", gh)
	}
	if b := server(t, pkg, "blank"); !strings.Contains(b.Inactive, "placeholder") {
		t.Errorf("blank URL: inactive %q", b.Inactive)
	}
	magic := server(t, pkg, "magic")
	if magic.Type != MCPHTTP || !slices.Equal(magic.UserEnv, []string{"TEAM", "API_KEY_21ST"}) {
		t.Errorf("magic = %+v", magic)
	}
	tf := server(t, pkg, "tf")
	if tf.Inactive != "" || !slices.Equal(tf.UserEnv, []string{"DB_URL"}) || !hasDiagnostic(pkg, "${TFE_TOKEN} in its command, arguments or URL is not a variable AgentDesk sets") {
		t.Errorf("tf = %+v, diagnostics %q", tf, pkg.Diagnostics)
	}
	for name, reason := range map[string]string{
		"leaky": "${user_config.token} is sensitive", "plain": "only https", "ws": `transport "ws" is not supported`,
		"gone": "bin/missing does not exist",
	} {
		if s := server(t, pkg, name); !strings.Contains(s.Inactive, reason) {
			t.Errorf("%s: inactive %q, want %q", name, s.Inactive, reason)
		}
	}
	if s := server(t, pkg, "with space"); !s.OAuth || s.Inactive != "" || !hasDiagnostic(pkg, "mcp__plugin_ctx_with_space__") {
		t.Errorf("with space = %+v, diagnostics %q", s, pkg.Diagnostics)
	}
	if !slices.ContainsFunc(pkg.Stamps, func(s FileStamp) bool { return s.Path == "start.mjs" }) {
		t.Errorf("start.mjs not stamped for the tamper check: %+v", pkg.Stamps)
	}
}

func TestExpandMCPServerReadsOnlyDeclaredUserVariables(t *testing.T) {
	s := MCPServer{Name: "tf", Type: MCPStdio, Command: "${CLAUDE_PLUGIN_ROOT}/srv", Args: []string{"${HOME_SECRET}", "${user_config.region}"},
		Env:     []NameValue{{"DB", "${DB_URL:-sqlite}"}, {"TOKEN", "${user_config.token}"}, {"KEY", "${API_KEY}"}, {"DATA", "${CLAUDE_PLUGIN_DATA}/x"}},
		UserEnv: []string{"DB_URL", "API_KEY"}}
	env := map[string]string{"HOME_SECRET": "leak", "API_KEY": "k1"}
	l := s.Expand(MCPEnv{Vars: Vars{PluginRoot: "/p", PluginData: "/d", Options: map[string]string{"region": "eu"}},
		Sensitive: map[string]string{"token": "s3"}, LookupEnv: func(n string) (string, bool) { v, ok := env[n]; return v, ok }})
	if want := []string{"/p/srv", "${HOME_SECRET}", "eu"}; !slices.Equal(l.Argv, want) {
		t.Errorf("argv %q, want %q", l.Argv, want)
	}
	if want := []string{"DB=sqlite", "TOKEN=s3", "KEY=k1", "DATA=/d/x"}; !slices.Equal(l.Env, want) {
		t.Errorf("env %q, want %q", l.Env, want)
	}
	if len(l.Unset) != 0 {
		t.Errorf("unset %q", l.Unset)
	}
	delete(env, "API_KEY")
	if l := s.Expand(MCPEnv{LookupEnv: func(n string) (string, bool) { v, ok := env[n]; return v, ok }}); !slices.Equal(l.Unset, []string{"API_KEY"}) {
		t.Errorf("unset %q, want API_KEY", l.Unset)
	}
}

func TestTrustHashCoversMCPServers(t *testing.T) {
	hooks := []Hook{{Event: "SessionStart", Argv: []string{"x"}}}
	if TrustHash(hooks, nil) != HooksHash(hooks) {
		t.Fatal("without servers the trust hash must stay the hooks hash")
	}
	base := MCPServer{Name: "s", Type: MCPStdio, Command: "node", Args: []string{"a.js"}, Env: []NameValue{{"A", "1"}}}
	changes := map[string]func(*MCPServer){
		"args":    func(s *MCPServer) { s.Args = []string{"b.js"} },
		"env":     func(s *MCPServer) { s.Env = []NameValue{{"A", "${SECRET}"}} },
		"url":     func(s *MCPServer) { s.URL = "https://x" },
		"headers": func(s *MCPServer) { s.Headers = []NameValue{{"Authorization", "x"}} },
		"cwd":     func(s *MCPServer) { s.Cwd = "sub" },
		"userEnv": func(s *MCPServer) { s.UserEnv = []string{"SECRET"} },
	}
	h0 := TrustHash(hooks, []MCPServer{base})
	for name, change := range changes {
		s := base
		s.Args, s.Env = slices.Clone(base.Args), slices.Clone(base.Env)
		change(&s)
		if TrustHash(hooks, []MCPServer{s}) == h0 {
			t.Errorf("changing %s keeps the trust hash", name)
		}
	}
	if TrustHash(hooks, []MCPServer{base}) != h0 {
		t.Error("hash not stable")
	}
}
