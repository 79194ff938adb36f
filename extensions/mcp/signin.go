package mcp

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"
)

// needsSignIn is the OAuth handler of a remote server nobody signed in
// to: no token, and a 401 or 403 becomes ErrNeedsSignIn, so the card can
// offer "Sign in" and a headless run can say which server needs it. It
// never opens a browser itself.
type needsSignIn struct{}

func (needsSignIn) TokenSource(context.Context) (oauth2.TokenSource, error) { return nil, nil }

func (needsSignIn) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	return ErrNeedsSignIn
}
