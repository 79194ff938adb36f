// Package llm is the provider-neutral model of a conversation and the
// Provider interface the agent loop streams from. The openai and anthropic
// sub-packages translate it to their wire formats.
package llm

import (
	"context"
	"encoding/json"
	"strings"
)

// Role is who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries tool results (the agent stores one message per
	// call, as it ends). OpenAI sends one "tool" message per result,
	// Anthropic one user message of tool_result blocks for consecutive
	// ones.
	RoleTool Role = "tool"
)

// PartKind says what a Part holds.
type PartKind string

const (
	PartText PartKind = "text"
	// PartContext is hidden extension context. It travels inside a user
	// message as its own text part, wrapped by ContextText, and is never
	// shown as transcript text.
	PartContext    PartKind = "context"
	PartReasoning  PartKind = "reasoning"
	PartToolCall   PartKind = "tool_call"
	PartToolResult PartKind = "tool_result"

	// DeltaWaiting is a Delta kind only, carrying no text: the server is
	// alive but the answer has not begun (ds4-server's ": prefill" SSE
	// comments while it reads a long prompt).
	DeltaWaiting PartKind = "waiting"
)

// Part is one piece of a message. Which fields are set depends on Kind.
type Part struct {
	Kind PartKind `json:"kind"`
	Text string   `json:"text,omitempty"`

	// PartContext: which extension and event produced it.
	Source string `json:"source,omitempty"`
	Event  string `json:"event,omitempty"`

	// PartReasoning: Anthropic's thinking signature, required to send a
	// thinking block back in a later request; or, for thinking the
	// provider redacted, its opaque data (Text is then empty), which must
	// go back unchanged.
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`

	// PartToolCall and PartToolResult.
	CallID  string `json:"call_id,omitempty"`
	Name    string `json:"name,omitempty"`
	Args    string `json:"args,omitempty"` // raw JSON object text
	IsError bool   `json:"is_error,omitempty"`
}

// Message is one turn of the conversation as sent to a provider.
type Message struct {
	Role  Role   `json:"role"`
	Parts []Part `json:"parts"`
}

// Text joins the message's visible text parts.
func (m Message) Text() string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Kind == PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// ToolCalls returns the message's tool-call parts in order.
func (m Message) ToolCalls() []Part {
	var calls []Part
	for _, p := range m.Parts {
		if p.Kind == PartToolCall {
			calls = append(calls, p)
		}
	}
	return calls
}

// ContextText is the wire form of a hidden context part: the text wrapped
// in an element naming its source, so the model can tell it apart from
// the user's own words.
func ContextText(source, event, text string) string {
	return `<extension-context source="` + source + `" event="` + event + `">` + "\n" +
		strings.TrimRight(text, "\n") + "\n</extension-context>"
}

// ContextPartText is the text a context part of a user message is sent
// as: ContextText, then a blank line. Servers that flatten a multi-part
// user message into their chat template (ds4-server, llama.cpp, Ollama)
// join the parts without a separator, which would glue the closing tag to
// the user's first word.
func ContextPartText(p Part) string { return ContextText(p.Source, p.Event, p.Text) + "\n\n" }

// ToolSpec describes one tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  json.RawMessage // a JSON Schema object
}

// Request is one model call.
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int
}

// Delta is a streamed fragment of the answer being written.
type Delta struct {
	Kind PartKind // PartText or PartReasoning
	Text string
}

// Usage is what the provider reported the call cost, in tokens.
type Usage struct {
	InputTokens  int
	OutputTokens int
}

// Stop is how a model call ended, the same for both wire formats.
type Stop string

const (
	StopEnd     Stop = "end"      // the model finished its answer
	StopToolUse Stop = "tool_use" // the model asks for its tool calls to run
	// StopTruncated: the answer hit the output token limit (OpenAI
	// "length", Anthropic "max_tokens"); its text is kept, its tool calls
	// may be cut off and are never run.
	StopTruncated Stop = "truncated"
	// StopError: the server failed mid-answer and said so in the finish
	// reason (ds4-server's finish_reason "error", e.g. for an unterminated
	// tool call, or a content filter). Nothing of it is trustworthy.
	StopError Stop = "error"
)

// Response is the complete assistant message of one call.
type Response struct {
	Message Message
	Usage   Usage
	Stop    Stop
	// StopReason is the server's own word for Stop ("length", "error",
	// "max_tokens", ...), for messages.
	StopReason string
}

// Provider streams one model call. onDelta is called from the calling
// goroutine for every text or reasoning fragment, in order; the returned
// Response holds the whole message, including tool calls with their
// arguments fully assembled. Errors are *Error where the cause is known.
type Provider interface {
	Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error)
}
