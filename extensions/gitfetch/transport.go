package gitfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// go-git v5 picks a transport per URL scheme from a process-wide table
// (client.Protocols) and has no per-call HTTP client option, so per-call
// settings cannot be handed to it directly, and swapping the table entry
// around each call would race with concurrent fetches (the table is an
// unguarded map). Instead one meteredTransport is installed, once, at
// package initialisation, before any goroutine can be reading the table.
// go-git passes the caller's context into every HTTP request it makes, so
// the transport finds the current call there: its base RoundTripper (from
// WithHTTPClient), its wire-byte counter and limit, and its progress
// reporter. Requests without a call in their context (other go-git users in
// the process) go to http.DefaultTransport exactly as with go-git's default,
// except that go-git's own per-call TLS and proxy options (InsecureSkipTLS,
// CABundle, ClientCert, ProxyOptions) need an *http.Transport there and
// fail; nothing in AgentDesk uses them, and http.DefaultTransport already
// honours SSL_CERT_FILE and HTTPS_PROXY.
func init() {
	client.InstallProtocol("https", githttp.NewClient(&http.Client{Transport: meteredTransport{}}))
}

type callKey struct{}

// call is the state of one Fetch or Resolve.
type call struct {
	ctx      context.Context
	url      string
	host     string
	limits   Limits
	base     http.RoundTripper
	progress *reporter

	wireBytes atomic.Int64
	overLimit atomic.Bool
}

func newCall(ctx context.Context, rawURL, host string, o options) *call {
	c := &call{
		url:      rawURL,
		host:     host,
		limits:   o.limits,
		base:     o.transport(),
		progress: newReporter(o.progress),
	}
	c.ctx = context.WithValue(ctx, callKey{}, c)
	return c
}

// fail turns err into the error Fetch returns, preferring the reasons that
// explain it best: the caller's cancellation, then the wire limit (go-git
// may report the aborted read as a generic decode error), then whatever
// network or protocol failure it was.
func (c *call) fail(err error) error {
	if ctxErr := c.ctx.Err(); ctxErr != nil {
		return fmt.Errorf("fetch %s: %w", c.url, ctxErr)
	}
	if c.overLimit.Load() {
		return c.wireLimitError()
	}
	if errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("fetch %s: %w", c.url, err)
	}
	return classify(err, c.url, c.host)
}

func (c *call) wireLimitError() error {
	return newError(ErrTooLarge, nil, "%s: download exceeds the %d-byte limit", c.url, c.limits.WireBytes)
}

// countBytes records n received bytes and reports whether the call is
// still within its wire limit.
func (c *call) countBytes(n int) bool {
	total := c.wireBytes.Add(int64(n))
	c.progress.update(func(p *Progress) { p.Bytes = total })
	if total > c.limits.WireBytes {
		c.overLimit.Store(true)
		return false
	}
	return true
}

type meteredTransport struct{}

func (meteredTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c, _ := req.Context().Value(callKey{}).(*call)
	if c == nil {
		return http.DefaultTransport.RoundTrip(req)
	}
	resp, err := c.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/git-upload-pack") {
		c.progress.enter(PhaseReceiving, 0)
	}
	resp.Body = &meteredBody{ReadCloser: resp.Body, call: c}
	return resp, nil
}

// meteredBody counts response bytes against the call's wire limit and
// fails the read that crosses it, which aborts go-git's pack decoding.
type meteredBody struct {
	io.ReadCloser
	call *call
}

func (b *meteredBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && !b.call.countBytes(n) {
		return n, b.call.wireLimitError()
	}
	return n, err
}
