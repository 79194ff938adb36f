package mcp

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"
)

// signIn is the OAuth handler of a remote server: it sends a stored
// access token if there is one, and turns a 401 or 403 into
// ErrNeedsSignIn, so the card can offer "Sign in" and a headless run can
// say which server needs it. It never opens a browser itself.
type signIn struct {
	token func() string
}

func (s *signIn) TokenSource(context.Context) (oauth2.TokenSource, error) {
	if s.token == nil {
		return nil, nil
	}
	tok := s.token()
	if tok == "" {
		return nil, nil
	}
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok, TokenType: "Bearer"}), nil
}

func (s *signIn) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	return ErrNeedsSignIn
}
