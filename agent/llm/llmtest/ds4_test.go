package llmtest

import (
	"io"
	"strings"
	"testing"
	"time"
)

// The fakes send ds4-server's own bytes (ds4_server.c: server_progress_cb,
// sse_error_event, the "unterminated tool call" finish, anthropic_stop_reason)
// for the failures the loop must recognise.
func TestDs4Bytes(t *testing.T) {
	anthropicBody := `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`
	call := []ToolCall{{Name: "write_file", Args: `{"path":"a.txt","con`}}
	for _, tt := range []struct {
		name     string
		start    func(testing.TB) *Server
		path     string
		body     string
		reply    Reply
		want     []string // byte strings the stream holds
		unwanted []string
	}{
		{"openai keepalives then error event", NewOpenAI, "/chat/completions", openAIBody,
			Reply{Keepalives: 2, KeepaliveEvery: time.Millisecond, ServerError: "prefill failed"},
			[]string{": prefill\n\n: prefill\n\nevent: error\ndata: {\"error\":{\"message\":\"prefill failed\",\"type\":\"server_error\"}}\n\n"}, []string{"[DONE]"}},
		{"anthropic keepalives then error event", NewAnthropic, "/v1/messages", anthropicBody,
			Reply{Keepalives: 1, KeepaliveEvery: time.Millisecond, ServerError: "prefill failed"},
			[]string{": prefill\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"prefill failed\"}}\n\n"}, []string{"message_start"}},
		{"openai unterminated tool call", NewOpenAI, "/chat/completions", openAIBody,
			Reply{ToolCalls: call, Unterminated: true},
			[]string{`"arguments":",\"con"`, `"finish_reason":"error"`}, []string{`"finish_reason":"tool_calls"`}},
		{"anthropic unterminated tool call", NewAnthropic, "/v1/messages", anthropicBody,
			Reply{Text: "On it.", ToolCalls: call, Unterminated: true},
			[]string{`"type":"tool_use"`, `"stop_reason":"end_turn"`, `{"index":0,"type":"content_block_stop"}`},
			[]string{`{"index":1,"type":"content_block_stop"}`, `"stop_reason":"tool_use"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.start(t)
			s.Push(tt.reply)
			raw, err := io.ReadAll(post(t, s.URL+tt.path, tt.body).Body)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(raw), w) {
					t.Errorf("stream lacks %q:\n%s", w, raw)
				}
			}
			for _, u := range tt.unwanted {
				if strings.Contains(string(raw), u) {
					t.Errorf("stream holds %q:\n%s", u, raw)
				}
			}
		})
	}
}
