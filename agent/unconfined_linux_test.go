package agent

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
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

// A project's "Confined commands run without asking" runs a confined
// run_command without a question (still confined); off, it asks.
// "Commands have no network" refuses a loopback connect.
func TestProjectSandboxSettings(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	connect := fmt.Sprintf(`{"command":"exec 3<>/dev/tcp/127.0.0.1/%d && echo connected"}`, ln.Addr().(*net.TCPAddr).Port)
	e := newEnv(t)
	ctx := context.Background()
	if ps := e.agent.ProjectSandbox(ctx, e.project.ID); ps != (ProjectSandbox{}) {
		t.Fatalf("defaults = %+v, want both off", ps)
	}
	if err := e.agent.SetProjectSandbox(ctx, e.project.ID, ProjectSandbox{NoNetwork: true, ConfinedAutoAllow: true}); err != nil {
		t.Fatal(err)
	}
	s := e.newSession()
	outside := filepath.Join(e.home, "outside")
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"touch ` + outside + `"}`},
		{Name: "run_command", Args: connect}}}, llmtest.Reply{Text: "ok"})
	e.send(s, "run")
	if len(e.approver.requests) != 0 {
		t.Errorf("a confined command asked: %+v", e.approver.requests)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the command ran unconfined")
	}
	results := toolResults(e.server.WaitRequests(t, 2)[1])
	if len(results) != 2 || strings.Contains(results[1], "connected") {
		t.Errorf("network off, yet: %q", results)
	}

	if err := e.agent.SetProjectSandbox(ctx, e.project.ID, ProjectSandbox{}); err != nil {
		t.Fatal(err)
	}
	e.approver.answers = []Decision{AllowOnce}
	s2 := e.newSession()
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: connect}}}, llmtest.Reply{Text: "ok"})
	e.send(s2, "run")
	if len(e.approver.requests) != 1 {
		t.Errorf("with the setting off the command must ask: %d requests", len(e.approver.requests))
	}
	if results := toolResults(e.server.WaitRequests(t, 4)[3]); len(results) != 1 || !strings.Contains(results[0], "connected") {
		t.Errorf("network on, yet: %q", results)
	}
}
