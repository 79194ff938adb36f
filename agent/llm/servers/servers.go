// Package servers asks a model server what it is and how large a context
// window it serves, from what each server states about itself:
//
//   - ds4-server: GET /v1/models, owned_by "ds4.c", context_length (the
//     runtime --ctx value, 32768 by default) and
//     top_provider.max_completion_tokens (its answer room);
//   - vLLM: GET /v1/models, owned_by "vllm", max_model_len;
//   - llama.cpp: GET /props, default_generation_settings.n_ctx (the
//     runtime -c value), owned_by "llamacpp" in /v1/models;
//   - Ollama: GET /api/version answers; POST /api/show gives the model's
//     num_ctx parameter when its Modelfile sets one (capped by the trained
//     <arch>.context_length); else GET /api/ps gives the context the
//     model was loaded with. Ollama chooses that itself (4096, 32768 or
//     262144 tokens by VRAM, or OLLAMA_CONTEXT_LENGTH) and says so
//     nowhere else, so before the model is loaded 4096 is assumed and the
//     server is asked again next time;
//   - others (OpenRouter, LM Studio, proxies) that put context_length on
//     their models.
//
// Every probe is a small bounded GET or POST; a server that answers none
// of them gives an empty Info, and the caller keeps its fallback.
package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// Timeout bounds the whole probe: local servers answer in milliseconds.
const Timeout = 3 * time.Second

// ollamaDefaultContext is the smallest context Ollama runs a model with
// when neither its Modelfile nor the request sets num_ctx (server/routes.go:
// 4096 below 23 GiB of VRAM, 32768 below 47 GiB, else 262144).
const ollamaDefaultContext = 4096

// maxBody bounds what is read of any answer.
const maxBody = 1 << 20

// Info is what a server said about itself.
type Info struct {
	Name          string // "ds4-server", "vLLM", "llama.cpp", "Ollama", or "" when unknown
	ContextWindow int    // tokens; 0 when the server did not say
	Source        string // where ContextWindow was read, for Preferences
	// MaxAnswer is the answer room the server states and honours as such,
	// 0 when it does not (see models).
	MaxAnswer int
	// Answered: some probe got an answer and it is no assumption (so
	// asking again would learn nothing new until the server restarts).
	Answered bool
}

// Probe asks the server at baseURL (an OpenAI-compatible ".../v1" URL or
// an Anthropic-style root) about itself and about model.
func Probe(ctx context.Context, baseURL, apiKey, model string) Info {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	c := &client{http: &http.Client{}, key: apiKey, root: rootOf(baseURL)}
	info := c.probe(ctx, model)
	info.Answered = c.answered && !c.provisional
	return info
}

func (c *client) probe(ctx context.Context, model string) Info {
	info := c.models(ctx, model)
	if info.ContextWindow > 0 && info.Name != "llama.cpp" {
		return info
	}
	if n := c.llamaProps(ctx); n > 0 {
		return Info{Name: "llama.cpp", ContextWindow: n, Source: "llama.cpp GET /props n_ctx"}
	}
	if c.isOllama(ctx) {
		return c.ollama(ctx, model)
	}
	return info
}

// rootOf is the server's root: the base URL less a trailing /v1.
func rootOf(base string) string {
	return strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1")
}

type client struct {
	http     *http.Client
	key      string
	root     string
	answered bool // some request got an HTTP answer
	// provisional: the answer is an assumption that may change without a
	// restart (an Ollama model not loaded yet, a server still loading its
	// model), so it is not remembered.
	provisional bool
}

// do decodes the JSON answer of a request into v; false on any failure.
func (c *client) do(ctx context.Context, method, path string, body any, v any) bool {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.root+path, rd)
	if err != nil {
		return false
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
		req.Header.Set("X-Api-Key", c.key)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	c.answered = true
	if res.StatusCode == http.StatusServiceUnavailable {
		// A server still loading its model (llama.cpp: "Loading model" on
		// /props, while /v1/models already answers) will say more soon.
		c.provisional = true
	}
	if res.StatusCode != http.StatusOK {
		return false
	}
	return json.NewDecoder(io.LimitReader(res.Body, maxBody)).Decode(v) == nil
}

// modelEntry is one model of GET /v1/models, with the fields servers add.
type modelEntry struct {
	ID            string `json:"id"`
	OwnedBy       string `json:"owned_by"`
	ContextLength int    `json:"context_length"` // ds4-server, OpenRouter, LM Studio
	MaxModelLen   int    `json:"max_model_len"`  // vLLM
	TopProvider   struct {
		MaxCompletionTokens int `json:"max_completion_tokens"`
	} `json:"top_provider"` // ds4-server, OpenRouter
}

