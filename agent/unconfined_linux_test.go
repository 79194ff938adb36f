package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// "Run unconfined" lifts the sandbox from the one call it answers: the
// calls before and after it, allowed once, stay confined and cannot
// write into the home folder outside the project.
func TestRunUnconfinedLiftsTheSandboxForOneCall(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	e := newEnv(t)
	e.approver.answers = []Decision{AllowOnce, RunUnconfined, AllowOnce}
	s := e.newSession()
	for _, name := range []string{"before", "unconfined", "after"} {
		path := filepath.Join(e.home, name)
		e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"touch ` + path + `"}`}}},
			llmtest.Reply{Text: "ok"})
		e.send(s, name)
	}
	for name, want := range map[string]bool{"before": false, "unconfined": true, "after": false} {
		_, err := os.Stat(filepath.Join(e.home, name))
		if got := err == nil; got != want {
			t.Errorf("%s: written = %v, want %v", name, got, want)
		}
	}
	if len(e.approver.requests) != 3 {
		t.Fatalf("requests = %d, want 3: Run unconfined grants nothing beyond its call", len(e.approver.requests))
	}
	for _, r := range e.approver.requests {
		if !r.CanRunUnconfined {
			t.Errorf("a confined run_command must offer Run unconfined: %+v", r)
		}
	}
}
