package agent

import (
	"context"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
)

// instantModel answers at once, in process: what a child costs beyond it
// is the host's own work.
type instantModel struct{}

func (instantModel) Stream(_ context.Context, _ llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	onDelta(llm.Delta{Kind: llm.PartText, Text: "done"})
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: "done"}}}, Stop: llm.StopEnd}, nil
}

// BenchmarkChildStart is the host's overhead of one delegated task,
// excluding the model (which answers at once, in process): the child's
// session row, SubagentStart and SubagentStop through the lifecycle, the
// tool allowlist, the system prompt with AGENTS.md and the agent body,
// the task message and the answer stored, and the parent's entry twice.
// Goal: ≤ 20 ms an op.
func BenchmarkChildStart(b *testing.B) {
	dir := b.TempDir()
	a, project := newBenchAgent(b, nil)
	a.cfg.Provider = func() (llm.Provider, llm.Config, error) {
		return instantModel{}, llm.Config{Model: "m", ContextWindow: 100_000}, nil
	}
	a.cfg.TranscriptDir = dir
	s, err := a.NewSession(context.Background(), project)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), benchGuard)
	defer cancel()
	s.WaitIdle(ctx)
	ag := lifecycle.Agent{Name: "explorer", Type: "fx:explorer", Description: "explores", Tools: []string{"Read", "Grep", "WebFetch"},
		Prompt: "You explore the code base and report where things are."}
	var took time.Duration
	for b.Loop() {
		began := time.Now()
		res := s.delegate(ctx, ag, "look", "Where is main?")
		took += time.Since(began)
		if res.IsError || res.Text != "done" {
			b.Fatalf("delegate: %+v", res)
		}
	}
	b.ReportMetric(float64(took.Microseconds())/1000/float64(b.N), "ms/child")
}
