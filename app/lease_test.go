package main

import (
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// Two `agentdesk run --session S` at once: the second is refused, naming
// the first's pid, and the history stays well-formed; another session
// runs beside it as before.
func TestSecondRunOfABusySessionIsRefused(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	project := t.TempDir()
	server.Push(llmtest.Reply{Text: "first answer"})
	c.ok("run", "--project", project, "first")
	id := onlySession(t, c, project)

	hold := make(chan struct{})
	server.Push(llmtest.Reply{Text: "held answer", Hold: hold})
	first := exec.Command(c.bin, "run", "--session", id, "the held one")
	first.Env = c.env
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Process.Kill(); first.Wait() })
	server.WaitRequests(t, 2)

	out, errOut, code := c.run("", "run", "--session", id, "the second")
	want := "session " + id + " is in use by another AgentDesk window or run (pid " + strconv.Itoa(first.Process.Pid) + ")"
	if code != 1 || !strings.Contains(errOut, want) || out != "" {
		t.Fatalf("second run: exit %d\nstdout %q\nstderr %s\nwant %q", code, out, errOut, want)
	}
	server.Push(llmtest.Reply{Text: "beside it"})
	if out, errOut, code := c.run("", "run", "--project", project, "--new", "another session"); code != 0 || out != "beside it\n" {
		t.Fatalf("a different session: exit %d %q %s", code, out, errOut)
	}

	close(hold)
	if err := first.Wait(); err != nil {
		t.Fatalf("the first run: %v\n%s", err, firstOut.String())
	}
	server.Push(llmtest.Reply{Text: "after"})
	if out, errOut, code := c.run("", "run", "--session", id, "after"); code != 0 || out != "after\n" {
		t.Fatalf("after the first ended: exit %d %q %s", code, out, errOut)
	}
	reqs := server.Requests()
	if got := strings.Join(reqs[len(reqs)-1].Roles(), ","); got != "user,assistant,user,assistant,user" {
		t.Fatalf("history = %s", got)
	}
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(strings.Join(m.Texts, ""), "the second") {
			t.Fatal("the refused prompt reached the history")
		}
	}
}
