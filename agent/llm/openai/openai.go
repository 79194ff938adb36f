// Package openai streams model calls over the OpenAI Chat Completions API,
// the dialect of OpenAI and of the servers that copy it: ds4-server,
// llama.cpp, Ollama, vLLM, DeepSeek and OpenRouter. The official SDK does
// the transport and the decoding; this package adds what those servers
// need beyond it: reasoning_content, tolerant tool-call assembly, error
// bodies of every shape, and deadlines per chunk instead of per call.
package openai

import (
	"cmp"
	"context"
	"net/http"

	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/internal/httpcall"
)

// Provider is an llm.Provider for one OpenAI-compatible server.
type Provider struct {
	cfg  llm.Config
	chat oa.ChatCompletionService
	// completionTokens selects max_completion_tokens over max_tokens.
	completionTokens bool
	// reasoning is which assistant messages carry reasoning_content.
	reasoning string
}

// New returns a provider for cfg; zero deadlines and limits take the llm
// package defaults.
func New(cfg llm.Config) *Provider {
	cfg = cfg.WithDefaults()
	client := httpcall.NewHTTPClient(cfg.ConnectTimeout)
	return &Provider{
		cfg:              cfg,
		chat:             oa.NewChatCompletionService(clientOptions(cfg.BaseURL, cfg.APIKey, client)...),
		completionTokens: wantsCompletionTokens(cfg.BaseURL),
		reasoning:        reasoningFor(cfg),
	}
}

// clientOptions configures the SDK services. They are built from these
// options alone, not through openai.NewClient, which would add
// OPENAI_API_KEY, OPENAI_BASE_URL and friends from the environment and so
// send a cloud key to whatever local server the user configured. An empty
// key sends no Authorization header, which local servers expect.
func clientOptions(baseURL, apiKey string, client *http.Client) []option.RequestOption {
	return []option.RequestOption{
		option.WithBaseURL(baseURL),
		option.WithAPIKey(apiKey),
		option.WithHTTPClient(client),
		option.WithMaxRetries(0), // the agent loop decides whether to retry
		option.WithMiddleware(statusError),
	}
}

// Stream sends req and streams the answer; see llm.Provider. No byte
// within FirstByteTimeout is ErrTimeout; silence for IdleTimeout once
// bytes flow (keepalive comments count) is ErrStreamCut, as the stream is
// then dead. Keepalives before the answer begins are DeltaWaiting.
func (p *Provider) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	params, err := p.params(req)
	if err != nil {
		return llm.Response{}, err
	}
	dog := httpcall.Watch(ctx, p.cfg.FirstByteTimeout, p.cfg.IdleTimeout)
	defer dog.Stop()
	at := &attempt{url: p.cfg.BaseURL, model: params.Model, dog: dog}
	waiting := func() { onDelta(llm.Delta{Kind: llm.DeltaWaiting}) }
	stream := p.chat.NewStreaming(dog.Context(), params, option.WithResponseInto(&at.resp),
		option.WithMiddleware(dog.Middleware(waiting)))
	defer stream.Close()

	var acc assembler
	for stream.Next() {
		dog.Alive()
		acc.add(stream.Current(), onDelta)
	}
	// Trouble after the finish reason (a missing [DONE], a dropped usage
	// chunk) does not spoil a complete answer; cancellation still wins.
	if err := stream.Err(); err != nil && (!acc.finished() || ctx.Err() != nil) {
		return llm.Response{}, at.fail(ctx, err)
	}
	if !acc.finished() {
		return llm.Response{}, at.newError(llm.ErrStreamCut, "the stream ended without a finish reason", nil)
	}
	return acc.response(), nil
}

// model is the request's model, or the configured one.
func (p *Provider) model(req llm.Request) string { return cmp.Or(req.Model, p.cfg.Model) }

// ListModels returns the ids the server at baseURL lists under /models.
// It is meant for quick probes: bound it with ctx.
func ListModels(ctx context.Context, baseURL, apiKey string) ([]string, error) {
	client := httpcall.NewHTTPClient(llm.DefaultConnectTimeout)
	defer client.CloseIdleConnections()
	models := oa.NewModelService(clientOptions(baseURL, apiKey, client)...)
	page, err := models.List(ctx)
	if err != nil {
		return nil, (&attempt{url: baseURL}).fail(ctx, err)
	}
	ids := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}
