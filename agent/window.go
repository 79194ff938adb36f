package agent

import (
	"context"
	"sync"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/servers"
)

// legacyPresetWindows are context windows earlier versions copied from a
// preset into the settings. Such a stored value was never the user's
// choice, so it does not override what the server states.
var legacyPresetWindows = map[string]int{"ds4-server": 131072}

// copiedFromPreset reports whether window is a preset's value (today's or
// an earlier version's) rather than one the user typed.
func copiedFromPreset(preset string, window int) bool {
	if window == 0 {
		return false
	}
	if legacyPresetWindows[preset] == window {
		return true
	}
	for _, p := range llm.Presets {
		if p.Name == preset && p.ContextWindow == window {
			return true
		}
	}
	return false
}

// presetWindow is the context window a preset assumes when the server
// does not say, or the package default.
func presetWindow(preset string) int {
	for _, p := range llm.Presets {
		if p.Name == preset && p.ContextWindow > 0 {
			return p.ContextWindow
		}
	}
	return llm.DefaultContextWindow
}

// Window is a context window and where it came from.
type Window struct {
	Tokens int
	Source string // "your setting", "ds4-server GET /v1/models context_length", "the ds4-server preset", ...
	Server string // the server's name, when it said
	// MaxAnswer is the answer room the server states (ds4-server), 0
	// when it does not.
	MaxAnswer int
}

// Apply puts the window into cfg, and the server's answer room when the
// user set none (cfg.MaxTokens 0): ds4-server's default thinking can run
// past the generic default of 8192 tokens, which would cut it short.
func (w Window) Apply(cfg *llm.Config) {
	cfg.ContextWindow = w.Tokens
	if cfg.MaxTokens == 0 && w.MaxAnswer > 0 {
		cfg.MaxTokens = w.MaxAnswer
	}
}

// ServerInfo remembers what each server said about itself, asked once per
// base URL and model (a few milliseconds on a local server), so the loop
// and Preferences read the context window the server really serves.
type ServerInfo struct {
	mu    sync.Mutex
	known map[[2]string]servers.Info
	probe func(ctx context.Context, baseURL, apiKey, model string) servers.Info
}

// NewServerInfo returns an empty cache asking servers.Probe.
func NewServerInfo() *ServerInfo {
	return &ServerInfo{known: map[[2]string]servers.Info{}, probe: servers.Probe}
}

// Window resolves the context window for the settings ps, whose config is
// cfg: the user's own value wins; else what the server states; else the
// preset's assumption.
func (s *ServerInfo) Window(ctx context.Context, ps ProviderSettings, cfg llm.Config) Window {
	if ps.ContextWindow > 0 {
		return Window{Tokens: ps.ContextWindow, Source: "your setting"}
	}
	info := s.lookup(ctx, cfg)
	if info.ContextWindow > 0 {
		return Window{Tokens: info.ContextWindow, Source: info.Source, Server: info.Name, MaxAnswer: info.MaxAnswer}
	}
	source := "the default (the server does not say)"
	if ps.Preset != "" {
		source = "the " + ps.Preset + " preset (the server does not say)"
	}
	return Window{Tokens: presetWindow(ps.Preset), Source: source, Server: info.Name}
}

func keyOf(cfg llm.Config) [2]string {
	return [2]string{llm.NormalizeBaseURL(cfg.Kind, cfg.BaseURL), cfg.Model}
}

func (s *ServerInfo) lookup(ctx context.Context, cfg llm.Config) servers.Info {
	key := keyOf(cfg)
	s.mu.Lock()
	info, ok := s.known[key]
	s.mu.Unlock()
	if ok {
		return info
	}
	info = s.probe(ctx, key[0], cfg.APIKey, cfg.Model)
	if !info.Answered { // not there (yet): ask again next time
		return info
	}
	s.mu.Lock()
	s.known[key] = info
	s.mu.Unlock()
	return info
}

// Forget drops what was learnt, so the next call asks again (after the
// user changed the provider, or a server was restarted with another
// context size).
func (s *ServerInfo) Forget() {
	s.mu.Lock()
	clear(s.known)
	s.mu.Unlock()
}

// Watch wraps prov, the provider for cfg, so that a context overflow the
// server reports drops what it said about itself: a server restarted with
// a smaller context since it was asked (ds4-server --ctx, llama.cpp -c)
// would otherwise be held to its old size for as long as the app runs,
// and every turn would overflow first. The next call asks again.
func (s *ServerInfo) Watch(prov llm.Provider, cfg llm.Config) llm.Provider {
	key := keyOf(cfg)
	return overflowWatch{Provider: prov, forget: func() {
		s.mu.Lock()
		delete(s.known, key)
		s.mu.Unlock()
	}}
}

type overflowWatch struct {
	llm.Provider
	forget func()
}

func (w overflowWatch) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	resp, err := w.Provider.Stream(ctx, req, onDelta)
	if llm.IsKind(err, llm.ErrContextOverflow) {
		w.forget()
	}
	return resp, err
}