var ownerNames = map[string]string{"ds4.c": "ds4-server", "vllm": "vLLM", "llamacpp": "llama.cpp"}

// models reads GET /v1/models: the server's name from owned_by, and the
// context window of model (or of the only model listed).
func (c *client) models(ctx context.Context, model string) Info {
	var list struct {
		Data []modelEntry `json:"data"`
	}
	if !c.do(ctx, http.MethodGet, "/v1/models", nil, &list) || len(list.Data) == 0 {
		return Info{}
	}
	m := list.Data[0]
	for _, e := range list.Data {
		if e.ID == model {
			m = e
		}
	}
	info := Info{Name: ownerNames[m.OwnedBy]}
	switch {
	case m.ContextLength > 0:
		info.ContextWindow, info.Source = m.ContextLength, "GET /v1/models context_length"
	case m.MaxModelLen > 0:
		info.ContextWindow, info.Source = m.MaxModelLen, "GET /v1/models max_model_len"
	}
	if info.Name != "" && info.Source != "" {
		info.Source = info.Name + " " + info.Source
	}
	// ds4-server states min(its default answer room, --ctx) and clamps
	// any max_tokens to the room the prompt leaves, never refusing a
	// request for it: its value costs nothing and lets a long thinking
	// finish. Elsewhere (OpenRouter) the figure is the model's cap, which
	// the window may not hold.
	if info.Name == "ds4-server" {
		info.MaxAnswer = m.TopProvider.MaxCompletionTokens
	}
	return info
}

// llamaProps reads llama.cpp's runtime context size.
func (c *client) llamaProps(ctx context.Context) int {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Defaults struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if !c.do(ctx, http.MethodGet, "/props", nil, &props) {
		return 0
	}
	if props.Defaults.NCtx > 0 {
		return props.Defaults.NCtx
	}
	return props.NCtx
}

func (c *client) isOllama(ctx context.Context) bool {
	var v struct {
		Version string `json:"version"`
	}
	return c.do(ctx, http.MethodGet, "/api/version", nil, &v) && v.Version != ""
}

// ollama reads the model's num_ctx parameter, else applies Ollama's
// runtime default, never above what the model was trained for.
func (c *client) ollama(ctx context.Context, model string) Info {
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	c.do(ctx, http.MethodPost, "/api/show", map[string]string{"model": model}, &show)
	trained := trainedContext(show.ModelInfo)
	if n := numCtx(show.Parameters); n > 0 {
		if trained > 0 && trained < n {
			return Info{Name: "Ollama", ContextWindow: trained, Source: "Ollama POST /api/show context_length"}
		}
		return Info{Name: "Ollama", ContextWindow: n, Source: "Ollama POST /api/show num_ctx"}
	}
	if n := c.ollamaLoaded(ctx, model); n > 0 {
		return Info{Name: "Ollama", ContextWindow: n, Source: "Ollama GET /api/ps context_length (as loaded)"}
	}
	c.provisional = true
	info := Info{Name: "Ollama", ContextWindow: ollamaDefaultContext, Source: "Ollama's smallest default, until the model is loaded"}
	if trained > 0 && trained < info.ContextWindow {
		info.ContextWindow, info.Source = trained, "Ollama POST /api/show context_length"
	}
	return info
}

// ollamaLoaded is the context the model runs with if Ollama has it
// loaded (a name without a tag is the :latest one), else 0.
func (c *client) ollamaLoaded(ctx context.Context, model string) int {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if !c.do(ctx, http.MethodGet, "/api/ps", nil, &ps) {
		return 0
	}
	for _, m := range ps.Models {
		for _, name := range []string{m.Name, m.Model} {
			if name == model || name == model+":latest" {
				return m.ContextLength
			}
		}
	}
	return 0
}

// numCtx finds "num_ctx N" in Ollama's parameters text.
func numCtx(params string) int {
	for _, line := range strings.Split(params, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			var n int
			if json.Unmarshal([]byte(f[1]), &n) == nil {
				return n
			}
		}
	}
	return 0
}

// trainedContext is model_info's "<arch>.context_length".
func trainedContext(info map[string]any) int {
	for k, v := range info {
		if strings.HasSuffix(k, ".context_length") {
			if f, ok := v.(float64); ok {
				return int(f)
			}
		}
	}
	return 0
}
