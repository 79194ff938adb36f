package llmtest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// anthropicWire is the Messages API stream: named SSE events
// message_start, ping, then per content block (thinking, text, tool_use)
// content_block_start / _delta / _stop, then message_delta carrying the
// stop reason and output usage, and message_stop.
type anthropicWire struct{}

func (anthropicWire) baseURL(root string) string { return root }

func (anthropicWire) kind() string { return llm.KindAnthropic }

func (anthropicWire) routes(s *Server, mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/messages", s.serveModel)
	// One page, as the API sends it (first_id/last_id for paging).
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") == "" {
			writeError(w, http.StatusUnauthorized, AnthropicError("authentication_error", "x-api-key header is required"))
			return
		}
		ids := s.modelIDs()
		data := []any{}
		for _, id := range ids {
			data = append(data, map[string]any{"type": "model", "id": id, "display_name": id, "created_at": "2025-01-01T00:00:00Z"})
		}
		page := map[string]any{"data": data, "has_more": false, "first_id": nil, "last_id": nil}
		if len(ids) > 0 {
			page["first_id"], page["last_id"] = ids[0], ids[len(ids)-1]
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(mustJSON(page))
	})
}

// AnthropicError is an error body in Anthropic's format, typ being one of
// its error types (invalid_request_error, authentication_error,
// not_found_error, rate_limit_error, overloaded_error, api_error, ...).
func AnthropicError(typ, msg string) string {
	return string(mustJSON(map[string]any{
		"type":  "error",
		"error": map[string]any{"type": typ, "message": msg},
	}))
}

func (anthropicWire) parse(body map[string]any) Request {
	r := Request{Model: str(body["model"]), Tools: toolNames(body["tools"])}
	r.System = strings.Join(anthropicTexts(body["system"]), "\n\n")
	if r.System != "" {
		r.SystemMessages = 1
	}
	for _, m := range list(body["messages"]) {
		msg := obj(m)
		out := Msg{Role: str(msg["role"])}
		if s, ok := msg["content"].(string); ok {
			out.Texts = []string{s}
		}
		for _, b := range list(msg["content"]) {
			block := obj(b)
			switch str(block["type"]) {
			case "text":
				out.Texts = append(out.Texts, str(block["text"]))
			case "tool_use":
				out.ToolCallIDs = append(out.ToolCallIDs, str(block["id"]))
			case "tool_result":
				out.ToolCallIDs = append(out.ToolCallIDs, str(block["tool_use_id"]))
				out.ToolResults = append(out.ToolResults, strings.Join(anthropicTexts(block["content"]), ""))
			}
		}
		r.Messages = append(r.Messages, out)
	}
	return r
}

