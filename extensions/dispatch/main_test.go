package dispatch

import (
	"os"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.MaybeServe() // the fixture MCP server, when a test starts this binary as one
	os.Exit(m.Run())
}
