package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

// MaxStderr is how much of a server's stderr is kept (its first and its
// last bytes), for the card and a failed start's message.
const MaxStderr = 8 << 10

// DefaultShutdownTimeout bounds shutdown/exit when the declaration sets
// none; then the process group is ended.
const DefaultShutdownTimeout = 3 * time.Second

// writeTimeout bounds one message written to a server that stopped
// reading its stdin, so a hung server cannot hold a tool call.
const writeTimeout = 10 * time.Second

// Spec is one language server to start.
type Spec struct {
	Path    string   // the program, looked up already
	Argv    []string // including Argv[0]
	Dir     string
	Env     []string // its whole environment
	Owner   string   // the extension id, for childproc
	Sandbox childproc.Sandbox
	// Root is the workspace folder: rootUri and the only workspace folder.
	Root        string
	InitOptions json.RawMessage
	Settings    json.RawMessage
	// ShutdownTimeout bounds shutdown and exit; 0 → DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
}

// Server is a running language server: the process (in its own group,
// confined) and the client over its stdio.
type Server struct {
	*Client
	spec   Spec
	proc   *childproc.Process
	stop   context.CancelFunc
	stderr *childproc.SyncHeadTail
	in     *os.File

	exited chan struct{} // closed when the process is gone
	mu     sync.Mutex
	err    error // why it ended
	closed bool
}

// Start starts the server through childproc and initializes it, within
// ctx. On failure the process is ended and the error carries the end of
// its stderr.
func Start(ctx context.Context, s Spec) (*Server, error) {
	life, stop := context.WithCancel(context.Background())
	srv := &Server{spec: s, stop: stop, stderr: childproc.NewSyncHeadTail(MaxStderr), exited: make(chan struct{})}
	proc, in, outR, err := childproc.StartPiped(life, childproc.Spec{Path: s.Path, Args: s.Argv, Dir: s.Dir, Env: s.Env,
		Stderr: srv.stderr, Owner: s.Owner, Sandbox: s.Sandbox})
	if err != nil {
		stop()
		return nil, fmt.Errorf("start %s: %w", s.Path, err)
	}
	srv.proc, srv.in = proc, in
	go func() {
		err := srv.proc.Wait()
		srv.proc.Stop() // what it left running goes with it
		srv.mu.Lock()
		if srv.err == nil && !srv.closed {
			srv.err = exitError(err)
		}
		srv.mu.Unlock()
		outR.Close()
		close(srv.exited)
	}()
	srv.Client = NewClient(outR, deadlineWriter{srv.in}, s.Settings)
	if err := srv.Client.Initialize(ctx, s.Root, s.InitOptions); err != nil {
		select { // a server that exits at once says why by its status
		case <-srv.exited:
		case <-time.After(200 * time.Millisecond):
		}
		srv.kill()
		if e := srv.Err(); e != nil && !errors.Is(err, context.DeadlineExceeded) {
			err = e
		}
		return nil, &StartError{Err: fmt.Errorf("initialize: %w", err), Stderr: srv.Stderr()}
	}
	return srv, nil
}

// StartError is a failed start and the end of the server's stderr.
type StartError struct {
	Err    error
	Stderr string
}

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

func exitError(err error) error {
	if err == nil {
		return errors.New("the server exited")
	}
	return fmt.Errorf("the server exited: %w", err)
}

// Done is closed when the process has ended.
func (s *Server) Done() <-chan struct{} { return s.exited }

// Err is why it ended (nil while it runs or when Close ended it).
func (s *Server) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Stderr is the kept part of its stderr.
func (s *Server) Stderr() string { return s.stderr.String() }

// Pid is its process id (its group's).
func (s *Server) Pid() int { return s.proc.Pid() }

// Close asks the server to shut down (shutdown, then exit) within its
// shutdown timeout, then ends its process group whatever it did, and
// returns once it is gone.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.exited
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	timeout := s.spec.ShutdownTimeout
	if timeout <= 0 {
		timeout = DefaultShutdownTimeout
	}
	deadline := time.Now().Add(timeout)
	select {
	case <-s.exited:
	default:
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		s.Client.Shutdown(ctx)
		cancel()
		select {
		case <-s.exited:
		case <-time.After(max(time.Until(deadline), 100*time.Millisecond)):
		}
	}
	s.kill()
	return nil
}

// kill ends the process group and waits for it.
func (s *Server) kill() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.stop()
	s.in.Close()
	<-s.exited
}

// deadlineWriter bounds each write to the server's stdin.
type deadlineWriter struct{ f *os.File }

func (w deadlineWriter) Write(p []byte) (int, error) {
	w.f.SetWriteDeadline(time.Now().Add(writeTimeout)) // pipes are pollable where it matters; else ignored
	return w.f.Write(p)
}
