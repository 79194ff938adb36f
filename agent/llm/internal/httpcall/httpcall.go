// Package httpcall holds what both providers need around their SDKs for
// one HTTP call: a client whose only deadline is the connect timeout, the
// watchdog for first-byte and idle deadlines of a streamed call (fed by
// every byte of the body, SSE comments included), and the helpers that
// word transport errors.
package httpcall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Transport limits beside the configured connect timeout.
const (
	tcpKeepAlive    = 30 * time.Second
	idleConnTimeout = 90 * time.Second
)

// NewHTTPClient bounds dialing and the TLS handshake by connect and
// nothing else: how long a call may take is the watchdog's business.
func NewHTTPClient(connect time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: connect, KeepAlive: tcpKeepAlive}
	return &http.Client{Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         dialer.DialContext,
		TLSHandshakeTimeout: connect,
		IdleConnTimeout:     idleConnTimeout,
		ForceAttemptHTTP2:   true,
	}}
}

// Watchdog enforces the deadlines of one streamed call: firstByte until
// the first byte of the body arrives (a local server may spend minutes
// loading the model), then idle between bytes. Any byte counts, SSE
// comments included: ds4-server sends ": prefill" every few seconds while
// it reads a long prompt, which can take many minutes on a laptop, and
// such a call is alive, not stuck. The SDK's request timeout cannot
// express this: it bounds the whole call, and a long answer may rightly
// stream for longer than any fixed bound.
type Watchdog struct {
	ctx    context.Context // the call's context, cancelled when a deadline passes
	cancel context.CancelCauseFunc
	timer  *time.Timer
	idle   time.Duration

	heard     atomic.Bool // a byte of the body has arrived
	streaming atomic.Bool // a decoded chunk has arrived
	// The causes the call is cancelled with, compared by identity.
	noResponse, silence error
}

// Watch starts the deadlines of one call.
func Watch(parent context.Context, firstByte, idle time.Duration) *Watchdog {
	ctx, cancel := context.WithCancelCause(parent)
	w := &Watchdog{
		ctx:        ctx,
		cancel:     cancel,
		idle:       idle,
		noResponse: fmt.Errorf("no response within %v", firstByte),
		silence:    fmt.Errorf("no data for %v", idle),
	}
	w.timer = time.AfterFunc(firstByte, w.expire)
	return w
}

func (w *Watchdog) expire() {
	if w.heard.Load() {
		w.cancel(w.silence)
		return
	}
	w.cancel(w.noResponse)
}

// Context is the call's context: pass it to the SDK.
func (w *Watchdog) Context() context.Context { return w.ctx }

// Alive records a decoded chunk: the answer has begun.
func (w *Watchdog) Alive() {
	w.streaming.Store(true)
	w.bytes()
}

// bytes records that the server sent something and restarts the idle
// deadline.
func (w *Watchdog) bytes() {
	w.heard.Store(true)
	w.timer.Reset(w.idle)
}

// Streaming reports whether a decoded chunk has arrived.
func (w *Watchdog) Streaming() bool { return w.streaming.Load() }

// Middleware is an SDK middleware (the same signature in both SDKs) that
// feeds the watchdog with every read of the response body. onWaiting, if
// set, is called on each read that arrives before the first decoded chunk
// (keepalives during a prefill); the SDKs read the body on the goroutine
// that iterates the stream, so it runs there.
func (w *Watchdog) Middleware(onWaiting func()) func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	return func(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
		res, err := next(req)
		if err == nil && res.Body != nil {
			res.Body = &liveBody{ReadCloser: res.Body, dog: w, onWaiting: onWaiting}
		}
		return res, err
	}
}

// liveBody is a response body that tells its watchdog about every byte.
type liveBody struct {
	io.ReadCloser
	dog       *Watchdog
	onWaiting func()
}

func (b *liveBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.dog.bytes()
		if b.onWaiting != nil && !b.dog.Streaming() {
			b.onWaiting()
		}
	}
	return n, err
}

// Stop ends the watch and releases the call's context.
func (w *Watchdog) Stop() {
	w.timer.Stop()
	w.cancel(context.Canceled)
}

// Expired returns the deadline that cancelled the call, or nil, and
// whether it passed before the server sent anything at all.
func (w *Watchdog) Expired() (cause error, beforeFirstByte bool) {
	if w == nil {
		return nil, false
	}
	switch cause := context.Cause(w.ctx); cause {
	case w.noResponse, w.silence:
		return cause, cause == w.noResponse
	}
	return nil, false
}

// Unreachable reports failures to connect: refused, no route, DNS, or no
// answer within the connect timeout.
func Unreachable(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// overflowPhrases are the words by which servers say a request does not
// fit the context window, on either wire format:
//   - OpenAI: code context_length_exceeded, "This model's maximum context
//     length is N tokens" (DeepSeek, vLLM and OpenRouter word it alike);
//   - ds4-server, both endpoints: "Prompt has N tokens, but the configured
//     context size is M tokens" (code context_length_exceeded on
//     /v1/chat/completions only);
//   - llama.cpp: "request (N tokens) exceeds the available context size
//     (M tokens)", type exceed_context_size_error;
//   - Ollama: "the input length exceeds the context length";
//   - Anthropic: "prompt is too long: N tokens > M maximum", "input length
//     and `max_tokens` exceed context limit";
//   - proxies: "too many tokens", "input is too long".
var overflowPhrases = []string{
	"context length", "context_length", "context size", "context window", "context limit",
	"maximum context", "exceeds the context", "exceed_context", "too many tokens",
	"prompt is too long", "input is too long",
}

// IsOverflow reports whether an error text (message, code and type) says
// the request does not fit the model's context window.
func IsOverflow(text string) bool { return ContainsAny(strings.ToLower(text), overflowPhrases) }

// ContainsAny reports whether s contains one of phrases.
func ContainsAny(s string, phrases []string) bool {
	for _, p := range phrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// MaxDetail bounds a server message quoted to the user.
const MaxDetail = 500

// Clip trims s to one readable line of at most MaxDetail bytes.
func Clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= MaxDetail {
		return s
	}
	cut := MaxDetail
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
