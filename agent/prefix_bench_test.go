package agent

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// benchLoopSteps is the length of the tool loop of BenchmarkToolLoopPrefix.
const benchLoopSteps = 5

// BenchmarkToolLoopPrefix runs a 5-step tool loop with thinking on and
// reports prefix-%: of each request's messages plus the assistant message
// the server generated (reasoning included, as its KV cache holds it),
// the share the next request repeats unchanged, averaged over the loop.
// 100% means a server that caches its prompt prefix (ds4-server,
// llama.cpp, vLLM) re-reads nothing but the new tool result at each step.
// "never" is how requests were built before reasoning was sent back.
func BenchmarkToolLoopPrefix(b *testing.B) {
	for _, mode := range []string{llm.ReasoningNever, llm.ReasoningAuto} {
		b.Run("reasoning="+fmt.Sprint(map[string]string{"": "auto (local server)", "never": "never (before)"}[mode]), func(b *testing.B) {
			var share float64
			for b.Loop() {
				share = toolLoopPrefixShare(b, mode)
			}
			b.ReportMetric(100*share, "prefix-%")
		})
	}
}

func toolLoopPrefixShare(b *testing.B, mode string) float64 {
	server := llmtest.NewOpenAI(b)
	var replies []llmtest.Reply
	for i := range benchLoopSteps {
		replies = append(replies, llmtest.Reply{Reasoning: fmt.Sprintf("step %d: look at the file", i),
			ToolCalls: []llmtest.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: "list_dir", Args: `{"path":"."}`}}})
	}
	server.Push(append(replies, llmtest.Reply{Reasoning: "done", Text: "All listed."})...)
	a, p := newBenchAgent(b, server, func(c *llm.Config) { c.SendReasoning = mode })
	s, err := a.NewSession(context.Background(), p)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.Submit("list the project five times")
	ctx, cancel := context.WithTimeout(context.Background(), benchGuard)
	defer cancel()
	if err := s.WaitIdle(ctx); err != nil {
		b.Fatal(err)
	}
	reqs := server.Requests()
	if len(reqs) != benchLoopSteps+1 {
		b.Fatalf("%d requests, want %d", len(reqs), benchLoopSteps+1)
	}
	total := 0.0
	for n := range benchLoopSteps {
		held := append(append([]llmtest.Msg(nil), reqs[n].Messages...), llmtest.Msg{Role: "assistant",
			ToolCallIDs: []string{replies[n].ToolCalls[0].ID}, Reasoning: replies[n].Reasoning})
		same := 0
		for i, m := range held {
			if i < len(reqs[n+1].Messages) && reflect.DeepEqual(reqs[n+1].Messages[i], m) {
				same++
			}
		}
		total += float64(same) / float64(len(held))
	}
	return total / benchLoopSteps
}
