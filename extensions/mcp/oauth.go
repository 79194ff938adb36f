package mcp

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// SignInTimeout bounds a sign-in: the user has this long to finish in
// the browser.
const SignInTimeout = 5 * time.Minute

// Credentials are what a sign-in keeps: the token and how to refresh it.
// They belong in the OS keyring, never in a file of ours or a log.
type Credentials struct {
	ClientID     string
	ClientSecret string `json:",omitempty"`
	AuthURL      string
	TokenURL     string
	RedirectURL  string
	Scopes       []string `json:",omitempty"`
	Token        *oauth2.Token
}

func (c *Credentials) config() *oauth2.Config {
	return &oauth2.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret, RedirectURL: c.RedirectURL, Scopes: c.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: c.AuthURL, TokenURL: c.TokenURL}}
}

// SignInSpec is a remote server to sign in to.
type SignInSpec struct {
	URL        string
	Headers    map[string]string
	HTTPClient *http.Client
	// ClientID is the declaration's oauth.clientId (a client registered
	// with the server); "" registers one dynamically.
	ClientID string
	// CallbackPort is the declaration's oauth.callbackPort; 0 picks one.
	CallbackPort int
	// OpenBrowser shows the authorization page; sign-in fails without it
	// (a headless run never opens a browser).
	OpenBrowser func(url string) error
}

// ErrNoBrowser: sign-in needs a browser and there is none to open.
var ErrNoBrowser = errors.New("signing in needs a browser: sign in from the window (Preferences → Agent Extensions)")

// SignIn runs OAuth 2.1 with PKCE through the SDK: it discovers the
// server's authorization server from its 401, registers AgentDesk (or
// uses the declared client id), opens the browser at the authorization
// page, takes the code on a loopback redirect, and returns the
// credentials once the server accepts the token.
func SignIn(ctx context.Context, s SignInSpec) (*Credentials, error) {
	if s.OpenBrowser == nil {
		return nil, ErrNoBrowser
	}
	ctx, cancel := context.WithTimeout(ctx, SignInTimeout)
	defer cancel()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", s.CallbackPort))
	if err != nil {
		return nil, fmt.Errorf("listen for the sign-in redirect: %w", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://localhost:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	cb := newCallback()
	srv := &http.Server{Handler: cb, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	var creds *Credentials
	var mu sync.Mutex
	cfg := &auth.AuthorizationCodeHandlerConfig{RedirectURL: redirect, RequestRefreshToken: true, Client: s.HTTPClient,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			if err := s.OpenBrowser(args.URL); err != nil {
				return nil, fmt.Errorf("open the browser: %w", err)
			}
			return cb.wait(ctx)
		},
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			mu.Lock()
			creds = &Credentials{ClientID: c.ClientID, ClientSecret: c.ClientSecret, AuthURL: c.Endpoint.AuthURL,
				TokenURL: c.Endpoint.TokenURL, RedirectURL: c.RedirectURL, Scopes: c.Scopes, Token: tok}
			mu.Unlock()
			return c.TokenSource(ctx, tok), nil
		}}
	if s.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: s.ClientID}
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect}, ClientName: "AgentDesk", TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}}}
	}
	handler, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, fmt.Errorf("sign in: %w", err)
	}
	c := &Conn{spec: Spec{URL: s.URL, Headers: s.Headers, HTTPClient: s.HTTPClient}}
	client, err := c.httpClient()
	if err != nil {
		return nil, fmt.Errorf("sign in: %w", err)
	}
	transport := &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: client, MaxRetries: -1, OAuthHandler: handler,
		DisableStandaloneSSE: true, MaxEventSize: maxLine}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "agentdesk", Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("sign in to %s: %w", s.URL, err)
	}
	session.Close()
	mu.Lock()
	defer mu.Unlock()
	if creds == nil {
		return nil, fmt.Errorf("sign in to %s: the server let AgentDesk in without a token", s.URL)
	}
	return creds, nil
}

// storedToken sends the kept token, refreshing it when it expires (onNew
// gets each new one, to keep), and turns a 401 into ErrNeedsSignIn.
type storedToken struct {
	ts oauth2.TokenSource
}

func newStoredToken(c *Credentials, client *http.Client, onNew func(*Credentials)) *storedToken {
	ctx := context.Background()
	if client != nil {
		ctx = context.WithValue(ctx, oauth2.HTTPClient, client)
	}
	ts := c.config().TokenSource(ctx, c.Token)
	return &storedToken{ts: &noticingSource{ts: ts, last: c.Token.AccessToken, onNew: func(tok *oauth2.Token) {
		fresh := *c
		fresh.Token = tok
		if onNew != nil {
			onNew(&fresh)
		}
	}}}
}

func (s *storedToken) TokenSource(context.Context) (oauth2.TokenSource, error) { return s.ts, nil }

func (s *storedToken) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	return ErrNeedsSignIn
}

// noticingSource reports each token different from the last.
type noticingSource struct {
	mu    sync.Mutex
	ts    oauth2.TokenSource
	last  string
	onNew func(*oauth2.Token)
}

func (n *noticingSource) Token() (*oauth2.Token, error) {
	tok, err := n.ts.Token()
	if err != nil {
		return nil, fmt.Errorf("refresh the sign-in: %w", err)
	}
	n.mu.Lock()
	changed := tok.AccessToken != n.last
	n.last = tok.AccessToken
	n.mu.Unlock()
	if changed {
		n.onNew(tok)
	}
	return tok, nil
}

// callback takes the authorization code on the loopback redirect.
type callback struct {
	result chan callbackResult
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

func newCallback() *callback { return &callback{result: make(chan callbackResult, 1)} }

func (cb *callback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/callback" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	var out callbackResult
	if e := q.Get("error"); e != "" {
		out.err = fmt.Errorf("the server refused the sign-in: %s %s", e, q.Get("error_description"))
	} else {
		out.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	}
	select {
	case cb.result <- out:
	default: // a redirect nobody waits for
	}
	msg := "Signed in. You can close this page and go back to AgentDesk."
	if out.err != nil {
		msg = "Sign-in failed: " + out.err.Error()
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><title>AgentDesk</title><p>%s</p>", html.EscapeString(msg))
}

func (cb *callback) wait(ctx context.Context) (*auth.AuthorizationResult, error) {
	select {
	case r := <-cb.result:
		return r.res, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("waited for the browser: %w", ctx.Err())
	}
}
