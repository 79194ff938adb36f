package gittest

import (
	"encoding/pem"
	"log"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Server serves bare repositories over HTTPS on loopback with the git
// binary's smart HTTP backend. The git binary runs only here, on the server
// side of tests.
type Server struct {
	// URL is the server's base, https://127.0.0.1:port; repository name is
	// served at URL + "/" + name + ".git".
	URL string
	// CAFile is a PEM file holding the server's self-signed certificate,
	// for SSL_CERT_FILE or GIT_SSL_CAINFO in child processes.
	CAFile string
	// Client trusts the server's certificate.
	Client *http.Client

	t        testing.TB
	root     string
	gitPath  string
	requests atomic.Int64

	mu           sync.Mutex
	authRequired map[string]bool
	exactWants   bool
}

// Serve starts an HTTPS server for repos, keyed by name, and stops it when
// the test ends. The server lets clients fetch any reachable commit by hash
// (uploadpack.allowAnySHA1InWant) until RefuseUnadvertisedWants is called.
func Serve(t testing.TB, repos map[string]*Repo) *Server {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("git binary needed to serve test repositories: %v", err)
	}
	s := &Server{
		t:            t,
		root:         t.TempDir(),
		gitPath:      gitPath,
		authRequired: map[string]bool{},
		exactWants:   true,
	}
	for name, repo := range repos {
		if err := os.Symlink(repo.Dir, filepath.Join(s.root, name+".git")); err != nil {
			t.Fatalf("expose repository %s: %v", name, err)
		}
	}
	srv := httptest.NewTLSServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	s.Client = srv.Client()
	s.CAFile = writeCA(t, srv)
	return s
}

func writeCA(t testing.TB, srv *httptest.Server) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "ca.pem")
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(file, block, 0o600); err != nil {
		t.Fatalf("write CA file: %v", err)
	}
	return file
}

// RequireAuth makes repository name answer 401 Unauthorized, as a private
// repository does to an anonymous client.
func (s *Server) RequireAuth(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.authRequired[name] = true
}

// RefuseUnadvertisedWants makes the server accept only advertised ref tips
// in fetch requests, as many hosts do, so fetching a commit by hash must
// fall back to downloading history.
func (s *Server) RefuseUnadvertisedWants() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exactWants = false
}

// Requests reports how many HTTP requests the server has received.
func (s *Server) Requests() int {
	return int(s.requests.Load())
}

func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	s.requests.Add(1)
	name, _, ok := strings.Cut(strings.TrimPrefix(req.URL.Path, "/"), ".git/")
	if !ok {
		http.NotFound(w, req)
		return
	}
	s.mu.Lock()
	needAuth, exactWants := s.authRequired[name], s.exactWants
	s.mu.Unlock()
	if needAuth {
		w.Header().Set("WWW-Authenticate", `Basic realm="gittest"`)
		http.Error(w, "authentication required", http.StatusUnauthorized)
		return
	}
	s.backend(exactWants).ServeHTTP(w, req)
}

// backend runs `git http-backend` isolated from the user's and the system's
// git configuration; a repository that does not exist under root answers 404.
func (s *Server) backend(exactWants bool) *cgi.Handler {
	logw := testLogWriter{s.t}
	return &cgi.Handler{
		Path: s.gitPath,
		Args: []string{"http-backend"},
		Dir:  s.root,
		Env: []string{
			"GIT_PROJECT_ROOT=" + s.root,
			"GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL=" + os.DevNull,
			"HOME=" + s.root,
			"GIT_CONFIG_COUNT=1",
			"GIT_CONFIG_KEY_0=uploadpack.allowAnySHA1InWant",
			"GIT_CONFIG_VALUE_0=" + boolString(exactWants),
		},
		Stderr: logw,
		Logger: log.New(logw, "cgi: ", 0),
	}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// testLogWriter sends the backend's diagnostics to the test log, so a
// failing test shows why the server refused a request.
type testLogWriter struct{ t testing.TB }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Logf("git http-backend: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
