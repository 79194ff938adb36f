package ui

import (
	"context"
	"database/sql"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/storage"
)

// A session another process is writing shows read-only, with a banner; a
// prompt sent to it comes back to the composer; when that process ends,
// the window shows what it wrote and the banner goes.
func TestSessionWrittenByAnotherProcessShowsReadOnly(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	ctx := context.Background()
	p, err := h.agent.OpenProject(ctx, h.project)
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.agent.NewSession(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	s.WaitIdle(ctx)
	s.Close()
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	raw, err := sql.Open("sqlite3", h.paths.Database())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("INSERT INTO session_leases(session_id, pid, heartbeat) VALUES(?, ?, ?)", s.ID(), other.Process.Pid, time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}

	u := h.open(true)
	h.loop.waitFor(t, "the read-only banner", func() bool {
		return u.chat.session != nil && u.chat.banner.Visible() && strings.Contains(u.chat.bannerText.Text, "Read-only: another AgentDesk window or run")
	})
	u.chat.onSend("mine")
	h.loop.waitFor(t, "the prompt back", func() bool { return u.chat.composer.Text == "mine" })

	if _, err := h.db.AppendMessage(ctx, storage.Message{SessionID: s.ID(), Role: "user",
		Parts: []byte(`{"parts":[{"kind":"text","text":"written elsewhere"}]}`)}); err != nil {
		t.Fatal(err)
	}
	other.Process.Kill()
	other.Wait()
	h.loop.waitFor(t, "the other process's words, no banner", func() bool {
		return strings.Contains(allText(u.chat.transcript.list), "written elsewhere") && !u.chat.banner.Visible()
	})
	if n := len(server.Requests()); n != 0 {
		t.Fatalf("%d model requests from a read-only session", n)
	}
}
