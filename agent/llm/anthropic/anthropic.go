// Package anthropic streams model calls over Anthropic's Messages API,
// with tool use and thinking blocks. The official SDK does the transport,
// the decoding and the assembly of streamed blocks; this package converts
// the neutral conversation to the API's strict shape and maps failures
// and deadlines to llm.Error.
package anthropic

import (
	"cmp"
	"context"
	"net/http"
	"strconv"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/internal/httpcall"
)

// Provider is an llm.Provider for the Anthropic API or a server speaking it.
type Provider struct {
	cfg      llm.Config
	messages sdk.MessageService
}

// New returns a provider for cfg; zero deadlines and limits take the llm
// package defaults.
func New(cfg llm.Config) *Provider {
	cfg = cfg.WithDefaults()
	client := sdk.NewClient(clientOptions(cfg, httpcall.NewHTTPClient(cfg.ConnectTimeout))...)
	return &Provider{cfg: cfg, messages: client.Messages}
}

// clientOptions configures the SDK. Environment defaults are off: the SDK
// would otherwise pick a key, a base URL or a profile from ANTHROPIC_*
// variables and config files, and the configured provider must be what
// is used. The key travels in x-api-key; the SDK's WithAPIKey sends it as
// a bearer token instead.
func clientOptions(cfg llm.Config, client *http.Client) []option.RequestOption {
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(cfg.BaseURL),
		option.WithHTTPClient(client),
		option.WithMaxRetries(0), // the agent loop decides whether to retry
		option.WithoutOpenTelemetry(),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithHeader("X-Api-Key", cfg.APIKey))
	}
	return opts
}

// Stream sends req and streams the answer; see llm.Provider. No byte
// within FirstByteTimeout is ErrTimeout; silence for IdleTimeout once
// bytes flow (pings and keepalive comments count) is ErrStreamCut.
// Bytes before the answer begins are DeltaWaiting.
func (p *Provider) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	params, err := p.params(req)
	if err != nil {
		return llm.Response{}, err
	}
	dog := httpcall.Watch(ctx, p.cfg.FirstByteTimeout, p.cfg.IdleTimeout)
	defer dog.Stop()
	at := &attempt{url: p.cfg.BaseURL, model: params.Model, dog: dog}
	waiting := func() { onDelta(llm.Delta{Kind: llm.DeltaWaiting}) }
	stream := p.messages.NewStreaming(dog.Context(), params, option.WithResponseInto(&at.resp),
		option.WithMiddleware(dog.Middleware(waiting)))
	defer stream.Close()

	var msg sdk.Message
	stopped := false
	open := openTools{}
	for stream.Next() {
		dog.Alive()
		event := stream.Current()
		emit(event, onDelta)
		open.see(event)
		if err := msg.Accumulate(event); err != nil {
			return llm.Response{}, at.newError(llm.ErrOther, "the server sent a malformed stream", err)
		}
		stopped = stopped || event.Type == "message_stop"
	}
	// Trouble after message_stop does not spoil a complete answer;
	// cancellation still wins.
	if err := stream.Err(); err != nil && (!stopped || ctx.Err() != nil) {
		return llm.Response{}, at.fail(ctx, err)
	}
	if !stopped {
		return llm.Response{}, at.newError(llm.ErrStreamCut, "the stream ended before message_stop", nil)
	}
	if name, ok := open.first(); ok {
		return llm.Response{}, at.newError(llm.ErrGeneration, "the "+strconv.Quote(name)+" tool call was never completed", nil)
	}
	return response(msg), nil
}

// model is the request's model, or the configured one.
func (p *Provider) model(req llm.Request) string { return cmp.Or(req.Model, p.cfg.Model) }

// maxListedModels bounds ListModels; the API lists a few dozen.
const maxListedModels = 1000

// ListModels returns the ids the server lists under /v1/models, newest
// first as the API orders them. Bound it with ctx.
func ListModels(ctx context.Context, cfg llm.Config) ([]string, error) {
	cfg = cfg.WithDefaults()
	client := httpcall.NewHTTPClient(cfg.ConnectTimeout)
	defer client.CloseIdleConnections()
	models := sdk.NewModelService(clientOptions(cfg, client)...)
	pager := models.ListAutoPaging(ctx, sdk.ModelListParams{Limit: sdk.Int(100)})
	var ids []string
	for pager.Next() && len(ids) < maxListedModels {
		ids = append(ids, pager.Current().ID)
	}
	if err := pager.Err(); err != nil {
		return nil, (&attempt{url: cfg.BaseURL}).fail(ctx, err)
	}
	return ids, nil
}
