package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/anthropic"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// guard bounds waits that only a broken implementation would exceed.
const guard = 30 * time.Second

// shortDeadline is a deadline the test makes sure to miss.
const shortDeadline = 50 * time.Millisecond

func userText(text string) llm.Message {
	return llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: text}}}
}

func prompt(text string) llm.Request {
	return llm.Request{System: "be brief", Messages: []llm.Message{userText(text)}}
}

func stream(t *testing.T, p *anthropic.Provider, req llm.Request) (llm.Response, []llm.Delta, error) {
	t.Helper()
	var deltas []llm.Delta
	resp, err := p.Stream(t.Context(), req, func(d llm.Delta) { deltas = append(deltas, d) })
	return resp, deltas, err
}

func joined(deltas []llm.Delta, kind llm.PartKind) (string, int) {
	var b strings.Builder
	n := 0
	for _, d := range deltas {
		if d.Kind == kind {
			b.WriteString(d.Text)
			n++
		}
	}
	return b.String(), n
}

// wireMessage is message i of a recorded request body.
func wireMessage(r llmtest.Request, i int) map[string]any {
	return r.Body["messages"].([]any)[i].(map[string]any)
}

func blocks(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, b := range m["content"].([]any) {
		out = append(out, b.(map[string]any))
	}
	return out
}

