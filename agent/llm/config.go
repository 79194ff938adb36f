package llm

import (
	"net/url"
	"strings"
	"time"
)

// Provider kinds: the two wire formats AgentDesk speaks.
const (
	KindOpenAI    = "openai"    // Chat Completions: OpenAI, ds4-server, llama.cpp, Ollama, vLLM, DeepSeek, OpenRouter
	KindAnthropic = "anthropic" // Messages API
)

// Deadlines of a model call. A local server may take long to load a model
// before its first byte, so that one is generous; once streaming, silence
// longer than the idle timeout means the stream is dead.
const (
	DefaultConnectTimeout   = 10 * time.Second
	DefaultFirstByteTimeout = 5 * time.Minute
	DefaultIdleTimeout      = 90 * time.Second
	DefaultMaxTokens        = 8192
	MinMaxTokens            = 1024 // the smallest default answer room
	DefaultContextWindow    = 32768
	// MinThinkingBudget is the smallest thinking budget the Anthropic API
	// accepts.
	MinThinkingBudget = 1024
)

// Which assistant messages carry their reasoning back (OpenAI-compatible
// servers; Anthropic always sends signed thinking back, as its API
// requires).
const (
	// ReasoningAuto: ReasoningAlways for servers on this machine or the
	// local network (ds4-server, llama.cpp, vLLM, Ollama, LM Studio
	// render it into their chat template, so leaving it out changes the
	// prompt's prefix and throws their KV cache away at every tool step);
	// ReasoningToolLoop for the DeepSeek API; ReasoningNever for other
	// clouds, which reject or ignore the field.
	ReasoningAuto = ""
	// ReasoningAlways: every assistant message that has reasoning.
	ReasoningAlways = "always"
	// ReasoningToolLoop: only the messages of the current tool loop (after
	// the last user prompt), as the DeepSeek API wants.
	ReasoningToolLoop = "tool_loop"
	// ReasoningNever: none.
	ReasoningNever = "never"
)

// Config is one provider as Preferences stores it.
type Config struct {
	Kind          string
	BaseURL       string
	Model         string
	APIKey        string
	ContextWindow int // tokens; drives the context meter and compaction
	// ThinkingBudget, when at least MinThinkingBudget, turns on Anthropic
	// extended thinking with that many tokens to think in, on top of
	// MaxTokens for the answer. Zero is off. OpenAI-compatible servers
	// decide for themselves and stream reasoning_content when they think.
	ThinkingBudget int

	// SendReasoning says which assistant messages an OpenAI-compatible
	// request carries reasoning_content on; "" decides by the server (see
	// the Reasoning* constants).
	SendReasoning string

	// Zero means the Default* value.
	ConnectTimeout   time.Duration
	FirstByteTimeout time.Duration
	IdleTimeout      time.Duration
	MaxTokens        int
}

// NormalizeBaseURL puts a base URL in the form each SDK expects, so the
// forms people paste all work: trailing slashes go; the Anthropic SDK adds
// /v1/messages itself, so a trailing /v1 goes too (it would request
// /v1/v1/messages); an OpenAI-compatible URL that is only a host gets the
// /v1 every local server (ds4-server, llama.cpp, Ollama, vLLM, LM Studio)
// serves under. Other paths are kept (OpenRouter's /api/v1, proxies).
func NormalizeBaseURL(kind, base string) string {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	switch kind {
	case KindAnthropic:
		return strings.TrimRight(strings.TrimSuffix(base, "/v1"), "/")
	case KindOpenAI:
		if u, err := url.Parse(base); err == nil && u.Host != "" && u.Path == "" {
			return base + "/v1"
		}
	}
	return base
}

// WithDefaults fills zero fields with the package defaults and normalises
// the base URL.
func (c Config) WithDefaults() Config {
	c.BaseURL = NormalizeBaseURL(c.Kind, c.BaseURL)
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.FirstByteTimeout == 0 {
		c.FirstByteTimeout = DefaultFirstByteTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.ContextWindow == 0 {
		c.ContextWindow = DefaultContextWindow
	}
	if c.MaxTokens == 0 {
		// A quarter of a small window at most: servers that count the
		// answer's room against the window (vLLM, the cloud APIs) refuse
		// a prompt that leaves less than max_tokens free.
		c.MaxTokens = min(DefaultMaxTokens, max(c.ContextWindow/4, MinMaxTokens))
	}
	return c
}

// Preset is a ready-made provider the user can pick.
type Preset struct {
	Name          string
	Kind          string
	BaseURL       string
	Model         string
	APIKeyEnv     string // conventional variable holding the key, if any
	ContextWindow int
	// ThinkingBudget is the preset's Config.ThinkingBudget.
	ThinkingBudget int
	Local          bool // probed at first start
}

// Presets in the order they are offered and probed.
var Presets = []Preset{
	// ContextWindow is what is assumed when the server does not state its
	// own: ds4-server's default --ctx, llama.cpp's and Ollama's defaults.
	{Name: "ds4-server", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:8000/v1", Model: "deepseek-v4-flash", ContextWindow: 32768, Local: true},
	{Name: "llama.cpp", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:8080/v1", Model: "default", ContextWindow: 32768, Local: true},
	{Name: "Ollama", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen3-coder", ContextWindow: 4096, Local: true},
	// vLLM serves on ds4-server's port by default; autodetect tells them
	// apart by what /v1/models says (owned_by).
	{Name: "vLLM", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:8000/v1", Model: "default", ContextWindow: 32768},
	{Name: "LM Studio", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1234/v1", Model: "default", ContextWindow: 4096, Local: true},
	{Name: "OpenAI", Kind: KindOpenAI, BaseURL: "https://api.openai.com/v1", Model: "gpt-5.1", APIKeyEnv: "OPENAI_API_KEY", ContextWindow: 400000},
	{Name: "Anthropic", Kind: KindAnthropic, BaseURL: "https://api.anthropic.com", Model: "claude-sonnet-4-5", APIKeyEnv: "ANTHROPIC_API_KEY", ContextWindow: 200000, ThinkingBudget: 4096},
}
