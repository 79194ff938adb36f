package openai_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/llm/openai"
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

// stream runs one call and collects its deltas.
func stream(t *testing.T, p *openai.Provider, req llm.Request) (llm.Response, []llm.Delta, error) {
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

func TestStreamText(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	const text = "Hello, streaming world — with ünïcode."
	srv.Push(llmtest.Reply{Text: text, Usage: &llm.Usage{InputTokens: 12, OutputTokens: 9}})

	resp, deltas, err := stream(t, openai.New(srv.Config()), prompt("hi"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got, n := joined(deltas, llm.PartText)
	if got != text || n < 2 {
		t.Errorf("text deltas = %q in %d pieces, want %q in several", got, n, text)
	}
	if resp.Message.Role != llm.RoleAssistant || resp.Message.Text() != text {
		t.Errorf("response message = %+v, want assistant %q", resp.Message, text)
	}
	if resp.Usage != (llm.Usage{InputTokens: 12, OutputTokens: 9}) {
		t.Errorf("usage = %+v", resp.Usage)
	}
	if resp.StopReason != "stop" {
		t.Errorf("stop reason = %q, want stop", resp.StopReason)
	}
}

func TestReasoningStreamed(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	const thought = "The user greets; greet back."
	srv.Push(llmtest.Reply{Reasoning: thought, Text: "Hi!"})
	resp, deltas, err := stream(t, openai.New(srv.Config()), prompt("hello"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if got, n := joined(deltas, llm.PartReasoning); got != thought || n < 2 {
		t.Errorf("reasoning deltas = %q in %d pieces, want %q", got, n, thought)
	}
	if i := slices.IndexFunc(deltas, func(d llm.Delta) bool { return d.Kind == llm.PartText }); i >= 0 && slices.ContainsFunc(deltas[i:], func(d llm.Delta) bool { return d.Kind == llm.PartReasoning }) {
		t.Error("reasoning deltas arrived after text deltas")
	}
	want := []llm.Part{{Kind: llm.PartReasoning, Text: thought}, {Kind: llm.PartText, Text: "Hi!"}}
	if !slices.Equal(resp.Message.Parts, want) {
		t.Errorf("parts = %+v, want %+v", resp.Message.Parts, want)
	}
}

// Which assistant messages carry reasoning_content back, per server: all
// for local servers (their chat templates render it, so the prompt prefix
// stays the one they cached), the current tool loop's for DeepSeek's API,
// none for other clouds.
func TestReasoningSentBackPerServer(t *testing.T) {
	assistant := func(reasoning string, parts ...llm.Part) llm.Message {
		return llm.Message{Role: llm.RoleAssistant, Parts: append([]llm.Part{{Kind: llm.PartReasoning, Text: reasoning}}, parts...)}
	}
	conversation := []llm.Message{
		userText("first"),
		assistant("R1", llm.Part{Kind: llm.PartText, Text: "answer one"}),
		userText("second"),
		assistant("R2", llm.Part{Kind: llm.PartToolCall, CallID: "c1", Name: "read_file", Args: `{"path":"a"}`}),
		{Role: llm.RoleTool, Parts: []llm.Part{{Kind: llm.PartToolResult, CallID: "c1", Name: "read_file", Text: "x"}}},
	}
	for _, tt := range []struct {
		mode string
		want []string // reasoning_content of the two assistant messages
	}{
		{llm.ReasoningAuto, []string{"R1", "R2"}}, // the fake listens on loopback: a local server
		{llm.ReasoningAlways, []string{"R1", "R2"}},
		{llm.ReasoningToolLoop, []string{"", "R2"}},
		{llm.ReasoningNever, []string{"", ""}},
	} {
		t.Run("mode "+cmpOr(tt.mode, "auto"), func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			cfg := srv.Config()
			cfg.SendReasoning = tt.mode
			if _, _, err := stream(t, openai.New(cfg), llm.Request{Messages: conversation}); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			var got []string
			for _, m := range srv.WaitRequests(t, 1)[0].Messages {
				if m.Role == "assistant" {
					got = append(got, m.Reasoning)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("reasoning sent back = %q, want %q", got, tt.want)
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestToolCalls(t *testing.T) {
	tests := []struct {
		name  string
		calls []llmtest.ToolCall
	}{
		{"one call", []llmtest.ToolCall{{ID: "call_a", Name: "read_file", Args: `{"path":"main.go"}`}}},
		{"several calls in one message", []llmtest.ToolCall{
			{ID: "call_a", Name: "read_file", Args: `{"path":"a/very/long/path/to/some/file.go","limit":200}`},
			{ID: "call_b", Name: "search", Args: `{"pattern":"func main","glob":"**/*.go"}`},
			{ID: "call_c", Name: "list_dir", Args: `{}`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Push(llmtest.Reply{Text: "Let me look.", ToolCalls: tt.calls})
			resp, _, err := stream(t, openai.New(srv.Config()), prompt("look"))
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
			if resp.Message.Text() != "Let me look." || resp.StopReason != "tool_calls" {
				t.Errorf("text %q, stop reason %q", resp.Message.Text(), resp.StopReason)
			}
		})
	}
}

func TestToolResultsRoundTrip(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	req := llm.Request{System: "sys", Messages: []llm.Message{
		userText("fix it"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{
			{Kind: llm.PartReasoning, Text: "thinking"},
			{Kind: llm.PartToolCall, CallID: "call_1", Name: "read_file", Args: `{"path":"a.go"}`},
			{Kind: llm.PartToolCall, CallID: "call_2", Name: "run_command", Args: `{"cmd":"go test"}`},
		}},
		{Role: llm.RoleTool, Parts: []llm.Part{
			{Kind: llm.PartToolResult, CallID: "call_1", Name: "read_file", Text: "package a"},
			{Kind: llm.PartToolResult, CallID: "call_2", Name: "run_command", Text: "denied by the user", IsError: true},
		}},
	}}
	if _, _, err := stream(t, openai.New(srv.Config()), req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.WaitRequests(t, 1)[0]
	if roles := got.Roles(); !slices.Equal(roles, []string{"user", "assistant", "tool", "tool"}) {
		t.Fatalf("roles = %v", roles)
	}
	if ids := got.Messages[1].ToolCallIDs; !slices.Equal(ids, []string{"call_1", "call_2"}) {
		t.Errorf("assistant tool_calls ids = %v", ids)
	}
	for i, want := range []llmtest.Msg{
		{Role: "tool", ToolCallIDs: []string{"call_1"}, ToolResults: []string{"package a"}},
		{Role: "tool", ToolCallIDs: []string{"call_2"}, ToolResults: []string{"Error: denied by the user"}},
	} {
		m := got.Messages[2+i]
		if !slices.Equal(m.ToolCallIDs, want.ToolCallIDs) || !slices.Equal(m.ToolResults, want.ToolResults) {
			t.Errorf("tool message %d = %+v, want %+v", i, m, want)
		}
	}
	calls := got.Body["messages"].([]any)[2].(map[string]any)["tool_calls"].([]any)
	fn := calls[1].(map[string]any)["function"].(map[string]any)
	if fn["name"] != "run_command" || fn["arguments"] != `{"cmd":"go test"}` {
		t.Errorf("second tool call on the wire = %v", fn)
	}
}

func TestContextPartsPrecedeUserText(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	const own = "  refactor *this*\n"
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{
		{Kind: llm.PartText, Text: own},
		{Kind: llm.PartContext, Source: "ponytail", Event: "UserPromptSubmit", Text: "branch: main\n"},
		{Kind: llm.PartContext, Source: "linter", Event: "UserPromptSubmit", Text: "2 warnings"},
	}}}}
	if _, _, err := stream(t, openai.New(srv.Config()), req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.WaitRequests(t, 1)[0]
	want := []string{
		llm.ContextPartText(llm.Part{Source: "ponytail", Event: "UserPromptSubmit", Text: "branch: main\n"}),
		llm.ContextPartText(llm.Part{Source: "linter", Event: "UserPromptSubmit", Text: "2 warnings"}),
		own,
	}
	if texts := got.LastMessage().Texts; !slices.Equal(texts, want) {
		t.Errorf("user texts = %q, want %q", texts, want)
	}
	if _, isArray := got.Body["messages"].([]any)[0].(map[string]any)["content"].([]any); !isArray {
		t.Error("a multi-part user message is not sent as an array of parts")
	}
	if got.SystemMessages != 0 {
		t.Errorf("empty system prompt sent as %d system messages", got.SystemMessages)
	}
}

func TestSingleTextIsPlainString(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	if _, _, err := stream(t, openai.New(srv.Config()), prompt("just this")); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	msgs := srv.WaitRequests(t, 1)[0].Body["messages"].([]any)
	if content := msgs[len(msgs)-1].(map[string]any)["content"]; content != "just this" {
		t.Errorf("content = %#v, want the plain string", content)
	}
}

func TestOneSystemMessageAndAlternatingRoles(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	req := llm.Request{System: "policy\n\nAGENTS.md", Messages: []llm.Message{
		userText("first, cancelled"),
		{Role: llm.RoleUser, Parts: []llm.Part{
			{Kind: llm.PartText, Text: "second"},
			{Kind: llm.PartContext, Source: "x", Event: "UserPromptSubmit", Text: "ctx"},
		}},
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: "a"}}},
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: "b"}}},
		userText("third"),
	}}
	if _, _, err := stream(t, openai.New(srv.Config()), req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.WaitRequests(t, 1)[0]
	if got.SystemMessages != 1 || got.System != req.System {
		t.Errorf("system messages = %d %q, want one %q", got.SystemMessages, got.System, req.System)
	}
	if first := got.Body["messages"].([]any)[0].(map[string]any)["role"]; first != "system" {
		t.Errorf("first message role = %v, want system", first)
	}
	if roles := got.Roles(); !slices.Equal(roles, []string{"user", "assistant", "user"}) {
		t.Errorf("roles = %v, want strict alternation", roles)
	}
	wantFirst := []string{"first, cancelled", llm.ContextPartText(llm.Part{Source: "x", Event: "UserPromptSubmit", Text: "ctx"}), "second"}
	if texts := got.Messages[0].Texts; !slices.Equal(texts, wantFirst) {
		t.Errorf("merged user texts = %q, want %q", texts, wantFirst)
	}
	if texts := got.Messages[1].Texts; !slices.Equal(texts, []string{"ab"}) {
		t.Errorf("merged assistant texts = %q", texts)
	}
}

func TestRequestOptions(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	cfg := srv.Config()
	cfg.MaxTokens = 1234
	p := openai.New(cfg)
	req := prompt("hi")
	req.Tools = []llm.ToolSpec{{Name: "read_file", Description: "Read a file", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	req.MaxTokens = 99
	if _, _, err := stream(t, p, req); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	reqs := srv.WaitRequests(t, 2)
	for i, want := range []float64{1234, 99} {
		if got := reqs[i].Body["max_tokens"]; got != want {
			t.Errorf("request %d max_tokens = %v, want %v", i, got, want)
		}
	}
	body := reqs[0].Body
	if body["stream"] != true || body["stream_options"].(map[string]any)["include_usage"] != true {
		t.Errorf("stream options = %v %v", body["stream"], body["stream_options"])
	}
	if body["model"] != llmtest.ModelName || !slices.Equal(reqs[0].Tools, []string{"read_file"}) {
		t.Errorf("model %v, tools %v", body["model"], reqs[0].Tools)
	}
}

func TestInvalidToolSchema(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	req := prompt("hi")
	req.Tools = []llm.ToolSpec{{Name: "broken", Parameters: []byte(`[1,2]`)}}
	_, _, err := stream(t, openai.New(srv.Config()), req)
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("err = %v, want an error naming the tool", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent despite the broken schema", n)
	}
}

func TestAPIKey(t *testing.T) {
	// A cloud key in the environment must never reach a configured server.
	t.Setenv("OPENAI_API_KEY", "sk-from-environment")
	tests := []struct{ key, wantHeader string }{
		{"", ""},
		{"sk-configured", "Bearer sk-configured"},
	}
	for _, tt := range tests {
		srv := llmtest.NewOpenAI(t)
		cfg := srv.Config()
		cfg.APIKey = tt.key
		if _, _, err := stream(t, openai.New(cfg), prompt("hi")); err != nil {
			t.Fatalf("Stream: %v", err)
		}
		if got := srv.WaitRequests(t, 1)[0].Header.Get("Authorization"); got != tt.wantHeader {
			t.Errorf("key %q: Authorization = %q, want %q", tt.key, got, tt.wantHeader)
		}
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
		{"bad key", 401, llmtest.OpenAIError(401, "Incorrect API key provided", "invalid_api_key"), llm.ErrAuth, "Incorrect API key provided"},
		{"forbidden", 403, llmtest.OpenAIError(403, "Project does not have access", ""), llm.ErrAuth, "Project does not have access"},
		{"unknown model", 404, llmtest.OpenAIError(404, "The model `gpt-9` does not exist or you do not have access to it.", "model_not_found"), llm.ErrModelNotFound, "does not exist"},
		{"ollama model not pulled", 404, `{"error":"model \"qwen9\" not found, try pulling it first"}`, llm.ErrModelNotFound, "try pulling it first"},
		{"deepseek model", 400, llmtest.OpenAIError(400, "Model Not Exist", ""), llm.ErrModelNotFound, "Model Not Exist"},
		{"openai context", 400, llmtest.OpenAIError(400, "This model's maximum context length is 128000 tokens.", "context_length_exceeded"), llm.ErrContextOverflow, "maximum context length"},
		{"llama.cpp context", 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":40000,"n_ctx":32768}}`, llm.ErrContextOverflow, "exceeds the available context size"},
		{"vllm context", 400, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","type":"BadRequestError","param":null,"code":400}`, llm.ErrContextOverflow, "maximum context length is 4096"},
		{"llama.cpp context (current wording)", 400, `{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens)","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}`, llm.ErrContextOverflow, "exceeds the available context size"},
		{"ds4-server context", 400, `{"error":{"message":"Prompt has 40000 tokens, but the configured context size is 32768 tokens","type":"invalid_request_error","param":"messages","code":"context_length_exceeded","n_prompt_tokens":40000,"n_ctx":32768}}`, llm.ErrContextOverflow, "configured context size is 32768"},
		{"vllm context (error object)", 400, `{"error":{"message":"This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}}`, llm.ErrContextOverflow, "maximum context length is 32768"},
		{"ollama context", 400, `{"error":{"message":"the input length exceeds the context length","type":"invalid_request_error","param":null,"code":null}}`, llm.ErrContextOverflow, "exceeds the context length"},
		{"deepseek context", 400, llmtest.OpenAIError(400, "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (139000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", "invalid_request_error"), llm.ErrContextOverflow, "maximum context length is 131072"},
		{"openai context (new wording)", 400, llmtest.OpenAIError(400, "Your input exceeds the context window of this model. Please adjust your input and try again.", "context_length_exceeded"), llm.ErrContextOverflow, "context window"},
		{"payload too large", 413, llmtest.OpenAIError(413, "Request too large: too many tokens", ""), llm.ErrContextOverflow, "too many tokens"},
		{"rate limited", 429, llmtest.OpenAIError(429, "Rate limit reached for requests", "rate_limit_exceeded"), llm.ErrRateLimited, "Rate limit reached"},
		{"server error", 500, llmtest.OpenAIError(500, "The server had an error", ""), llm.ErrServer, "The server had an error"},
		{"proxy plain text", 502, "<html>\n<body>Bad Gateway</body>\n</html>", llm.ErrServer, "Bad Gateway"},
		{"other client error", 400, llmtest.OpenAIError(400, "Invalid value for 'temperature'", ""), llm.ErrOther, "temperature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Push(llmtest.Reply{Status: tt.status, ErrorBody: tt.body})
			_, _, err := stream(t, openai.New(srv.Config()), prompt("hi"))
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

func TestInBandStreamError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"error":{"code":500,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}}`+"\n\n")
	}))
	t.Cleanup(srv.Close)
	_, _, err := stream(t, openai.New(llm.Config{BaseURL: srv.URL, Model: "m"}), prompt("hi"))
	if !llm.IsKind(err, llm.ErrContextOverflow) {
		t.Fatalf("err = %v, want a context overflow", err)
	}
}

func TestStreamCut(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Push(llmtest.Reply{Text: "this answer will be cut short", CutAfter: 3})
	var deltas []llm.Delta
	_, err := openai.New(srv.Config()).Stream(t.Context(), prompt("hi"), func(d llm.Delta) { deltas = append(deltas, d) })
	if !llm.IsKind(err, llm.ErrStreamCut) {
		t.Fatalf("err = %v, want a cut stream", err)
	}
	if len(deltas) == 0 {
		t.Error("no deltas before the cut")
	}
	if !strings.Contains(err.Error(), srv.URL) {
		t.Errorf("Error() = %q does not name the server", err)
	}
}

func TestStreamEndsWithoutFinish(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"half an"},"finish_reason":null}]}`+"\n\n")
	}))
	t.Cleanup(srv.Close)
	_, _, err := stream(t, openai.New(llm.Config{BaseURL: srv.URL, Model: "m"}), prompt("hi"))
	if !llm.IsKind(err, llm.ErrStreamCut) {
		t.Fatalf("err = %v, want a cut stream", err)
	}
}

func TestSlowFirstByte(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Push(llmtest.Reply{Text: "too late", FirstByteDelay: guard})
	cfg := srv.Config()
	cfg.FirstByteTimeout = shortDeadline
	_, _, err := stream(t, openai.New(cfg), prompt("hi"))
	if !llm.IsKind(err, llm.ErrTimeout) {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("Error() = %q", err)
	}
}

func TestSilentStream(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Push(llmtest.Reply{Text: "starts, then goes quiet", Hold: make(chan struct{})})
	cfg := srv.Config()
	cfg.IdleTimeout = shortDeadline
	_, deltas, err := stream(t, openai.New(cfg), prompt("hi"))
	if !llm.IsKind(err, llm.ErrStreamCut) || len(deltas) == 0 {
		t.Fatalf("err = %v after %d deltas, want a cut stream after some", err, len(deltas))
	}
	if !strings.Contains(err.Error(), "no data for") {
		t.Errorf("Error() = %q does not say the stream went silent", err)
	}
}

func TestCancelMidStream(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Push(llmtest.Reply{Text: "an answer that never finishes", Hold: make(chan struct{})})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := openai.New(srv.Config()).Stream(ctx, prompt("hi"), func(llm.Delta) { cancel() })
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

func TestCallerDeadline(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Push(llmtest.Reply{Text: "slow", FirstByteDelay: guard})
	ctx, cancel := context.WithTimeout(t.Context(), shortDeadline)
	defer cancel()
	_, err := openai.New(srv.Config()).Stream(ctx, prompt("hi"), func(llm.Delta) {})
	if !llm.IsKind(err, llm.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a timeout wrapping context.DeadlineExceeded", err)
	}
}

func TestConnectionRefused(t *testing.T) {
	url := llmtest.UnreachableURL(t)
	_, _, err := stream(t, openai.New(llm.Config{BaseURL: url, Model: "m"}), prompt("hi"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrUnreachable {
		t.Fatalf("err = %v, want unreachable", err)
	}
	if e.URL != url || !strings.Contains(e.Error(), url) {
		t.Errorf("error names %q / %q, want %q", e.URL, e.Error(), url)
	}
}

func TestListModels(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	models, err := openai.ListModels(t.Context(), srv.URL, "")
	if err != nil || !slices.Equal(models, []string{llmtest.ModelName}) {
		t.Fatalf("ListModels = %v, %v; want [%s]", models, err, llmtest.ModelName)
	}
	url := llmtest.UnreachableURL(t)
	if _, err := openai.ListModels(t.Context(), url, ""); !llm.IsKind(err, llm.ErrUnreachable) {
		t.Errorf("ListModels(%s) err = %v, want unreachable", url, err)
	}
}

func BenchmarkStreamTokens(b *testing.B) {
	srv := llmtest.NewOpenAI(b)
	const tokens = 2000
	srv.Respond(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: strings.Repeat("tok ", tokens)} })
	p := openai.New(srv.Config())
	received := 0
	for b.Loop() {
		_, err := p.Stream(b.Context(), prompt("go"), func(llm.Delta) { received++ })
		if err != nil {
			b.Fatalf("Stream: %v", err)
		}
	}
	b.ReportMetric(float64(received)/b.Elapsed().Seconds(), "tokens/s")
}
