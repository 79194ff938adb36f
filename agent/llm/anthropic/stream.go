package anthropic

import (
	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// emit passes on the text and thinking fragments of an event. Assembling
// the message, input_json_delta and signatures included, is left to the
// SDK's Message.Accumulate.
func emit(event sdk.MessageStreamEventUnion, onDelta func(llm.Delta)) {
	if event.Type != "content_block_delta" {
		return
	}
	switch d := event.Delta; d.Type {
	case "text_delta":
		if d.Text != "" {
			onDelta(llm.Delta{Kind: llm.PartText, Text: d.Text})
		}
	case "thinking_delta":
		if d.Thinking != "" {
			onDelta(llm.Delta{Kind: llm.PartReasoning, Text: d.Thinking})
		}
	}
}

// openTools holds the tool_use blocks started and not yet stopped, by
// index. A message that ends with one open carries a tool call the
// server never finished: ds4-server ends so when the model does not close
// its call ("unterminated tool call"), with stop_reason "end_turn", and
// the SDK's Accumulate then replaces the cut-off input with {}. Run, such
// a call would do something the model never asked for.
type openTools map[int64]string

func (o openTools) see(event sdk.MessageStreamEventUnion) {
	switch event.Type {
	case "content_block_start":
		if event.ContentBlock.Type == "tool_use" {
			o[event.Index] = event.ContentBlock.Name
		}
	case "content_block_stop":
		delete(o, event.Index)
	}
}

// first is the name of the lowest open tool call, if any.
func (o openTools) first() (string, bool) {
	name, ok, lowest := "", false, int64(0)
	for i, n := range o {
		if !ok || i < lowest {
			name, ok, lowest = n, true, i
		}
	}
	return name, ok
}

// response converts the accumulated message. Redacted thinking is kept
// as reasoning without text: the API wants it back, unchanged, when the
// conversation continues after tool use.
func response(msg sdk.Message) llm.Response {
	var parts []llm.Part
	for _, block := range msg.Content {
		switch block.Type {
		case "thinking":
			parts = append(parts, llm.Part{Kind: llm.PartReasoning, Text: block.Thinking, Signature: block.Signature})
		case "redacted_thinking":
			parts = append(parts, llm.Part{Kind: llm.PartReasoning, Redacted: block.Data})
		case "text":
			parts = append(parts, llm.Part{Kind: llm.PartText, Text: block.Text})
		case "tool_use":
			parts = append(parts, llm.Part{Kind: llm.PartToolCall, CallID: block.ID, Name: block.Name, Args: toolArgs(block.Input)})
		}
	}
	u := msg.Usage
	return llm.Response{
		Message: llm.Message{Role: llm.RoleAssistant, Parts: parts},
		Usage: llm.Usage{
			// Cached prompt tokens are counted apart; the context holds them all.
			InputTokens:  int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
			OutputTokens: int(u.OutputTokens),
		},
		Stop:       stopOf(string(msg.StopReason)),
		StopReason: string(msg.StopReason),
	}
}

// stopOf reads a stop_reason: end_turn, stop_sequence, pause_turn and
// refusal end the answer; max_tokens and model_context_window_exceeded
// cut it short.
func stopOf(reason string) llm.Stop {
	switch reason {
	case "tool_use":
		return llm.StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return llm.StopTruncated
	}
	return llm.StopEnd
}

// toolArgs is a tool_use input as argument JSON; a call without
// arguments streams none and is "{}".
func toolArgs(input []byte) string {
	if len(input) == 0 {
		return "{}"
	}
	return string(input)
}
