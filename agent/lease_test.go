package agent

import (
	"database/sql"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// otherWriter makes a live process of another pid hold the session's
// lease, as a second AgentDesk does; killing it is that process ending.
func (e *env) otherWriter(session string) *exec.Cmd {
	e.t.Helper()
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	raw, err := sql.Open("sqlite3", e.dbPath)
	if err != nil {
		e.t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("INSERT INTO session_leases(session_id, pid, heartbeat) VALUES(?, ?, ?)",
		session, other.Process.Pid, time.Now().UnixMilli()); err != nil {
		e.t.Fatal(err)
	}
	return other
}

// A session another process is writing opens read-only: no SessionStart,
// no "interrupted" results for the calls that process is running, a
// prompt comes back unrun. When that process ends, the session reloads
// what it wrote, fires SessionStart(resume) and takes prompts again.
func TestSessionWrittenElsewhereIsReadOnlyUntilItsWriterEnds(t *testing.T) {
	e := newEnv(t)
	s := e.newSession()
	id := s.ID()
	s.Close()
	other := e.otherWriter(id)
	e.storeEntry(id, Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "their prompt"}}})
	e.storeEntry(id, Entry{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartToolCall, CallID: "c1", Name: "list_dir", Args: `{}`}}})

	s = e.resume(id)
	if s.InUse() != other.Process.Pid {
		t.Fatalf("InUse = %d, want the other writer %d", s.InUse(), other.Process.Pid)
	}
	if n := e.life.count("SessionStart:" + lifecycle.SourceResume); n != 0 {
		t.Fatalf("SessionStart fired %d times on a session another process writes", n)
	}
	s.Submit("mine")
	e.idle(s)
	var refused []Event
	events, _ := s.Bus().Drain()
	for _, ev := range events {
		if ev.Kind == EventInUse {
			refused = append(refused, ev)
		}
	}
	if n := len(refused); n < 2 || !strings.Contains(refused[n-1].Status, "is in use by another AgentDesk window or run") ||
		strings.Join(refused[n-1].Queue, "") != "mine" {
		t.Fatalf("in-use events = %+v", refused)
	}
	if len(e.server.Requests()) != 0 {
		t.Fatal("a read-only session called the model")
	}

	e.storeEntry(id, Entry{Role: llm.RoleTool, Parts: []llm.Part{{Kind: llm.PartToolResult, CallID: "c1", Name: "list_dir", Text: "THEIR RESULT"}}})
	e.storeEntry(id, Entry{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: "their answer"}}})
	other.Process.Kill()
	other.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for s.InUse() != 0 || e.life.count("SessionStart:"+lifecycle.SourceResume) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the session never noticed its writer ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.idle(s)
	var texts []string
	for _, en := range s.Entries() {
		if en.Role != RoleHost {
			texts = append(texts, en.Message().Text()+en.Parts[0].Text)
		}
	}
	if got := strings.Join(texts, "|"); !strings.Contains(got, "THEIR RESULT") || strings.Contains(got, InterruptedResult) {
		t.Fatalf("reloaded entries = %q", got)
	}
	e.server.Push(llmtest.Reply{Text: "now mine"})
	e.send(s, "mine")
	if bad := e.server.Requests()[0].Unanswered(); bad != "" {
		t.Fatal(bad)
	}
}

// A window's idle session that `agentdesk run` wrote meanwhile reloads
// before its next prompt: the request holds the other process's turn.
func TestIdleSessionCatchesUpBeforeItsNextTurn(t *testing.T) {
	e := newEnv(t)
	s := e.newSession()
	e.storeEntry(s.ID(), Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "from the terminal"}}})
	e.storeEntry(s.ID(), Entry{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: "terminal answer"}}})
	e.server.Push(llmtest.Reply{Text: "ok"})
	e.send(s, "from the window")
	if got := strings.Join(e.server.Requests()[0].Roles(), ","); got != "user,assistant,user" {
		t.Fatalf("roles = %s: the window's turn did not see the terminal's", got)
	}
}
