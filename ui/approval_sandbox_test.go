package ui

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// "Run unconfined" is offered only for a call the sandbox would confine,
// as a choice of its own beside Allow once.
func TestApprovalOffersRunUnconfined(t *testing.T) {
	a := &approvalDialogs{}
	req := agent.ApprovalRequest{Tool: "run_command", Summary: "run_command ssh-add -l",
		Preview: tools.Preview{Command: "ssh-add -l", Dir: "/p"}}
	if text := allText(a.content(req)); strings.Contains(text, "Run unconfined") {
		t.Errorf("offered for a call that is not confined:\n%s", text)
	}
	req.CanRunUnconfined = true
	text := allText(a.content(req))
	for _, want := range []string{"Run unconfined", "Allow once", "Always allow for this session"} {
		if !strings.Contains(text, want) {
			t.Errorf("dialog lacks %q:\n%s", want, text)
		}
	}
}
