package openai

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"

	oa "github.com/openai/openai-go/v3"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// reasoningFields are the delta fields servers stream reasoning in:
// DeepSeek and llama.cpp "reasoning_content", vLLM, Ollama and OpenRouter
// "reasoning". Neither is an SDK field; the SDK keeps them raw in the
// delta's JSON.ExtraFields.
var reasoningFields = []string{"reasoning_content", "reasoning"}

// assembler builds the answer from chunks. It stands in for the SDK's
// ChatCompletionAccumulator, which knows no reasoning fields and merges
// tool calls by index alone, garbling servers that number every call of a
// message 0 and tell them apart only by id.
type assembler struct {
	text, reasoning strings.Builder
	calls           []*toolCall
	byIndex         map[int64]*toolCall // the latest call at each index
	finish          string
	usage           llm.Usage
}

type toolCall struct {
	id, name string
	args     strings.Builder
}

func (a *assembler) add(chunk oa.ChatCompletionChunk, onDelta func(llm.Delta)) {
	if chunk.JSON.Usage.Valid() {
		a.usage = llm.Usage{InputTokens: int(chunk.Usage.PromptTokens), OutputTokens: int(chunk.Usage.CompletionTokens)}
	}
	for _, choice := range chunk.Choices {
		if choice.Index != 0 { // only one choice is ever requested
			continue
		}
		a.addDelta(choice.Delta, onDelta)
		if choice.FinishReason != "" {
			a.finish = choice.FinishReason
		}
	}
}

func (a *assembler) addDelta(d oa.ChatCompletionChunkChoiceDelta, onDelta func(llm.Delta)) {
	if r := reasoningOf(d); r != "" {
		a.reasoning.WriteString(r)
		onDelta(llm.Delta{Kind: llm.PartReasoning, Text: r})
	}
	// A refusal is the model's answer in OpenAI's own words; show it as such.
	for _, text := range []string{d.Content, d.Refusal} {
		if text != "" {
			a.text.WriteString(text)
			onDelta(llm.Delta{Kind: llm.PartText, Text: text})
		}
	}
	for _, tc := range d.ToolCalls {
		a.addToolCall(tc)
	}
}

func reasoningOf(d oa.ChatCompletionChunkChoiceDelta) string {
	for _, key := range reasoningFields {
		// The SDK marks fields it has no type for as not Valid; their raw
		// JSON is all there is. JSON null decodes to "" and is skipped.
		var s string
		if json.Unmarshal([]byte(d.JSON.ExtraFields[key].Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// addToolCall appends a fragment to its call. Fragments are keyed by
// index; most servers send the id only on a call's first fragment, so a
// fragment without one continues the call at its index, while a new id at
// a known index starts another call.
func (a *assembler) addToolCall(tc oa.ChatCompletionChunkChoiceDeltaToolCall) {
	call := a.byIndex[tc.Index]
	if call == nil || (tc.ID != "" && call.id != "" && tc.ID != call.id) {
		call = &toolCall{}
		a.calls = append(a.calls, call)
		if a.byIndex == nil {
			a.byIndex = make(map[int64]*toolCall)
		}
		a.byIndex[tc.Index] = call
	}
	if tc.ID != "" {
		call.id = tc.ID
	}
	// Some servers repeat the name on every fragment; it is never split.
	if call.name == "" {
		call.name = tc.Function.Name
	}
	call.args.WriteString(tc.Function.Arguments)
}

func (a *assembler) finished() bool { return a.finish != "" }

func (a *assembler) response() llm.Response {
	var parts []llm.Part
	if a.reasoning.Len() > 0 {
		parts = append(parts, llm.Part{Kind: llm.PartReasoning, Text: a.reasoning.String()})
	}
	if a.text.Len() > 0 {
		parts = append(parts, llm.Part{Kind: llm.PartText, Text: a.text.String()})
	}
	for i, c := range a.calls {
		parts = append(parts, llm.Part{
			Kind: llm.PartToolCall,
			// Servers that send no id still need one to pair the result with.
			CallID: cmp.Or(c.id, "call_"+strconv.Itoa(i+1)),
			Name:   c.name,
			Args:   cmp.Or(c.args.String(), "{}"),
		})
	}
	return llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Parts: parts},
		Usage:      a.usage,
		Stop:       stopOf(a.finish),
		StopReason: a.finish,
	}
}

// stopOf reads a finish reason: OpenAI's stop, tool_calls, length and
// content_filter, the older function_call, and ds4-server's "error" (a
// decode failure or an unterminated tool call). Other words some servers
// send for a natural end ("eos", "end_turn") are an end.
func stopOf(finish string) llm.Stop {
	switch finish {
	case "tool_calls", "function_call":
		return llm.StopToolUse
	case "length":
		return llm.StopTruncated
	case "error", "content_filter":
		return llm.StopError
	}
	return llm.StopEnd
}
