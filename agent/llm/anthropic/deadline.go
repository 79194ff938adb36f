package anthropic

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Transport limits beside the configured connect timeout.
const (
	tcpKeepAlive    = 30 * time.Second
	idleConnTimeout = 90 * time.Second
)

// newHTTPClient bounds dialing and the TLS handshake by connect and
// nothing else: how long a call may take is the watchdog's business.
func newHTTPClient(connect time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: connect, KeepAlive: tcpKeepAlive}
	return &http.Client{Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         dialer.DialContext,
		TLSHandshakeTimeout: connect,
		IdleConnTimeout:     idleConnTimeout,
		ForceAttemptHTTP2:   true,
	}}
}

// watchdog enforces the deadlines of one streamed call: firstByte until
// the first chunk arrives (a local server may spend minutes loading the
// model and reading the prompt), then idle between chunks. The SDK's
// request timeout cannot express this: it bounds the whole call, and a
// long answer may rightly stream for longer than any fixed bound.
type watchdog struct {
	ctx    context.Context // the call's context, cancelled when a deadline passes
	cancel context.CancelCauseFunc
	timer  *time.Timer
	idle   time.Duration

	streaming atomic.Bool // a chunk has arrived
	// The causes the call is cancelled with, compared by identity.
	noResponse, silence error
}

func watch(parent context.Context, firstByte, idle time.Duration) *watchdog {
	ctx, cancel := context.WithCancelCause(parent)
	w := &watchdog{
		ctx:        ctx,
		cancel:     cancel,
		idle:       idle,
		noResponse: fmt.Errorf("no response within %v", firstByte),
		silence:    fmt.Errorf("no data for %v", idle),
	}
	w.timer = time.AfterFunc(firstByte, w.expire)
	return w
}

func (w *watchdog) expire() {
	if w.streaming.Load() {
		w.cancel(w.silence)
		return
	}
	w.cancel(w.noResponse)
}

// alive records a chunk and restarts the idle deadline.
func (w *watchdog) alive() {
	w.streaming.Store(true)
	w.timer.Reset(w.idle)
}

// stop ends the watch and releases the call's context.
func (w *watchdog) stop() {
	w.timer.Stop()
	w.cancel(context.Canceled)
}

// expired returns the deadline that cancelled the call, or nil.
func (w *watchdog) expired() error {
	if w == nil {
		return nil
	}
	switch cause := context.Cause(w.ctx); cause {
	case w.noResponse, w.silence:
		return cause
	}
	return nil
}
