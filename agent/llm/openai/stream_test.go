package openai

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	oa "github.com/openai/openai-go/v3"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/internal/httpcall"
)

// assemble feeds chunk deltas, given as JSON, through an assembler.
func assemble(t *testing.T, deltas ...string) (llm.Response, []llm.Delta) {
	t.Helper()
	var a assembler
	var got []llm.Delta
	for _, d := range deltas {
		var chunk oa.ChatCompletionChunk
		raw := `{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + d + `,"finish_reason":null}]}`
		if err := json.Unmarshal([]byte(raw), &chunk); err != nil {
			t.Fatalf("chunk %s: %v", d, err)
		}
		a.add(chunk, func(d llm.Delta) { got = append(got, d) })
	}
	return a.response(), got
}

func TestAssembleToolCalls(t *testing.T) {
	tests := []struct {
		name   string
		deltas []string
		want   []llm.Part
	}{
		{
			name: "id only on the first fragment, calls interleaved by index",
			deltas: []string{
				`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"read","arguments":""}}]}`,
				`{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"grep","arguments":"{\"q\":"}}]}`,
				`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]}`,
				`{"tool_calls":[{"index":1,"function":{"arguments":"\"x\"}"}}]}`,
				`{"tool_calls":[{"index":0,"function":{"arguments":"\"a.go\"}"}}]}`,
			},
			want: []llm.Part{
				{Kind: llm.PartToolCall, CallID: "a", Name: "read", Args: `{"path":"a.go"}`},
				{Kind: llm.PartToolCall, CallID: "b", Name: "grep", Args: `{"q":"x"}`},
			},
		},
		{
			name: "id and name repeated on every fragment",
			deltas: []string{
				`{"tool_calls":[{"index":0,"id":"a","function":{"name":"read","arguments":"{\"path\""}}]}`,
				`{"tool_calls":[{"index":0,"id":"a","function":{"name":"read","arguments":":\"b\"}"}}]}`,
			},
			want: []llm.Part{{Kind: llm.PartToolCall, CallID: "a", Name: "read", Args: `{"path":"b"}`}},
		},
		{
			name: "every call at index 0, told apart by id",
			deltas: []string{
				`{"tool_calls":[{"index":0,"id":"a","function":{"name":"read","arguments":"{\"path\":\"1\"}"}}]}`,
				`{"tool_calls":[{"index":0,"id":"b","function":{"name":"read","arguments":"{\"path\":\"2\"}"}}]}`,
			},
			want: []llm.Part{
				{Kind: llm.PartToolCall, CallID: "a", Name: "read", Args: `{"path":"1"}`},
				{Kind: llm.PartToolCall, CallID: "b", Name: "read", Args: `{"path":"2"}`},
			},
		},
		{
			name: "no id and no arguments",
			deltas: []string{
				`{"tool_calls":[{"index":0,"function":{"name":"list_dir"}}]}`,
			},
			want: []llm.Part{{Kind: llm.PartToolCall, CallID: "call_1", Name: "list_dir", Args: "{}"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, _ := assemble(t, tt.deltas...)
			if !slices.Equal(resp.Message.Parts, tt.want) {
				t.Errorf("parts = %+v\nwant %+v", resp.Message.Parts, tt.want)
			}
		})
	}
}

func TestAssembleReasoningFields(t *testing.T) {
	tests := []struct{ name, delta string }{
		{"reasoning_content (DeepSeek, llama.cpp)", `{"reasoning_content":"hmm"}`},
		{"reasoning (vLLM, Ollama, OpenRouter)", `{"reasoning":"hmm"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, deltas := assemble(t, tt.delta, `{"reasoning_content":null,"content":"ok"}`)
			want := []llm.Delta{{Kind: llm.PartReasoning, Text: "hmm"}, {Kind: llm.PartText, Text: "ok"}}
			if !slices.Equal(deltas, want) {
				t.Errorf("deltas = %+v, want %+v", deltas, want)
			}
			if len(resp.Message.Parts) != 2 || resp.Message.Parts[0] != (llm.Part{Kind: llm.PartReasoning, Text: "hmm"}) {
				t.Errorf("parts = %+v", resp.Message.Parts)
			}
		})
	}
}

func TestParseErrorBodyClips(t *testing.T) {
	long := strings.Repeat("é", httpcall.MaxDetail)
	info := parseErrorBody([]byte(`{"error":{"message":"` + long + `"}}`))
	if len(info.message) > httpcall.MaxDetail+len("…") || !strings.HasSuffix(info.message, "…") || !json.Valid([]byte(`"`+info.message+`"`)) {
		t.Errorf("clipped message is %d bytes, valid UTF-8 = %v", len(info.message), json.Valid([]byte(`"`+info.message+`"`)))
	}
}

func TestWantsCompletionTokens(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"https://api.openai.com/v1", true},
		{"https://api.deepseek.com/v1", false},
		{"http://127.0.0.1:8080/v1", false},
		{"https://openrouter.ai/api/v1", false},
	}
	for _, tt := range tests {
		if got := wantsCompletionTokens(tt.url); got != tt.want {
			t.Errorf("wantsCompletionTokens(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}
