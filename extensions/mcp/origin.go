package mcp

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects bounds the redirects of one request (browsers stop at 20,
// curl at 50; a server that needs more than a few is misconfigured).
const maxRedirects = 5

// ErrResponseTooLarge: a remote server's response (one JSON body, or one
// event of a stream) is larger than maxLine, the bound a stdio frame has.
var ErrResponseTooLarge = fmt.Errorf("the server's response is larger than %d MiB", maxLine>>20)

// CheckURL checks a remote server's URL as it will be reached, after
// every variable is expanded: https, or http to this computer only (a
// literal loopback address or localhost), with no user info in it.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("URL %q is not a valid URL", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("URL %q: a user name or password in the URL is not allowed (declare a header)", raw)
	}
	switch {
	case u.Scheme == "https":
		return u, nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return u, nil
	}
	return nil, fmt.Errorf("URL %q: only https (or http to this computer) is allowed", raw)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// origin is a URL's scheme, host and port, the port made explicit.
type origin struct{ scheme, host, port string }

func originOf(u *url.URL) origin {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: port}
}

func (o origin) String() string { return o.scheme + "://" + net.JoinHostPort(o.host, o.port) }

// checkRedirect allows a redirect only within the declared origin (same
// scheme, host and port: never https to http, never another host) and at
// most maxRedirects of them, so the declared headers and tokens, which
// are set on every request, never reach anyone else.
func (o origin) checkRedirect(req *http.Request, via []*http.Request) error {
	from := via[len(via)-1].URL
	if originOf(req.URL) != o {
		return fmt.Errorf("refused the redirect from %s to %s: a server may redirect only within %s", from.Redacted(), req.URL.Redacted(), o)
	}
	if len(via) > maxRedirects {
		return fmt.Errorf("refused the redirect from %s to %s: more than %d redirects", from.Redacted(), req.URL.Redacted(), maxRedirects)
	}
	return nil
}

// originTransport sends requests only to the declared origin (a legacy
// SSE server's endpoint event, like a redirect, could name another),
// sets the declared headers on them, and bounds what a JSON response's
// body may hold.
type originTransport struct {
	base    http.RoundTripper
	origin  origin
	headers map[string]string
}

func (t originTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if originOf(req.URL) != t.origin {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("refused a request to %s: this server was declared at %s", req.URL.Redacted(), t.origin)
	}
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			if strings.TrimSpace(v) != "" && req.Header.Get(k) == "" {
				req.Header.Set(k, v)
			}
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// A stream's events are bounded one by one (MaxEventSize); any
		// other body is one message.
		resp.Body = &boundedBody{rc: resp.Body, left: maxLine}
	}
	return resp, nil
}

// boundedBody reads at most left bytes, then fails with
// ErrResponseTooLarge rather than returning a cut message.
type boundedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One more byte tells a body of exactly the bound from a larger one.
		var one [1]byte
		for {
			n, err := b.rc.Read(one[:])
			if n > 0 {
				return 0, ErrResponseTooLarge
			}
			if err != nil {
				return 0, err
			}
		}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }
