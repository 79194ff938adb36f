//go:build unix

package dispatch_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/dispatch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
	"github.com/agentdesk/agentdesk/storage"
)

// benchMCPTool is the fixture server's echo tool as the loop gets it,
// through an installed, enabled extension and the Dispatcher.
func benchMCPTool(b *testing.B) lifecycle.ToolDescriptor {
	b.Helper()
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	r := gittest.NewRepo(b)
	r.Commit(b, "main", "bench", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "benchmcp"}`},
		".mcp.json":                  {Body: `{"fix": {"command": "` + exe + `", "env": {"` + mcptest.ServeEnv + `": "1"}}}`},
	})
	r.SetHEAD(b, "main")
	srv := gittest.Serve(b, map[string]*gittest.Repo{"benchmcp": r})
	dir := b.TempDir()
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(dir, "agentdesk.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	m, err := extensions.NewManager(ctx, db, filepath.Join(dir, "extensions"), extensions.WithHTTPClient(srv.Client))
	if err != nil {
		b.Fatal(err)
	}
	installEnabled(b, m, srv.URL+"/benchmcp.git")
	disp := dispatch.New(m, dispatch.Config{HookPATH: func() string { return benchHookPATH }})
	b.Cleanup(disp.Close)
	set := disp.Tools(ctx, lifecycle.ToolsEvent{SessionID: "bench", ProjectDir: dir})
	for _, t := range set.Tools {
		if strings.HasSuffix(t.Name, "__echo") {
			return t
		}
	}
	b.Fatalf("no echo tool: %+v", set)
	return lifecycle.ToolDescriptor{}
}

// rawSDKSession is the yardstick: the SDK's own client on its own
// CommandTransport, talking to the same fixture server.
func rawSDKSession(b *testing.B) *sdk.ClientSession {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = []string{mcptest.ServeEnv + "=1"}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// BenchmarkMCPCallOverhead measures what AgentDesk adds to one MCP tool
// call: the echo tool called through the Dispatcher's descriptor (call
// timeout, argument decoding, the SDK call over the child's pipes,
// rendering the result) against the SDK's own client calling the same
// server's echo directly, alternately. Goal: added-ms ≤ 2. ns/op covers
// both calls.
func BenchmarkMCPCallOverhead(b *testing.B) {
	tool := benchMCPTool(b)
	raw := rawSDKSession(b)
	args := json.RawMessage(`{"text":"benchmark"}`)
	host := func() time.Duration {
		began := time.Now()
		r := tool.Call(context.Background(), args)
		took := time.Since(began)
		if r.IsError || r.Text != "benchmark" {
			b.Fatalf("echo through the host: %+v", r)
		}
		return took
	}
	direct := func() time.Duration {
		began := time.Now()
		_, err := raw.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "benchmark"}})
		took := time.Since(began)
		if err != nil {
			b.Fatal(err)
		}
		return took
	}
	var p gittest.Paired
	for b.Loop() {
		p.Run(host, direct)
	}
	p.Report(b, "host", "sdk")
}

// BenchmarkToolsWithoutMCPServers measures what asking for MCP tools
// costs at a turn boundary when the enabled extensions declare no MCP
// server (one hook-only extension): a registry read, nothing started.
func BenchmarkToolsWithoutMCPServers(b *testing.B) {
	x := newBenchExtensions(b, 1, "exit 0")
	ev := lifecycle.ToolsEvent{SessionID: "bench", ProjectDir: x.project}
	for b.Loop() {
		if set := x.disp.Tools(context.Background(), ev); len(set.Tools)+len(set.Notices) != 0 {
			b.Fatalf("tools from an extension without servers: %+v", set)
		}
	}
}
