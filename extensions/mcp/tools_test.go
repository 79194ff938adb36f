package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTooManyToolsAreSaid: a server offering 5,000 tools gets its first
// MaxTools used and one left-out entry that says the rest were not.
func TestTooManyToolsAreSaid(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "many", Version: "1"}, nil)
	for i := range 5000 {
		srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("t%04d", i), InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{}, nil
			})
	}
	ts := httptest.NewTLSServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	c := connect(t, Spec{Name: "many", Type: HTTP, URL: ts.URL, HTTPClient: ts.Client()})
	tools, err := c.Tools(context.Background())
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	if len(tools) != MaxTools+1 {
		t.Fatalf("%d tools, want %d and one left-out entry", len(tools), MaxTools)
	}
	last := tools[MaxTools]
	if !strings.Contains(last.Problem, fmt.Sprintf("more than %d tools", MaxTools)) {
		t.Errorf("the cut is not said: %+v", last)
	}
	for _, x := range tools[:MaxTools] {
		if x.Problem != "" {
			t.Fatalf("tool %s: %s", x.Name, x.Problem)
		}
	}
}

// TestGarbageAtStartIsReportedAsSuch: a server that writes something
// other than MCP is stopped, and the reason given is the handshake, not
// the SIGTERM that stopped it.
func TestGarbageAtStartIsReportedAsSuch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Connect(ctx, Spec{Name: "garbage", Type: Stdio, Path: "/bin/sh",
		Argv: []string{"sh", "-c", "echo 'this is not json-rpc'; sleep 30"}, Dir: t.TempDir()})
	if err == nil || strings.Contains(err.Error(), "signal") || !strings.Contains(err.Error(), "handshake") {
		t.Fatalf("start error = %v, want the handshake's reason", err)
	}
}