// invalid applies the Messages API's extended-thinking rules: a budget of
// at least 1024 tokens and below max_tokens, and, inside a tool-use loop,
// the assistant message being continued must start with its thinking, as
// the real API requires. Its messages are the real ones.
func (anthropicWire) invalid(body map[string]any) string {
	thinking := obj(body["thinking"])
	if str(thinking["type"]) != "enabled" {
		return ""
	}
	budget, _ := thinking["budget_tokens"].(float64)
	maxTokens, _ := body["max_tokens"].(float64)
	switch {
	case budget < 1024:
		return AnthropicError("invalid_request_error", "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
	case budget >= maxTokens:
		return AnthropicError("invalid_request_error", "`max_tokens` must be greater than `thinking.budget_tokens`")
	}
	msgs := list(body["messages"])
	if len(msgs) < 2 {
		return ""
	}
	last, prev := obj(msgs[len(msgs)-1]), obj(msgs[len(msgs)-2])
	continuing := false
	for _, b := range list(last["content"]) {
		continuing = continuing || str(obj(b)["type"]) == "tool_result"
	}
	if !continuing || str(prev["role"]) != "assistant" {
		return ""
	}
	first := ""
	if blocks := list(prev["content"]); len(blocks) > 0 {
		first = str(obj(blocks[0])["type"])
	}
	if first != "thinking" && first != "redacted_thinking" {
		return AnthropicError("invalid_request_error", "messages."+strconv.Itoa(len(msgs)-2)+".content.0.type: Expected `thinking` or `redacted_thinking`, but found `"+first+
			"`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.")
	}
	return ""
}

// errorEvent is ds4-server's in-band error on /v1/messages, byte for
// byte (Anthropic's error event shape).
func (anthropicWire) errorEvent(msg string) []byte {
	type detail struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	return mustJSON(struct {
		Type  string `json:"type"`
		Error detail `json:"error"`
	}{"error", detail{"api_error", msg}})
}

// anthropicTexts reads a string or an array of text blocks.
func anthropicTexts(v any) []string {
	if s, ok := v.(string); ok {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	var texts []string
	for _, b := range list(v) {
		if block := obj(b); str(block["type"]) == "text" {
			texts = append(texts, str(block["text"]))
		}
	}
	return texts
}

// anthropicStream writes one answer, numbering content blocks as it goes.
type anthropicStream struct {
	st    *sseStream
	index int
}

func (a *anthropicStream) send(event string, data map[string]any) {
	data["type"] = event
	a.st.event(event, mustJSON(data))
}

// block streams one content block: its start, its deltas and its stop.
func (a *anthropicStream) block(start map[string]any, deltas []map[string]any) {
	a.open(start, deltas)
	a.send("content_block_stop", map[string]any{"index": a.index})
	a.index++
}

// open streams the start and deltas of a content block, not its stop.
func (a *anthropicStream) open(start map[string]any, deltas []map[string]any) {
	a.send("content_block_start", map[string]any{"index": a.index, "content_block": start})
	for _, d := range deltas {
		a.send("content_block_delta", map[string]any{"index": a.index, "delta": d})
		if d["type"] == "text_delta" {
			a.st.holdOnce()
		}
	}
}

// deltas makes one delta of type typ per piece, the piece under key.
func deltas(typ, key string, parts []string) []map[string]any {
	out := make([]map[string]any, len(parts))
	for i, p := range parts {
		out[i] = map[string]any{"type": typ, key: p}
	}
	return out
}

func (anthropicWire) stream(st *sseStream, r Request, reply Reply) {
	a := &anthropicStream{st: st}
	usage := usageOf(reply)
	a.send("message_start", map[string]any{"message": map[string]any{
		"id": "msg_llmtest", "type": "message", "role": "assistant", "model": r.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": usage.InputTokens, "output_tokens": 1},
	}})
	a.send("ping", map[string]any{})
	if reply.Reasoning != "" {
		signature := reply.Signature
		if signature == "" {
			signature = DefaultSignature
		}
		thinking := deltas("thinking_delta", "thinking", pieces(reply.Reasoning, textChunkRunes))
		thinking = append(thinking, map[string]any{"type": "signature_delta", "signature": signature})
		a.block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, thinking)
	}
	if reply.Redacted != "" {
		// Redacted thinking arrives whole in its start event, no deltas.
		a.block(map[string]any{"type": "redacted_thinking", "data": reply.Redacted}, nil)
	}
	if reply.Text != "" {
		a.block(map[string]any{"type": "text", "text": ""}, deltas("text_delta", "text", pieces(reply.Text, textChunkRunes)))
	}
	st.holdOnce()
	for i, call := range reply.ToolCalls {
		id := call.ID
		if id == "" {
			id = "toolu_" + strconv.Itoa(i+1)
		}
		start := map[string]any{"type": "tool_use", "id": id, "name": call.Name, "input": map[string]any{}}
		args := deltas("input_json_delta", "partial_json", pieces(call.Args, argsChunkRunes))
		if reply.Unterminated && i == len(reply.ToolCalls)-1 {
			a.open(start, args)
			continue
		}
		a.block(start, args)
	}
	stopReason := "end_turn"
	if len(reply.ToolCalls) > 0 && !reply.Unterminated {
		stopReason = "tool_use"
	}
	if reply.Finish != "" {
		stopReason = reply.Finish
	}
	a.send("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stopReason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": usage.OutputTokens},
	})
	a.send("message_stop", map[string]any{})
}
