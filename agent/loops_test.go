package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// Switching between live loops is not a resume; a loop rebuilt from
// storage is; the least recently used idle loop is evicted with
// SessionEnd "other"; quitting ends the rest with "prompt_input_exit".
func TestLoopsKeepRecentSessionsAlive(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	loops := e.agent.NewLoops(2)
	a, err := loops.New(ctx, e.project)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := loops.New(ctx, e.project)
	e.idle(a)
	e.idle(b)
	if again, _ := loops.Open(ctx, a.ID()); again != a {
		t.Fatal("switching back to a live session must give its loop, not a new one")
	}
	if n := e.life.count("SessionStart:resume"); n != 0 {
		t.Fatalf("switching between live loops fired resume %d times", n)
	}
	c, _ := loops.New(ctx, e.project) // b is now the least recently used
	e.idle(c)
	waitFor(t, "b's SessionEnd", func() bool { return e.life.count("SessionEnd:other") == 1 })
	if loops.Live(b.ID()) || !loops.Live(a.ID()) || !loops.Live(c.ID()) {
		t.Fatal("the least recently used loop must be the one evicted")
	}
	b2, err := loops.Open(ctx, b.ID())
	if err != nil {
		t.Fatal(err)
	}
	e.idle(b2)
	if b2 == b || e.life.count("SessionStart:resume") != 1 {
		t.Fatalf("an evicted session is rebuilt from storage with resume (resumes: %d)", e.life.count("SessionStart:resume"))
	}
	loops.CloseAll(ctx, lifecycle.EndExit)
	if n := e.life.count("SessionEnd:prompt_input_exit"); n != 2 {
		t.Fatalf("quit ended %d loops, want the 2 alive", n)
	}
}

func TestLoopsNeverEvictARunningTurn(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	hold := make(chan struct{})
	defer close(hold)
	e.server.Push(llmtest.Reply{Text: "slow", Hold: hold})
	loops := e.agent.NewLoops(1)
	busy, _ := loops.New(ctx, e.project)
	e.idle(busy)
	busy.Submit("think long")
	waitFor(t, "the request", func() bool { return len(e.server.Requests()) == 1 })
	other, _ := loops.New(ctx, e.project)
	e.idle(other)
	if !loops.Live(busy.ID()) || !loops.Live(other.ID()) {
		t.Fatal("a loop with a running turn must stay alive past the limit")
	}
	if strings.Contains(strings.Join(e.life.Calls(), ","), "SessionEnd") {
		t.Fatal("nothing may end while the busy loop runs")
	}
	busy.Stop()
}

func TestLoopsNeverEvictTheShownSession(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	loops := e.agent.NewLoops(1)
	shown, _ := loops.New(ctx, e.project)
	e.idle(shown)
	loops.Show(shown.ID())
	for range 3 {
		s, _ := loops.New(ctx, e.project)
		e.idle(s)
	}
	if !loops.Live(shown.ID()) {
		t.Fatal("the session the window shows was evicted")
	}
	loops.Show("")
	last, _ := loops.New(ctx, e.project)
	e.idle(last)
	waitFor(t, "the eviction", func() bool { return !loops.Live(shown.ID()) })
}
