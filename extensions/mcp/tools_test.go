package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTooManyToolsAreSaid: a server offering 5,000 tools gets its first
// MaxTools used and one left-out entry that says the rest were not.
func TestTooManyToolsAreSaid(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "many", Version: "1"}, nil)
	for i := range 5000 {
		srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("t%04d", i), InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return &sdk.CallToolResult{}, nil })
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
