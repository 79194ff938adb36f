package openai

import (
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm"
)

func TestReasoningModeByServer(t *testing.T) {
	for _, tt := range []struct{ url, want string }{
		{"http://127.0.0.1:8000/v1", llm.ReasoningAlways},     // ds4-server, vLLM
		{"http://localhost:8080/v1", llm.ReasoningAlways},     // llama.cpp
		{"http://192.168.1.20:11434/v1", llm.ReasoningAlways}, // Ollama on the LAN
		{"http://gpu-box.local:8000/v1", llm.ReasoningAlways},
		{"http://[::1]:1234/v1", llm.ReasoningAlways}, // LM Studio
		{"https://api.deepseek.com/v1", llm.ReasoningToolLoop},
		{"https://api.openai.com/v1", llm.ReasoningNever},
		{"https://openrouter.ai/api/v1", llm.ReasoningNever},
	} {
		if got := reasoningFor(llm.Config{BaseURL: tt.url}); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.url, got, tt.want)
		}
	}
	if got := reasoningFor(llm.Config{BaseURL: "http://127.0.0.1:8000/v1", SendReasoning: llm.ReasoningNever}); got != llm.ReasoningNever {
		t.Errorf("an explicit setting must win, got %q", got)
	}
}
