package llmtest

import (
	"net/http"
	"strconv"
)

// Request is one model request as the fake server received it.
type Request struct {
	Raw    []byte         // the exact body
	Body   map[string]any // the body decoded
	Header http.Header

	Model string
	// System is the system prompt text: the content of the system
	// message(s) for OpenAI, the top-level "system" for Anthropic.
	System string
	// SystemMessages counts system-role messages (OpenAI), or is 1 when
	// Anthropic's top-level system is set.
	SystemMessages int
	Messages       []Msg    // the non-system messages, in order
	Tools          []string // names of the tools offered
}

// Msg is one non-system message of a Request.
type Msg struct {
	Role string
	// Texts holds every text part in order, context parts included.
	Texts []string
	// ToolCallIDs are the ids of the tool calls an assistant message makes,
	// or of the calls a tool-result message answers.
	ToolCallIDs []string
	// ToolResults are the result contents, in the order of ToolCallIDs.
	ToolResults []string
	// Reasoning is an assistant message's reasoning_content (OpenAI).
	Reasoning string
}

// Roles lists the roles of the non-system messages, in order.
func (r Request) Roles() []string {
	roles := make([]string, len(r.Messages))
	for i, m := range r.Messages {
		roles[i] = m.Role
	}
	return roles
}

// LastMessage is the final message of the request; the zero Msg if none.
func (r Request) LastMessage() Msg {
	if len(r.Messages) == 0 {
		return Msg{}
	}
	return r.Messages[len(r.Messages)-1]
}

// JSON helpers for walking a decoded body: a missing or mistyped field
// reads as its zero value, which the tests then report as a mismatch.

func str(v any) string {
	s, _ := v.(string)
	return s
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// toolNames reads the names of a tools array; OpenAI nests them under
// "function", Anthropic does not.
func toolNames(tools any) []string {
	var names []string
	for _, t := range list(tools) {
		tool := obj(t)
		name := str(tool["name"])
		if fn := obj(tool["function"]); fn != nil {
			name = str(fn["name"])
		}
		names = append(names, name)
	}
	return names
}

// Unanswered names the first tool call of an assistant message that the
// messages right after it do not answer (OpenAI: the "tool" messages that
// follow; Anthropic: the next user message's tool_result blocks), or ""
// when every call is answered. Both APIs reject such a request with 400.
func (r Request) Unanswered() string {
	for i, m := range r.Messages {
		if m.Role != "assistant" || len(m.ToolCallIDs) == 0 {
			continue
		}
		answered := map[string]bool{}
		for _, next := range r.Messages[i+1:] {
			if next.Role != "tool" && next.Role != "user" {
				break
			}
			for _, id := range next.ToolCallIDs {
				answered[id] = true
			}
			if next.Role == "user" {
				break
			}
		}
		for _, id := range m.ToolCallIDs {
			if !answered[id] {
				return "message " + strconv.Itoa(i) + ": tool call " + id + " has no result right after it"
			}
		}
	}
	return ""
}
