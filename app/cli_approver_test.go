package main

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// On the terminal, a call an extension rewrote shows why, the rewrite and
// the original, and "always" allows this call only.
func TestCLIApproverForcedCall(t *testing.T) {
	var out strings.Builder
	a := &cliApprover{in: bufio.NewReader(strings.NewReader("a\n")), out: &out}
	d := a.Request(context.Background(), agent.ApprovalRequest{Tool: "run_command",
		Preview: tools.Preview{Command: "ls -la", Dir: "/p"}, Forced: "Guard rewrote this call",
		Original: &tools.Preview{Command: "rm -rf /", Dir: "/p"}})
	if d != agent.AllowOnce {
		t.Fatalf("decision = %v; a forced call grants nothing beyond itself", d)
	}
	text := out.String()
	for _, want := range []string{"(Guard rewrote this call)", "ls -la", "instead of what the model wrote (this does not run):", "rm -rf /", "[y]es once / [N]o"} {
		if !strings.Contains(text, want) {
			t.Errorf("terminal lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "always") {
		t.Errorf("a forced call must not offer always:\n%s", text)
	}
}
