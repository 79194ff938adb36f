//go:build unix

package dispatch

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// everythingVersion is the reference MCP server the tests run, from npm.
const everythingVersion = "2026.8.31"

// everythingServer installs @modelcontextprotocol/server-everything with
// npm into a folder under the system temp dir (kept between runs, never
// the home) and returns its entry script. The test is skipped, saying
// why, without npm or without a registry to install from.
func everythingServer(t *testing.T) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the reference 'everything' MCP server cannot be installed")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the reference 'everything' MCP server cannot run")
	}
	dir := filepath.Join(os.TempDir(), "agentdesk-mcp-everything-"+everythingVersion)
	script := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err == nil {
		return script
	}
	os.MkdirAll(dir, 0o755)
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", dir,
		"@modelcontextprotocol/server-everything@"+everythingVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm could not install @modelcontextprotocol/server-everything (offline?): %v\n%s", err, out)
	}
	return script
}

func everythingPlugin(servers string) map[string]gittest.File {
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "everything", "version": "1.0.0"}`},
		".mcp.json":                  {Body: `{"mcpServers": ` + servers + `}`},
	}
}

func newEverythingEnv(t *testing.T, servers string) *mcpEnv {
	l := newLoopEnv(t, map[string]*gittest.Repo{"everything": repo(t, everythingPlugin(servers))}, "everything")
	e := withMCP(t, l, agent.AllowOnce)
	stateWindow(e, 200000) // a large window: every tool fits (budget_test.go tries 32k)
	return e
}

// echoThroughLoop makes the model call the server's echo and get-env
// tools and returns what they gave it.
func echoThroughLoop(t *testing.T, e *mcpEnv, server string) (echo, env string) {
	prefix := "mcp__plugin_everything_" + server + "__"
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: prefix + "echo", Args: `{"message":"round trip"}`}}}, llmtest.Reply{Text: "done"})
	last := e.send(s, "echo")
	reqs := e.model.Requests()
	if tools := reqs[len(reqs)-2].Tools; !slices.Contains(tools, prefix+"echo") || !slices.Contains(tools, prefix+"get-env") {
		t.Fatalf("the everything server's tools are not offered: %q (notices %q)", tools, hosts(s, agent.HostNotice))
	}
	if notices := strings.Join(hosts(s, agent.HostNotice), "\n"); strings.Contains(notices, "left out") || strings.Contains(notices, "wait for tool_search") {
		t.Errorf("a reference server's tools were refused:\n%s", notices)
	}
	echo = toolResult(last)
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: prefix + "get-env", Args: `{}`}}}, llmtest.Reply{Text: "done"})
	env = toolResult(e.send(s, "env"))
	return echo, env
}

func checkEverythingEnv(t *testing.T, env string) {
	var vars map[string]string
	if err := json.Unmarshal([]byte(env), &vars); err != nil {
		t.Fatalf("get-env gave %q: %v", env, err)
	}
	for _, name := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AGENTDESK_API_KEY", "SOME_OTHER_VAR"} {
		if v, ok := vars[name]; ok {
			t.Errorf("the server sees %s=%s", name, v)
		}
	}
	if strings.Contains(env, "sk-secret") {
		t.Errorf("an app key reached the server:\n%s", env)
	}
}

func TestEverythingServerOverStdio(t *testing.T) {
	script := everythingServer(t)
	e := newEverythingEnv(t, `{"everything": {"command": "node", "args": ["`+script+`", "stdio"]}}`)
	echo, env := echoThroughLoop(t, e, "everything")
	if echo != "Echo: round trip" {
		t.Errorf("echo gave %q", echo)
	}
	checkEverythingEnv(t, env)
	if confined, _ := childproc.SandboxStatus(); confined && runtime.GOOS == "linux" {
		info, err := liveShow(t.Context(), e.m, e.disp, "everything")
		if err != nil || len(info.MCPServers) != 1 || info.MCPServers[0].Pid == 0 {
			t.Fatalf("server state %+v, %v", info.MCPServers, err)
		}
		childproctest.RequireConfined(t, info.MCPServers[0].Pid) // it ran, confined
	}
}

func TestEverythingServerOverStreamableHTTP(t *testing.T) {
	script := everythingServer(t)
	port := freePort(t)
	cmd := exec.Command("node", script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() && !strings.Contains(lines.Text(), "listening on port") {
	}
	go func() {
		for lines.Scan() {
		}
	}()
	e := newEverythingEnv(t, fmt.Sprintf(`{"remote": {"type": "http", "url": "http://127.0.0.1:%d/mcp"}}`, port))
	echo, _ := echoThroughLoop(t, e, "remote")
	if echo != "Echo: round trip" {
		t.Errorf("echo over streamable HTTP gave %q", echo)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