func TestStreamText(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	const text = "Hello, streaming world — with ünïcode."
	srv.Push(llmtest.Reply{Text: text, Usage: &llm.Usage{InputTokens: 12, OutputTokens: 9}})

	resp, deltas, err := stream(t, anthropic.New(srv.Config()), prompt("hi"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if got, n := joined(deltas, llm.PartText); got != text || n < 2 {
		t.Errorf("text deltas = %q in %d pieces, want %q in several", got, n, text)
	}
	if resp.Message.Role != llm.RoleAssistant || resp.Message.Text() != text {
		t.Errorf("response message = %+v", resp.Message)
	}
	if resp.Usage != (llm.Usage{InputTokens: 12, OutputTokens: 9}) || resp.StopReason != "end_turn" {
		t.Errorf("usage %+v, stop reason %q", resp.Usage, resp.StopReason)
	}
}

func TestThinkingStreamedAndSentBackSigned(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	const thought = "I should read the file first."
	srv.Push(llmtest.Reply{Reasoning: thought, Signature: "sig-123", ToolCalls: []llmtest.ToolCall{{ID: "toolu_1", Name: "read_file", Args: `{"path":"a.go"}`}}})
	p := anthropic.New(srv.Config())

	resp, deltas, err := stream(t, p, prompt("fix a.go"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if got, n := joined(deltas, llm.PartReasoning); got != thought || n < 2 {
		t.Errorf("thinking deltas = %q in %d pieces, want %q", got, n, thought)
	}
	if first := resp.Message.Parts[0]; first != (llm.Part{Kind: llm.PartReasoning, Text: thought, Signature: "sig-123"}) {
		t.Errorf("first part = %+v, want the signed thinking", first)
	}

	next := prompt("fix a.go")
	next.Messages = append(next.Messages, resp.Message, llm.Message{Role: llm.RoleTool, Parts: []llm.Part{
		{Kind: llm.PartToolResult, CallID: "toolu_1", Name: "read_file", Text: "package a"},
	}})
	if _, _, err := stream(t, p, next); err != nil {
		t.Fatalf("second Stream: %v", err)
	}
	sent := blocks(wireMessage(srv.WaitRequests(t, 2)[1], 1))
	if len(sent) != 2 || sent[0]["type"] != "thinking" || sent[0]["thinking"] != thought || sent[0]["signature"] != "sig-123" || sent[1]["type"] != "tool_use" {
		t.Errorf("assistant blocks sent back = %v, want signed thinking then tool_use", sent)
	}
}

// With a thinking budget the request asks for extended thinking, and a
// tool-use loop goes on with the thinking (signed and redacted) leading the
// assistant message, which the API (and the fake, after it) insists on.
func TestExtendedThinkingRequestedAndContinued(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Push(llmtest.Reply{Reasoning: "read it first", Signature: "sig-1", Redacted: "opaque-bytes",
		ToolCalls: []llmtest.ToolCall{{ID: "toolu_1", Name: "read_file", Args: `{"path":"a.go"}`}}})
	srv.Push(llmtest.Reply{Reasoning: "done", Text: "a.go is fine"})
	cfg := srv.Config()
	cfg.MaxTokens, cfg.ThinkingBudget = 4000, 2048
	p := anthropic.New(cfg)

	resp, _, err := stream(t, p, prompt("check a.go"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	body := srv.WaitRequests(t, 1)[0].Body
	if th, _ := body["thinking"].(map[string]any); th["type"] != "enabled" || th["budget_tokens"] != 2048.0 {
		t.Errorf("thinking = %v, want enabled with a 2048-token budget", body["thinking"])
	}
	if body["max_tokens"] != 6048.0 {
		t.Errorf("max_tokens = %v, want the answer's 4000 on top of the budget", body["max_tokens"])
	}
	want := []llm.Part{
		{Kind: llm.PartReasoning, Text: "read it first", Signature: "sig-1"},
		{Kind: llm.PartReasoning, Redacted: "opaque-bytes"},
	}
	if got := resp.Message.Parts[:2]; !reflect.DeepEqual(got, want) {
		t.Fatalf("parts = %+v, want the thinking and the redacted thinking", got)
	}

	next := prompt("check a.go")
	next.Messages = append(next.Messages, resp.Message, llm.Message{Role: llm.RoleTool, Parts: []llm.Part{
		{Kind: llm.PartToolResult, CallID: "toolu_1", Name: "read_file", Text: "package a"},
	}})
	if _, _, err := stream(t, p, next); err != nil {
		t.Fatalf("continuing the tool loop: %v", err)
	}
	sent := blocks(wireMessage(srv.WaitRequests(t, 2)[1], 1))
	if len(sent) != 3 || sent[0]["type"] != "thinking" || sent[1]["type"] != "redacted_thinking" || sent[1]["data"] != "opaque-bytes" {
		t.Errorf("assistant blocks sent back = %v, want thinking, redacted_thinking, tool_use", sent)
	}

	// Dropping the thinking is what the API refuses; the fake does too, and
	// the refusal reaches the caller as a request error.
	bare := next
	bare.Messages = slices.Clone(next.Messages)
	bare.Messages[1] = llm.Message{Role: llm.RoleAssistant, Parts: resp.Message.Parts[2:]}
	if _, _, err := stream(t, p, bare); err == nil || !strings.Contains(err.Error(), "thinking") {
		t.Fatalf("err = %v, want the API's refusal of a tool loop without its thinking", err)
	}
}

func TestNoThinkingWithoutABudget(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	cfg := srv.Config()
	cfg.MaxTokens = 4000
	if _, _, err := stream(t, anthropic.New(cfg), prompt("hi")); err != nil {
		t.Fatal(err)
	}
	body := srv.WaitRequests(t, 1)[0].Body
	if _, ok := body["thinking"]; ok || body["max_tokens"] != 4000.0 {
		t.Errorf("thinking = %v, max_tokens = %v; want no thinking and the plain allowance", body["thinking"], body["max_tokens"])
	}
}

func TestToolCalls(t *testing.T) {
	tests := []struct {
		name  string
		calls []llmtest.ToolCall
	}{
		{"one call", []llmtest.ToolCall{{ID: "toolu_a", Name: "read_file", Args: `{"path":"main.go"}`}}},
		{"several calls in one message", []llmtest.ToolCall{
			{ID: "toolu_a", Name: "read_file", Args: `{"path":"a/very/long/path/to/some/file.go","limit":200}`},
			{ID: "toolu_b", Name: "search", Args: `{"pattern":"func main","glob":"**/*.go"}`},
			{ID: "toolu_c", Name: "list_dir", Args: `{}`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewAnthropic(t)
			srv.Push(llmtest.Reply{Text: "Let me look.", ToolCalls: tt.calls})
			resp, _, err := stream(t, anthropic.New(srv.Config()), prompt("look"))
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			var got []llmtest.ToolCall
			for _, c := range resp.Message.ToolCalls() {
				got = append(got, llmtest.ToolCall{ID: c.CallID, Name: c.Name, Args: c.Args})
			}
			if !slices.Equal(got, tt.calls) {
				t.Errorf("tool calls = %+v, want %+v", got, tt.calls)
			}
			if resp.Message.Text() != "Let me look." || resp.StopReason != "tool_use" {
				t.Errorf("text %q, stop reason %q", resp.Message.Text(), resp.StopReason)
			}
		})
	}
}

func TestToolResultsRoundTrip(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	req := llm.Request{System: "sys", Messages: []llm.Message{
		userText("fix it"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{
			{Kind: llm.PartText, Text: "Looking."},
			{Kind: llm.PartToolCall, CallID: "toolu_1", Name: "read_file", Args: `{"path":"a.go"}`},
			{Kind: llm.PartToolCall, CallID: "toolu_2", Name: "run_command", Args: `not json`},
		}},
		{Role: llm.RoleTool, Parts: []llm.Part{
			{Kind: llm.PartToolResult, CallID: "toolu_1", Text: "package a"},
			{Kind: llm.PartToolResult, CallID: "toolu_2", Text: "denied by the user", IsError: true},
		}},
	}}
	if _, _, err := stream(t, anthropic.New(srv.Config()), req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.WaitRequests(t, 1)[0]
	if roles := got.Roles(); !slices.Equal(roles, []string{"user", "assistant", "user"}) {
		t.Fatalf("roles = %v", roles)
	}
	results := got.Messages[2]
	if !slices.Equal(results.ToolCallIDs, []string{"toolu_1", "toolu_2"}) || !slices.Equal(results.ToolResults, []string{"package a", "denied by the user"}) {
		t.Errorf("tool results = %+v", results)
	}
	resultBlocks := blocks(wireMessage(got, 2))
	if resultBlocks[0]["is_error"] != false || resultBlocks[1]["is_error"] != true {
		t.Errorf("is_error flags = %v, %v", resultBlocks[0]["is_error"], resultBlocks[1]["is_error"])
	}
	uses := blocks(wireMessage(got, 1))
	if input, _ := uses[1]["input"].(map[string]any); input["path"] != "a.go" {
		t.Errorf("tool_use input = %#v, want the parsed arguments", uses[1]["input"])
	}
	if input, _ := uses[2]["input"].(map[string]any); input == nil || len(input) != 0 {
		t.Errorf("garbled arguments sent as %#v, want {}", uses[2]["input"])
	}
}

func TestContextPartsPrecedeUserText(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	const own = "  refactor *this*\n"
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{
		{Kind: llm.PartText, Text: own},
		{Kind: llm.PartContext, Source: "ponytail", Event: "UserPromptSubmit", Text: "branch: main\n"},
	}}}}
	if _, _, err := stream(t, anthropic.New(srv.Config()), req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.WaitRequests(t, 1)[0]
	want := []string{llm.ContextPartText(llm.Part{Source: "ponytail", Event: "UserPromptSubmit", Text: "branch: main\n"}), own}
	if texts := got.LastMessage().Texts; !slices.Equal(texts, want) {
		t.Errorf("user texts = %q, want %q", texts, want)
	}
	if got.SystemMessages != 0 {
		t.Error("an empty system prompt was sent")
	}
}

func TestSystemAndAlternatingRoles(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	req := llm.Request{System: "policy\n\nAGENTS.md", Messages: []llm.Message{
		userText("first, cancelled"),
		userText("second"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartToolCall, CallID: "toolu_1", Name: "list_dir", Args: "{}"}}},
		{Role: llm.RoleTool, Parts: []llm.Part{{Kind: llm.PartToolResult, CallID: "toolu_1", Text: "a.go"}}},
		{Role: llm.RoleUser, Parts: []llm.Part{
			{Kind: llm.PartText, Text: "third, sent while the tool ran"},
			{Kind: llm.PartContext, Source: "x", Event: "UserPromptSubmit", Text: "ctx"},
		}},
	}}
	if _, _, err := stream(t, anthropic.New(srv.Config()), req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.WaitRequests(t, 1)[0]
	if got.SystemMessages != 1 || got.System != req.System {
		t.Errorf("system = %d %q, want %q", got.SystemMessages, got.System, req.System)
	}
	if roles := got.Roles(); !slices.Equal(roles, []string{"user", "assistant", "user"}) {
		t.Fatalf("roles = %v, want strict alternation", roles)
	}
	if texts := got.Messages[0].Texts; !slices.Equal(texts, []string{"first, cancelled", "second"}) {
		t.Errorf("merged user texts = %q", texts)
	}
	last := blocks(wireMessage(got, 2))
	var types []string
	for _, b := range last {
		types = append(types, b["type"].(string))
	}
	if !slices.Equal(types, []string{"tool_result", "text", "text"}) || last[1]["text"] != llm.ContextPartText(llm.Part{Source: "x", Event: "UserPromptSubmit", Text: "ctx"}) {
		t.Errorf("merged last message = %v, want tool_result, context, text", last)
	}
}

func TestRequestOptions(t *testing.T) {
	// Keys and URLs in the environment must not override the configuration.
	t.Setenv("ANTHROPIC_API_KEY", "sk-from-environment")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	srv := llmtest.NewAnthropic(t)
	cfg := srv.Config()
	cfg.MaxTokens = 1234
	schema := `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`
	req := prompt("hi")
	req.Tools = []llm.ToolSpec{{Name: "read_file", Description: "Read a file", Parameters: []byte(schema)}}
	if _, _, err := stream(t, anthropic.New(cfg), req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.WaitRequests(t, 1)[0]
	if key, auth := got.Header.Get("X-Api-Key"), got.Header.Get("Authorization"); key != cfg.APIKey || auth != "" {
		t.Errorf("x-api-key %q, authorization %q; want %q and none", key, auth, cfg.APIKey)
	}
	if got.Body["max_tokens"] != float64(1234) || got.Body["stream"] != true || got.Model != llmtest.ModelName {
		t.Errorf("max_tokens %v, stream %v, model %q", got.Body["max_tokens"], got.Body["stream"], got.Model)
	}
	tool := got.Body["tools"].([]any)[0].(map[string]any)
	var want any
	if err := json.Unmarshal([]byte(schema), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tool["input_schema"], want) {
		t.Errorf("input_schema = %v, want %s", tool["input_schema"], schema)
	}
	if tool["name"] != "read_file" || tool["description"] != "Read a file" {
		t.Errorf("tool = %v", tool)
	}
}

func TestErrorStatus(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		kind   llm.ErrorKind
		detail string
	}{
		{"bad key", 401, llmtest.AnthropicError("authentication_error", "invalid x-api-key"), llm.ErrAuth, "invalid x-api-key"},
		{"no permission", 403, llmtest.AnthropicError("permission_error", "Your API key does not have permission"), llm.ErrAuth, "does not have permission"},
		{"unknown model", 404, llmtest.AnthropicError("not_found_error", "model: claude-nine"), llm.ErrModelNotFound, "model: claude-nine"},
		{"prompt too long", 400, llmtest.AnthropicError("invalid_request_error", "prompt is too long: 215000 tokens > 200000 maximum"), llm.ErrContextOverflow, "prompt is too long"},
		{"max_tokens over the window", 400, llmtest.AnthropicError("invalid_request_error", "input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000, decrease input length or `max_tokens` and try again"), llm.ErrContextOverflow, "exceed context limit"},
		// ds4-server's /v1/messages words it its own way, with no code.
		{"ds4-server context", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"Prompt has 40000 tokens, but the configured context size is 32768 tokens","n_prompt_tokens":40000,"n_ctx":32768}}`, llm.ErrContextOverflow, "configured context size"},
		{"llama.cpp context", 400, `{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens)","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}`, llm.ErrContextOverflow, "exceeds the available context size"},
		{"rate limited", 429, llmtest.AnthropicError("rate_limit_error", "Number of request tokens has exceeded your rate limit"), llm.ErrRateLimited, "rate limit"},
		{"overloaded", 529, llmtest.AnthropicError("overloaded_error", "Overloaded"), llm.ErrServer, "Overloaded"},
		{"api error", 500, llmtest.AnthropicError("api_error", "Internal server error"), llm.ErrServer, "Internal server error"},
		{"proxy plain text", 502, "Bad Gateway", llm.ErrServer, "Bad Gateway"},
		{"other request error", 400, llmtest.AnthropicError("invalid_request_error", "temperature: range"), llm.ErrOther, "temperature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewAnthropic(t)
			srv.Push(llmtest.Reply{Status: tt.status, ErrorBody: tt.body})
			_, _, err := stream(t, anthropic.New(srv.Config()), prompt("hi"))
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *llm.Error", err, err)
			}
			if e.Kind != tt.kind || e.Status != tt.status || e.URL != srv.URL || e.Model != llmtest.ModelName {
				t.Errorf("error = kind %d status %d url %q model %q, want kind %d status %d", e.Kind, e.Status, e.URL, e.Model, tt.kind, tt.status)
			}
			if !strings.Contains(e.Detail, tt.detail) || !strings.Contains(e.Error(), tt.detail) {
				t.Errorf("Detail %q / Error() %q lack %q", e.Detail, e.Error(), tt.detail)
			}
		})
	}
}

func TestErrorEventMidStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n")
		fmt.Fprint(w, "event: error\ndata: "+llmtest.AnthropicError("overloaded_error", "Overloaded")+"\n\n")
	}))
	t.Cleanup(srv.Close)
	_, _, err := stream(t, anthropic.New(llm.Config{Kind: llm.KindAnthropic, BaseURL: srv.URL, Model: "m"}), prompt("hi"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrServer || e.Status != 529 || e.Detail != "Overloaded" {
		t.Fatalf("err = %#v, want an overloaded server error", err)
	}
}

func TestStreamCut(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Push(llmtest.Reply{Text: "this answer will be cut short", CutAfter: 5})
	_, deltas, err := stream(t, anthropic.New(srv.Config()), prompt("hi"))
	if !llm.IsKind(err, llm.ErrStreamCut) || len(deltas) == 0 {
		t.Fatalf("err = %v after %d deltas, want a cut stream after some", err, len(deltas))
	}
}

func TestSlowFirstByte(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Push(llmtest.Reply{Text: "too late", FirstByteDelay: guard})
	cfg := srv.Config()
	cfg.FirstByteTimeout = shortDeadline
	if _, _, err := stream(t, anthropic.New(cfg), prompt("hi")); !llm.IsKind(err, llm.ErrTimeout) {
		t.Fatalf("err = %v, want a timeout", err)
	}
}

func TestSilentStream(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Push(llmtest.Reply{Text: "starts, then goes quiet", Hold: make(chan struct{})})
	cfg := srv.Config()
	cfg.IdleTimeout = shortDeadline
	_, _, err := stream(t, anthropic.New(cfg), prompt("hi"))
	if !llm.IsKind(err, llm.ErrStreamCut) || !strings.Contains(err.Error(), "no data for") {
		t.Fatalf("err = %v, want a cut stream that went silent", err)
	}
}

func TestCancelMidStream(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Push(llmtest.Reply{Text: "an answer that never finishes", Hold: make(chan struct{})})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := anthropic.New(srv.Config()).Stream(ctx, prompt("hi"), func(llm.Delta) { cancel() })
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(guard):
		t.Fatal("Stream did not return after cancel")
	}
}

func TestConnectionRefused(t *testing.T) {
	// The error names the URL requested: the normalised one (no /v1).
	url := strings.TrimSuffix(llmtest.UnreachableURL(t), "/v1")
	_, _, err := stream(t, anthropic.New(llm.Config{Kind: llm.KindAnthropic, BaseURL: url, Model: "m"}), prompt("hi"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrUnreachable {
		t.Fatalf("err = %v, want unreachable", err)
	}
	if e.URL != url || !strings.Contains(e.Error(), url) {
		t.Errorf("error names %q / %q, want %q", e.URL, e.Error(), url)
	}
}

func TestListModels(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.SetModels("claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5")
	models, err := anthropic.ListModels(t.Context(), srv.Config())
	if want := []string{"claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5"}; err != nil || !slices.Equal(models, want) {
		t.Fatalf("ListModels = %v, %v; want %v", models, err, want)
	}
	noKey := srv.Config()
	noKey.APIKey = ""
	if _, err := anthropic.ListModels(t.Context(), noKey); !llm.IsKind(err, llm.ErrAuth) {
		t.Errorf("without a key: err = %v, want an authentication error", err)
	}
	url := llmtest.UnreachableURL(t)
	if _, err := anthropic.ListModels(t.Context(), llm.Config{Kind: llm.KindAnthropic, BaseURL: url}); !llm.IsKind(err, llm.ErrUnreachable) {
		t.Errorf("ListModels(%s) err = %v, want unreachable", url, err)
	}
}

// A base URL pasted with its /v1 (as for OpenAI-compatible servers)
// reaches /v1/messages, not /v1/v1/messages.
func TestBaseURLWithV1(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Push(llmtest.Reply{Text: "ok"})
	cfg := srv.Config()
	cfg.BaseURL += "/v1/"
	if _, _, err := stream(t, anthropic.New(cfg), prompt("hi")); err != nil {
		t.Fatalf("Stream with a /v1 base URL: %v", err)
	}
}
