package agent

import (
	"context"
	"slices"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/openai"
	"github.com/agentdesk/agentdesk/agent/llm/servers"
)

// probeTimeout bounds the first-start probe of each local preset; a local
// server answers /v1/models in milliseconds.
const probeTimeout = 1500 * time.Millisecond

// ProbeLocal asks the local presets (ds4-server, llama.cpp, Ollama, LM
// Studio) at once and returns the first, in preset order, that answers
// /v1/models, with a model the server actually lists, named for what the
// server says it is (vLLM also serves on ds4-server's port 8000).
func ProbeLocal(ctx context.Context) (ProviderSettings, bool) {
	s, ok := probeLocal(ctx)
	if !ok {
		return s, false
	}
	nameCtx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	return named(s, servers.Probe(nameCtx, s.BaseURL, "", s.Model).Name), true
}

// named is s under the preset of the server that answered, when the
// server named itself and a preset has that name; its URL and model stay.
func named(s ProviderSettings, server string) ProviderSettings {
	if server == "" || server == s.Preset {
		return s
	}
	p, ok := PresetSettings(server)
	if !ok {
		return s
	}
	p.BaseURL, p.Model = s.BaseURL, s.Model
	return p
}

func probeLocal(ctx context.Context) (ProviderSettings, bool) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var local []llm.Preset
	for _, p := range llm.Presets {
		if p.Local {
			local = append(local, p)
		}
	}
	answers := make([]chan []string, len(local))
	for i, p := range local {
		answers[i] = make(chan []string, 1)
		go func() {
			models, err := openai.ListModels(ctx, p.BaseURL, "")
			if err != nil {
				models = nil
			}
			answers[i] <- models
		}()
	}
	for i, p := range local {
		models := <-answers[i]
		if models == nil {
			continue
		}
		s, _ := PresetSettings(p.Name)
		if len(models) > 0 && !slices.Contains(models, s.Model) {
			s.Model = models[0]
		}
		return s, true
	}
	return ProviderSettings{}, false
}
