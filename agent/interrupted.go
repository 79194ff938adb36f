package agent

import (
	"context"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// InterruptedResult is the result a tool call gets when AgentDesk stopped
// (a crash, a kill, a power cut) before the call finished. The call is
// never run again: it may have had its effects.
const InterruptedResult = "interrupted: AgentDesk stopped before this call finished; it may have run"

// repairInterrupted answers, on loading a session, the calls of its last
// assistant message that have no result, so the next request is one every
// provider accepts (each tool call answered before anything else). The
// results are stored and shown like any other.
func (s *Session) repairInterrupted(ctx context.Context) error {
	for _, call := range unansweredCalls(s.main.entries) {
		result := []llm.Part{{Kind: llm.PartToolResult, CallID: call.CallID, Name: call.Name, Text: InterruptedResult, IsError: true}}
		if _, err := s.append(ctx, s.main, Entry{Role: llm.RoleTool, Parts: result, Tokens: estimateParts(result)}); err != nil {
			return err
		}
	}
	return nil
}

// unansweredCalls are the tool calls of the last assistant message that
// no later tool message answers. Host entries do not count: they are
// never sent.
func unansweredCalls(entries []Entry) []llm.Part {
	last := -1
	for i, e := range entries {
		if e.Role == llm.RoleAssistant {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	answered := map[string]bool{}
	for _, e := range entries[last+1:] {
		if e.Role != llm.RoleTool {
			continue
		}
		for _, p := range e.Parts {
			answered[p.CallID] = true
		}
	}
	var out []llm.Part
	for _, c := range entries[last].Message().ToolCalls() {
		if !answered[c.CallID] {
			out = append(out, c)
		}
	}
	return out
}
