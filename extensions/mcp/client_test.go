package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.MaybeServe()
	os.Exit(m.Run())
}

// stdioSpec runs this test binary as the fixture server, confined, its
// working directory standing in for its data folder (writable).
func stdioSpec(t *testing.T, env ...string) Spec {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	return Spec{Name: "fixture", Type: Stdio, Path: exe, Argv: []string{exe}, Dir: dir,
		Env: append([]string{mcptest.ServeEnv + "=1"}, env...), Sandbox: childproc.Sandbox{Write: []string{dir}}}
}

func connect(t *testing.T, s Spec) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := Connect(ctx, s)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func toolNamed(t *testing.T, tools []Tool, name string) Tool {
	t.Helper()
	for _, x := range tools {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("no tool %q in %+v", name, tools)
	return Tool{}
}

func TestStdioListCallAndEnvironment(t *testing.T) {
	c := connect(t, stdioSpec(t, "DECLARED=yes"))
	tools, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if b := toolNamed(t, tools, "broken"); b.Problem == "" || !strings.Contains(b.Problem, "does not resolve") {
		t.Errorf("broken schema accepted: %+v", b)
	}
	if e := toolNamed(t, tools, "env"); !e.ReadOnly || e.Problem != "" {
		t.Errorf("env tool = %+v, want read-only hint, valid schema", e)
	}
	out, isErr, err := c.Call(context.Background(), "echo", json.RawMessage(`{"text":"hello"}`), 0)
	if err != nil || isErr || out != "hello" {
		t.Fatalf("echo = %q, %v, %v", out, isErr, err)
	}
	out, _, err = c.Call(context.Background(), "env", json.RawMessage(`{}`), 0)
	if err != nil || !strings.Contains(out, "DECLARED=yes") || strings.Contains(out, "PATH=") {
		t.Errorf("the server's environment is not exactly what it was given: %q, %v", out, err)
	}
	if c.Pid() == 0 || !strings.Contains(c.Stderr(), "fixture MCP server starting") {
		t.Errorf("pid %d, stderr %q", c.Pid(), c.Stderr())
	}
}

func TestStdioResultsRenderedAndBounded(t *testing.T) {
	c := connect(t, stdioSpec(t))
	out, _, err := c.Call(context.Background(), "big", json.RawMessage(`{"n":5000}`), 1000)
	if err != nil || !strings.Contains(out, "[result cut: 1000 of 5000 bytes shown]") || len(out) > 1100 {
		t.Errorf("oversize result: %d bytes, %v: %.80q", len(out), err, out)
	}
	out, _, err = c.Call(context.Background(), "picture", json.RawMessage(`{}`), 0)
	for _, want := range []string{"[image image/png, 8 bytes: not shown to the model]", "[resource link file:///tmp/x.txt (x.txt)]", `structured content: {"ok":true}`} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("picture result %q lacks %q (%v)", out, want, err)
		}
	}
}

func TestStdioCancelSendsCancelled(t *testing.T) {
	spec := stdioSpec(t)
	mark := filepath.Join(spec.Dir, "mark")
	spec.Env = append(spec.Env, mcptest.MarkEnv+"="+mark)
	c := connect(t, spec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := c.Call(ctx, "slow", json.RawMessage(`{}`), 0)
		done <- err
	}()
	mcptest.WaitMark(t, mark, "started")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call returned %v", err)
	}
	mcptest.WaitMark(t, mark, "cancelled") // the server got notifications/cancelled
}

func TestStdioCrashMidCall(t *testing.T) {
	c := connect(t, stdioSpec(t))
	_, isErr, err := c.Call(context.Background(), "crash", json.RawMessage(`{}`), 0)
	if err == nil || !isErr {
		t.Fatalf("crash mid-call: %v", err)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a crashed server is not noticed")
	}
	if c.Err() == nil || !strings.Contains(c.Stderr(), "fixture crashing on purpose") {
		t.Errorf("err %v, stderr %q", c.Err(), c.Stderr())
	}
}

func TestListChangedNotified(t *testing.T) {
	changed := make(chan struct{}, 1)
	s := stdioSpec(t)
	s.OnToolsChanged = func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	c := connect(t, s)
	if _, _, err := c.Call(context.Background(), "grow", json.RawMessage(`{}`), 0); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed")
	}
	tools, _ := c.Tools(context.Background())
	toolNamed(t, tools, "late")
}

func httpFixture(t *testing.T, wrap func(http.Handler) http.Handler) *httptest.Server {
	srv := mcptest.NewServer()
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	if wrap != nil {
		h = wrap(h)
	}
	ts := httptest.NewTLSServer(h)
	t.Cleanup(ts.Close)
	return ts
}

func TestStreamableHTTPWithHeaders(t *testing.T) {
	ts := httpFixture(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer k" {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"`)
				http.Error(w, "no", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	c := connect(t, Spec{Name: "remote", Type: HTTP, URL: ts.URL, HTTPClient: ts.Client(), Headers: map[string]string{"Authorization": "Bearer k"}})
	out, _, err := c.Call(context.Background(), "echo", json.RawMessage(`{"text":"over http"}`), 0)
	if err != nil || out != "over http" {
		t.Fatalf("echo over http = %q, %v", out, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = Connect(ctx, Spec{Name: "remote", Type: HTTP, URL: ts.URL, HTTPClient: ts.Client()})
	if !errors.Is(err, ErrNeedsSignIn) {
		t.Fatalf("401 without token: %v, want ErrNeedsSignIn", err)
	}
}

func TestRemoteTLSIsVerified(t *testing.T) {
	ts := httpFixture(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Connect(ctx, Spec{Name: "remote", Type: HTTP, URL: ts.URL}) // system roots: the test CA is unknown
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("untrusted certificate accepted: %v", err)
	}
}

func TestOAuthSignInRefreshAndHeadless(t *testing.T) {
	o := mcptest.NewOAuthServer(t)
	if _, err := SignIn(t.Context(), SignInSpec{URL: o.MCPURL, HTTPClient: o.Client()}); !errors.Is(err, ErrNoBrowser) {
		t.Fatalf("headless sign-in: %v", err)
	}
	creds, err := SignIn(t.Context(), SignInSpec{URL: o.MCPURL, HTTPClient: o.Client(), OpenBrowser: o.Browser})
	if err != nil {
		t.Fatal(err)
	}
	if creds.ClientID != "registered-client" || creds.Token.RefreshToken == "" || len(o.Challenges) != 1 || o.Challenges[0] != "S256" {
		t.Fatalf("credentials %+v, PKCE methods %q", creds, o.Challenges)
	}
	var kept *Credentials
	creds.Token.Expiry = time.Now().Add(-time.Minute) // as it is the next day
	c := connect(t, Spec{Name: "remote", Type: HTTP, URL: o.MCPURL, HTTPClient: o.Client(), Credentials: creds,
		OnToken: func(c *Credentials) { kept = c }})
	out, _, err := c.Call(t.Context(), "echo", json.RawMessage(`{"text":"signed in"}`), 0)
	if err != nil || out != "signed in" {
		t.Fatalf("echo after sign-in = %q, %v", out, err)
	}
	if o.Refreshes == 0 || kept == nil || kept.Token.AccessToken == creds.Token.AccessToken {
		t.Errorf("an expired token was not refreshed and kept: refreshes %d, kept %+v", o.Refreshes, kept)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := Connect(ctx, Spec{Name: "remote", Type: HTTP, URL: o.MCPURL, HTTPClient: o.Client()}); !errors.Is(err, ErrNeedsSignIn) {
		t.Errorf("without credentials: %v", err)
	}
}
