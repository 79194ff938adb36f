package lsp

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

// realServer finds a real language server for an integration test: the
// file the environment variable env names, the repository's bin/ (where
// the Makefile installs servers; binPath is relative to it), or name on
// PATH. Without one the test is skipped, saying how to install it.
func realServer(t *testing.T, env, binPath, name, install string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := filepath.Abs(filepath.Join("../../bin", binPath)); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	t.Skipf("%s not found: set %s or %s", name, env, install)
	return ""
}

// server is a real language server a test started, with the client over
// its stdio.
type server struct {
	*Client
	proc          *childproc.Process
	exited        chan struct{}
	trace, stderr *lockedBuffer // what the client read, and the server's stderr
}

// startServer starts bin with args in root through agent/childproc, as
// the host starts servers: in its own process group and confined, writing
// only root, home (given as its HOME in env) and the user caches. env is
// its whole environment. The server is stopped when the test ends.
func startServer(t *testing.T, root, home string, env []string, bin string, args ...string) *server {
	t.Helper()
	s := &server{exited: make(chan struct{}), trace: &lockedBuffer{}, stderr: &lockedBuffer{}}
	proc, inW, outR, err := childproc.StartPiped(context.Background(), childproc.Spec{Path: bin, Args: append([]string{bin}, args...), Dir: root, Env: env,
		Stderr: s.stderr, Sandbox: childproc.Sandbox{Write: []string{root, home}}})
	if err != nil {
		t.Fatal(err)
	}
	s.proc = proc
	go func() {
		s.proc.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		s.proc.Stop()
		<-s.exited
	})
	s.Client = NewClient(io.TeeReader(outR, s.trace), inW, nil)
	return s
}

// waitExit reports whether the server exited within d.
func (s *server) waitExit(d time.Duration) bool {
	select {
	case <-s.exited:
		return true
	case <-time.After(d):
		return false
	}
}

// lockedBuffer is a strings.Builder written by one goroutine and read by
// the test's.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// tail is the last 1500 bytes written, for a failure message.
func (l *lockedBuffer) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	if len(s) > 1500 {
		return s[len(s)-1500:]
	}
	return s
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
