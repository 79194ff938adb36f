package llmtest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// openAIWire is the Chat Completions format as OpenAI, llama.cpp and
// DeepSeek stream it: data-only SSE events of chat.completion.chunk
// objects, reasoning in delta.reasoning_content, tool calls keyed by
// index with the id sent only on a call's first chunk, a finish chunk,
// a usage chunk with empty choices, then "data: [DONE]".
type openAIWire struct{}

const (
	chunkID      = "chatcmpl-llmtest"
	chunkCreated = 1700000000
)

func (openAIWire) baseURL(root string) string { return root + "/v1" }

func (openAIWire) kind() string { return llm.KindOpenAI }

func (openAIWire) invalid(map[string]any) string { return "" }

func (openAIWire) routes(s *Server, mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/chat/completions", s.serveModel)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		var data []any
		window := s.contextLength()
		for _, id := range s.modelIDs() {
			m := map[string]any{"id": id, "object": "model", "created": chunkCreated, "owned_by": "llmtest"}
			if window > 0 { // as ds4-server states it
				m["context_length"] = window
			}
			data = append(data, m)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(mustJSON(map[string]any{"object": "list", "data": data}))
	})
}

// OpenAIError is an error body in OpenAI's format. An empty code is sent
// as null, as OpenAI does for errors without one.
func OpenAIError(status int, msg, code string) string {
	var c any
	if code != "" {
		c = code
	}
	return string(mustJSON(map[string]any{
		"error": map[string]any{"message": msg, "type": openAIErrorType(status), "param": nil, "code": c},
	}))
}

func openAIErrorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "requests"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

func (openAIWire) parse(body map[string]any) Request {
	r := Request{Model: str(body["model"]), Tools: toolNames(body["tools"])}
	var system []string
	for _, m := range list(body["messages"]) {
		msg := obj(m)
		role := str(msg["role"])
		texts := openAITexts(msg["content"])
		if role == "system" {
			r.SystemMessages++
			system = append(system, texts...)
			continue
		}
		out := Msg{Role: role, Texts: texts, Reasoning: str(msg["reasoning_content"])}
		if role == "tool" {
			out = Msg{Role: role, ToolCallIDs: []string{str(msg["tool_call_id"])}, ToolResults: []string{strings.Join(texts, "")}}
		}
		for _, tc := range list(msg["tool_calls"]) {
			out.ToolCallIDs = append(out.ToolCallIDs, str(obj(tc)["id"]))
		}
		r.Messages = append(r.Messages, out)
	}
	r.System = strings.Join(system, "\n\n")
	return r
}

// openAITexts reads a content field: a string, or an array of parts.
func openAITexts(content any) []string {
	if s, ok := content.(string); ok {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	var texts []string
	for _, p := range list(content) {
		if part := obj(p); str(part["type"]) == "text" {
			texts = append(texts, str(part["text"]))
		}
	}
	return texts
}

type oaChunk struct {
	ID      string     `json:"id"`
	Object  string     `json:"object"`
	Created int64      `json:"created"`
	Model   string     `json:"model"`
	Choices []oaChoice `json:"choices"`
	Usage   *oaUsage   `json:"usage,omitempty"`
}

type oaChoice struct {
	Index        int     `json:"index"`
	Delta        oaDelta `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type oaDelta struct {
	Role             string       `json:"role,omitempty"`
	Content          *string      `json:"content,omitempty"`
	ReasoningContent string       `json:"reasoning_content,omitempty"`
	ToolCalls        []oaToolCall `json:"tool_calls,omitempty"`
}

type oaToolCall struct {
	Index    int        `json:"index"`
	ID       string     `json:"id,omitempty"`
	Type     string     `json:"type,omitempty"`
	Function oaFunction `json:"function"`
}

type oaFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type oaUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (openAIWire) stream(st *sseStream, r Request, reply Reply) {
	chunk := func(choices []oaChoice, usage *oaUsage) []byte {
		return mustJSON(oaChunk{ID: chunkID, Object: "chat.completion.chunk", Created: chunkCreated, Model: r.Model, Choices: choices, Usage: usage})
	}
	delta := func(d oaDelta) []byte { return chunk([]oaChoice{{Delta: d}}, nil) }

	empty := ""
	st.event("", delta(oaDelta{Role: "assistant", Content: &empty}))
	for _, p := range pieces(reply.Reasoning, textChunkRunes) {
		st.event("", delta(oaDelta{ReasoningContent: p}))
	}
	for _, p := range pieces(reply.Text, textChunkRunes) {
		st.event("", delta(oaDelta{Content: &p}))
		st.holdOnce()
	}
	st.holdOnce()
	for i, call := range reply.ToolCalls {
		id := call.ID
		if id == "" {
			id = "call_" + strconv.Itoa(i+1)
		}
		st.event("", delta(oaDelta{ToolCalls: []oaToolCall{{Index: i, ID: id, Type: "function", Function: oaFunction{Name: call.Name}}}}))
		for _, p := range pieces(call.Args, argsChunkRunes) {
			st.event("", delta(oaDelta{ToolCalls: []oaToolCall{{Index: i, Function: oaFunction{Arguments: p}}}}))
		}
	}
	finish := "stop"
	if len(reply.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	if reply.Unterminated {
		finish = "error"
	}
	if reply.Finish != "" {
		finish = reply.Finish
	}
	st.event("", chunk([]oaChoice{{FinishReason: &finish}}, nil))
	if include, _ := obj(r.Body["stream_options"])["include_usage"].(bool); include {
		u := usageOf(reply)
		st.event("", chunk([]oaChoice{}, &oaUsage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}))
	}
	st.event("", []byte("[DONE]"))
}

// errorEvent is ds4-server's in-band error on /v1/chat/completions,
// byte for byte (the keys sort in its order).
func (openAIWire) errorEvent(msg string) []byte {
	return mustJSON(map[string]any{"error": map[string]any{"message": msg, "type": "server_error"}})
}

func usageOf(reply Reply) llm.Usage {
	if reply.Usage == nil {
		return llm.Usage{}
	}
	return *reply.Usage
}
