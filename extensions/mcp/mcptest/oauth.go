package mcptest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OAuthServer is the fixture MCP server behind OAuth 2.1 on loopback
// HTTPS: its /mcp answers 401 with a resource-metadata challenge until a
// token it issued comes along; it serves the protected-resource and
// authorization-server metadata, dynamic client registration, an
// authorize endpoint that redirects at once (the "browser" needs no
// user), and a token endpoint that also refreshes.
type OAuthServer struct {
	*httptest.Server
	MCPURL string

	mu         sync.Mutex
	issued     map[string]bool
	n          int
	Challenges []string // the PKCE code_challenge_method of each authorize request
	Refreshes  int
}

// NewOAuthServer starts one for the test.
func NewOAuthServer(t testing.TB) *OAuthServer {
	o := &OAuthServer{issued: map[string]bool{}}
	srv := NewServer()
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux := http.NewServeMux()
	o.Server = httptest.NewTLSServer(mux)
	t.Cleanup(o.Close)
	base := o.URL
	o.MCPURL = base + "/mcp"
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		o.mu.Lock()
		ok := o.issued[tok]
		o.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": o.MCPURL, "authorization_servers": []string{base}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}, "authorization_response_iss_parameter_supported": true})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var meta map[string]any
		json.NewDecoder(r.Body).Decode(&meta)
		meta["client_id"] = "registered-client"
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, meta)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		o.mu.Lock()
		o.Challenges = append(o.Challenges, q.Get("code_challenge_method"))
		o.mu.Unlock()
		back, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || q.Get("code_challenge") == "" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		v := url.Values{"code": {"the-code"}, "state": {q.Get("state")}, "iss": {base}}
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		if r.Form.Get("grant_type") == "refresh_token" {
			o.mu.Lock()
			o.Refreshes++
			o.mu.Unlock()
		} else if r.Form.Get("code") != "the-code" || r.Form.Get("code_verifier") == "" {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		o.mu.Lock()
		o.n++
		tok := fmt.Sprintf("token-%d", o.n)
		o.issued[tok] = true
		o.mu.Unlock()
		writeJSON(w, map[string]any{"access_token": tok, "token_type": "Bearer", "refresh_token": "refresh-" + tok, "expires_in": 3600})
	})
	return o
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// Browser follows the authorization URL the way a browser would: the
// authorize endpoint redirects to AgentDesk's loopback callback.
func (o *OAuthServer) Browser(authURL string) error {
	client := o.Client()
	resp, err := client.Get(authURL)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the callback answered %s", resp.Status)
	}
	return nil
}
