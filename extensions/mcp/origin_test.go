package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

// recorder is a plain-HTTP MCP server that keeps the headers of every
// request it gets: the attacker's end of a redirect.
type recorder struct {
	mu      sync.Mutex
	headers []http.Header
	srv     *httptest.Server
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	srv := mcptest.NewServer()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.headers = append(r.headers, req.Header.Clone())
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) seen() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.headers...)
}

// redirector answers every request with a 307 to target (the path kept).
func redirector(t *testing.T, target string) *httptest.Server {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ts.Close)
	return ts
}

var secretHeaders = map[string]string{"Authorization": "Bearer s3cret", "X-Api-Key": "k3y"}

func TestRedirectToAnotherOriginIsRefused(t *testing.T) {
	plain := newRecorder(t)
	other := httptest.NewTLSServer(plain.srv.Config.Handler) // https, another port
	t.Cleanup(other.Close)
	for name, target := range map[string]string{
		"https to http":      strings.Replace(plain.srv.URL, "127.0.0.1", "localhost", 1),
		"to another https":   other.URL,
		"to http, same host": plain.srv.URL,
	} {
		t.Run(name, func(t *testing.T) {
			ts := redirector(t, target)
			for _, typ := range []string{HTTP, SSE} {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				c, err := Connect(ctx, Spec{Name: "remote", Type: typ, URL: ts.URL + "/mcp", HTTPClient: ts.Client(), Headers: secretHeaders})
				cancel()
				if err == nil {
					c.Close()
					t.Fatalf("%s: connected through a redirect to %s", typ, target)
				}
				if !strings.Contains(err.Error(), "refused the redirect from "+ts.URL+"/mcp to "+target+"/mcp") {
					t.Errorf("%s: error does not name both URLs: %v", typ, err)
				}
			}
			if got := plain.seen(); len(got) != 0 {
				t.Fatalf("the other origin got %d requests, the first with headers %v", len(got), got[0])
			}
		})
	}
}

func TestRedirectWithinTheOriginKeepsHeaders(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	ts := httpFixture(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/old" {
				http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
				return
			}
			mu.Lock()
			auth = append(auth, r.Header.Get("Authorization"))
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	})
	c := connect(t, Spec{Name: "remote", Type: HTTP, URL: ts.URL + "/old", HTTPClient: ts.Client(), Headers: secretHeaders})
	if out, _, err := c.Call(context.Background(), "echo", json.RawMessage(`{"text":"moved"}`), 0); err != nil || out != "moved" {
		t.Fatalf("echo after a same-origin redirect = %q, %v", out, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auth) == 0 || auth[0] != "Bearer s3cret" {
		t.Errorf("declared header not sent after a same-origin redirect: %q", auth)
	}
}

func TestRedirectLoopIsBounded(t *testing.T) {
	n := 0
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		http.Redirect(w, r, fmt.Sprintf("/r%d", n), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Connect(ctx, Spec{Name: "remote", Type: HTTP, URL: ts.URL, HTTPClient: ts.Client()})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d redirects", maxRedirects)) {
		t.Fatalf("redirect loop: %v", err)
	}
}

// TestExpandedURLIsCheckedAsReached: a URL whose template passes the
// "http only to this computer" rule can expand into plain HTTP to another
// host; what is reached is checked, before anything is dialled.
func TestExpandedURLIsCheckedAsReached(t *testing.T) {
	plain := newRecorder(t)
	var dialled []string
	var mu sync.Mutex
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialled = append(dialled, addr)
		mu.Unlock()
		// Every name resolves to the attacker's server.
		return (&net.Dialer{}).DialContext(ctx, network, plain.srv.Listener.Addr().String())
	}}}
	// The template http://${user_config.account}@localhost:8080/mcp with
	// the plugin's default "attacker.example/#" for account:
	expanded := "http://attacker.example/#@localhost:8080/mcp"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Connect(ctx, Spec{Name: "remote", Type: HTTP, URL: expanded, HTTPClient: client, Headers: secretHeaders})
	if err == nil || !strings.Contains(err.Error(), "only https (or http to this computer)") {
		t.Fatalf("expanded URL %s: %v", expanded, err)
	}
	if len(dialled) != 0 || len(plain.seen()) != 0 {
		t.Fatalf("dialled %v; the other host got %d requests", dialled, len(plain.seen()))
	}
	for _, bad := range []string{"http://user:pw@localhost/mcp", "ftp://localhost/x", "http://10.0.0.1/mcp", "https:///nohost"} {
		if _, err := CheckURL(bad); err == nil {
			t.Errorf("CheckURL(%q) accepted", bad)
		}
	}
	for _, good := range []string{"https://example.com/mcp", "http://localhost:8080/mcp", "http://127.0.0.1/mcp", "http://[::1]:9/mcp"} {
		if _, err := CheckURL(good); err != nil {
			t.Errorf("CheckURL(%q): %v", good, err)
		}
	}
}

// hugeResult answers tools/call with one JSON body holding a text of size
// bytes, written as it goes (never held in memory).
func hugeResult(size int64, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &msg)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if msg.Method != "tools/call" {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, msg.ID)
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for left := size; left > 0; left -= int64(len(chunk)) {
			if _, err := w.Write(chunk[:min(left, int64(len(chunk)))]); err != nil {
				return
			}
		}
		io.WriteString(w, `"}]}}`)
	})
}

// heapPeak samples the live heap until stop is called and returns the
// highest figure seen.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); <-finished; return peak }
}

func TestHugeRemoteResponseIsRefusedWithinBound(t *testing.T) {
	const size = 200 << 20
	ts := httpFixture(t, func(h http.Handler) http.Handler { return hugeResult(size, h) })
	c := connect(t, Spec{Name: "remote", Type: HTTP, URL: ts.URL, HTTPClient: ts.Client()})
	stop := heapPeak()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, _, err := c.Call(ctx, "echo", json.RawMessage(`{"text":"x"}`), 0)
	peak := stop()
	t.Logf("peak live heap while refusing a %d MiB response: %.1f MiB", size>>20, float64(peak)/(1<<20))
	if err == nil {
		t.Fatalf("a %d MiB response was accepted (%d bytes of text)", size>>20, len(out))
	}
	if !strings.Contains(err.Error(), ErrResponseTooLarge.Error()) {
		t.Errorf("error does not say the response is too large: %v", err)
	}
	if peak > 100<<20 {
		t.Errorf("peak live heap %d MiB, want under 100 MiB", peak>>20)
	}
}

func TestBoundedBody(t *testing.T) {
	read := func(n int) error {
		b := &boundedBody{rc: io.NopCloser(strings.NewReader(strings.Repeat("x", n))), left: 10}
		_, err := io.ReadAll(b)
		return err
	}
	if err := read(10); err != nil {
		t.Errorf("a body of exactly the bound: %v", err)
	}
	if err := read(11); !errors.Is(err, ErrResponseTooLarge) {
		t.Errorf("a body one byte over: %v", err)
	}
}
