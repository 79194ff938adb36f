package agent

import (
	"context"
	"slices"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/openai"
)

// probeTimeout bounds the first-start probe of each local preset; a local
// server answers /v1/models in milliseconds.
const probeTimeout = 1500 * time.Millisecond

// ProbeLocal asks the local presets (ds4-server, llama.cpp, Ollama) at
// once and returns the first, in preset order, that answers /v1/models,
// with a model the server actually lists.
func ProbeLocal(ctx context.Context) (ProviderSettings, bool) {
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
