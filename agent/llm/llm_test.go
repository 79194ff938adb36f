package llm

import (
	"strings"
	"testing"
)

func TestNormalizeBaseURL(t *testing.T) {
	for _, tt := range []struct{ kind, in, want string }{
		{KindAnthropic, "https://api.anthropic.com", "https://api.anthropic.com"},
		{KindAnthropic, "https://api.anthropic.com/", "https://api.anthropic.com"},
		{KindAnthropic, "https://api.anthropic.com/v1", "https://api.anthropic.com"},
		{KindAnthropic, "http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000"},
		{KindAnthropic, "https://proxy.example/anthropic", "https://proxy.example/anthropic"},
		{KindOpenAI, "http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"},
		{KindOpenAI, "http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1"},
		{KindOpenAI, "http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"},
		{KindOpenAI, "http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1"},
		{KindOpenAI, " https://openrouter.ai/api/v1 ", "https://openrouter.ai/api/v1"},
	} {
		if got := NormalizeBaseURL(tt.kind, tt.in); got != tt.want {
			t.Errorf("NormalizeBaseURL(%s, %q) = %q, want %q", tt.kind, tt.in, got, tt.want)
		}
	}
}

func TestContextPartsAreSeparatedFromThePromptWhenFlattened(t *testing.T) {
	// What a server that joins content parts without a separator sees.
	flat := ContextPartText(Part{Kind: PartContext, Source: "ponytail", Event: "UserPromptSubmit", Text: "mode: full"}) + "fix it"
	if !strings.Contains(flat, "</extension-context>\n\nfix it") {
		t.Fatalf("flattened = %q, want a blank line before the prompt", flat)
	}
}

func TestDefaultAnswerRoomFitsSmallWindows(t *testing.T) {
	for _, tt := range []struct{ window, set, want int }{
		{0, 0, DefaultMaxTokens},      // the default 32768 window
		{131072, 0, DefaultMaxTokens}, // never more than the default
		{4096, 0, MinMaxTokens},       // Ollama's default window: a quarter
		{2048, 0, MinMaxTokens},       // never below the minimum
		{4096, 3000, 3000},            // the user's value is kept
	} {
		c := Config{ContextWindow: tt.window, MaxTokens: tt.set}.WithDefaults()
		if c.MaxTokens != tt.want {
			t.Errorf("window %d, set %d: MaxTokens %d, want %d", tt.window, tt.set, c.MaxTokens, tt.want)
		}
	}
}
