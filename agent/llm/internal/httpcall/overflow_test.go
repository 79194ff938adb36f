package httpcall

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"
)

// Each server's own words for a request over its context window (from
// their sources: ds4_server.c http_error_context_length_exceeded,
// llama.cpp's exceed_context_size_error, vLLM's serving checks, Ollama's
// OpenAI-compatible layer, the cloud APIs), and messages that are not one.
func TestIsOverflowKnowsEachServersWording(t *testing.T) {
	for _, tt := range []struct {
		server, text string
		want         bool
	}{
		{"ds4-server /v1/chat/completions", `Prompt has 40000 tokens, but the configured context size is 32768 tokens context_length_exceeded invalid_request_error`, true},
		{"ds4-server /v1/messages", `Prompt has 40000 tokens, but the configured context size is 32768 tokens`, true},
		{"llama.cpp", `request (4476 tokens) exceeds the available context size (4096 tokens) exceed_context_size_error`, true},
		{"llama.cpp (older)", `the request exceeds the available context size, try increasing it`, true},
		{"vLLM", `This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion).`, true},
		{"Ollama", `the input length exceeds the context length`, true},
		{"OpenAI", `Your input exceeds the context window of this model. Please adjust your input and try again.`, true},
		{"Anthropic", `prompt is too long: 215000 tokens > 200000 maximum`, true},
		{"Anthropic max_tokens", "input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000", true},
		{"a proxy", `Request too large: too many tokens`, true},
		{"rate limit", `Too many requests, please slow down`, false},
		{"missing model", `model "qwen3" not found, try pulling it first`, false},
		{"llama.cpp loading", `Loading model unavailable_error`, false},
		{"auth", `Incorrect API key provided`, false},
	} {
		if got := IsOverflow(tt.text); got != tt.want {
			t.Errorf("%s: IsOverflow(%q) = %v, want %v", tt.server, tt.text, got, tt.want)
		}
	}
}

func TestUnreachableIsAFailureToConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	_, refused := NewHTTPClient(time.Second).Get(closed)
	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", refused, true},
		{"no such host", &net.DNSError{Err: "no such host", Name: "nowhere.invalid", IsNotFound: true}, true},
		{"a server that answered badly", errors.New("unexpected EOF"), false},
		{"cancelled", context.Canceled, false},
	} {
		if got := Unreachable(tt.err); got != tt.want {
			t.Errorf("%s: Unreachable(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

// Stop ends the call at once, and a stopped call is no timeout.
func TestStopCancelsTheCallAndIsNoTimeout(t *testing.T) {
	dog := Watch(context.Background(), time.Hour, time.Hour)
	dog.Stop()
	select {
	case <-dog.Context().Done():
	default:
		t.Fatal("Stop left the call's context alive")
	}
	if cause, _ := dog.Expired(); cause != nil {
		t.Fatalf("Expired() after Stop = %v, want nil", cause)
	}
	req, _ := http.NewRequestWithContext(dog.Context(), http.MethodGet, "http://127.0.0.1:1", nil)
	if _, err := NewHTTPClient(time.Second).Do(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("a request on a stopped watch: %v, want context.Canceled", err)
	}
}
