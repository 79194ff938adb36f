package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/storage"
)

// kill -9 of a real `agentdesk run` while the second call of a batch runs
// (the first has finished): the finished result is in the database, and
// the next run of the session sends a request every provider accepts,
// the cut call answered "interrupted", on OpenAI and on Anthropic.
func TestKilledRunKeepsFinishedResultsAndResumes(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{
		{Name: "run_command", Args: `{"command":"echo FAST-DONE"}`},
		{Name: "run_command", Args: `{"command":"echo $$ > slow.tmp && mv slow.tmp slow.pid && exec sleep 60"}`}}})
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	project := t.TempDir()
	cmd := exec.Command(c.bin, "run", "--project", project, "--approve", "all", "do both")
	cmd.Env = c.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slow := pidFromFile(t, filepath.Join(project, "slow.pid"))
	t.Cleanup(func() { _ = syscall.Kill(-slow, syscall.SIGKILL) })
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	_ = syscall.Kill(-slow, syscall.SIGKILL) // item 2 of issue 32 (PDEATHSIG) is not this test's

	id := onlySession(t, c, project)
	if got := storedResults(t, c, id); len(got) != 1 || !strings.Contains(got[0], "FAST-DONE") {
		t.Fatalf("after kill -9, stored results = %q, want the finished call's", got)
	}

	server.Push(llmtest.Reply{Text: "resumed on openai"})
	if out, errOut, code := c.run("", "run", "--session", id, "go on"); code != 0 || out != "resumed on openai\n" {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errOut)
	}
	checkAnswered(t, server.Requests()[1])

	claude := llmtest.NewAnthropic(t)
	claude.Push(llmtest.Reply{Text: "resumed on anthropic"})
	c.env = append(c.env, "AGENTDESK_PROVIDER=anthropic", "AGENTDESK_BASE_URL="+claude.URL)
	if out, errOut, code := c.run("", "run", "--session", id, "and on"); code != 0 || out != "resumed on anthropic\n" {
		t.Fatalf("resume on anthropic: exit %d\n%s%s", code, out, errOut)
	}
	checkAnswered(t, claude.Requests()[0])
	if got := storedResults(t, c, id); len(got) != 2 || got[1] != agent.InterruptedResult {
		t.Fatalf("stored results = %q, want the finished one and one %q", got, agent.InterruptedResult)
	}
}

func checkAnswered(t *testing.T, req llmtest.Request) {
	t.Helper()
	if bad := req.Unanswered(); bad != "" {
		t.Fatalf("the request a provider would reject: %s\n%+v", bad, req.Messages)
	}
	var results []string
	for _, m := range req.Messages {
		results = append(results, m.ToolResults...)
	}
	if got := strings.Join(results, "|"); !strings.Contains(got, "FAST-DONE") || !strings.Contains(got, agent.InterruptedResult) {
		t.Fatalf("results sent = %q", got)
	}
}

func onlySession(t *testing.T, c *cli, project string) string {
	t.Helper()
	var list struct{ Sessions []struct{ ID string } }
	if err := json.Unmarshal([]byte(c.ok("sessions", "--project", project, "--json")), &list); err != nil || len(list.Sessions) != 1 {
		t.Fatalf("sessions: %v %+v", err, list)
	}
	return list.Sessions[0].ID
}

// storedResults reads the texts of a session's stored tool results.
func storedResults(t *testing.T, c *cli, id string) []string {
	t.Helper()
	db, err := storage.Open(context.Background(), filepath.Join(c.home, "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Messages(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		if r.Role != "tool" {
			continue
		}
		var rec struct{ Parts []struct{ Text string } }
		if err := json.Unmarshal(r.Parts, &rec); err != nil {
			t.Fatal(err)
		}
		for _, p := range rec.Parts {
			out = append(out, p.Text)
		}
	}
	return out
}
