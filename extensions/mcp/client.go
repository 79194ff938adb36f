// Package mcp connects to one extension MCP server over the official Go
// SDK (github.com/modelcontextprotocol/go-sdk): a stdio server started as
// a child process through agent/childproc (its own process group, the
// environment it is given and nothing else, stderr kept bounded), or a
// remote server over streamable HTTP or legacy SSE with bounded connects.
// It lists the server's tools, validating each input schema, and calls
// them, rendering results as text for the model.
//
// It knows nothing about manifests, trust or the agent loop: callers hand
// it a Spec with everything expanded.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

// Bounds of a server connection.
const (
	// DefaultStartTimeout bounds a start: process, handshake, first list.
	DefaultStartTimeout = 30 * time.Second
	// DefaultCallTimeout bounds one tool call.
	DefaultCallTimeout = 2 * time.Minute
	// MaxStderr is how much of a stdio server's stderr is kept (its first
	// and last MaxStderr bytes) for diagnostics.
	MaxStderr = 8 << 10
	// connectTimeout bounds a remote server's TCP and TLS setup.
	connectTimeout = 10 * time.Second
	// maxLine bounds one JSON-RPC message from a server: a stdio line, a
	// remote JSON body or one event of a stream.
	maxLine = 8 << 20
)

// Transport types, as declarations name them.
const (
	Stdio = "stdio"
	HTTP  = "http"
	SSE   = "sse"
)

// ErrNeedsSignIn: the remote server answered 401 or 403; the user must
// sign in (OAuth) before it can be used.
var ErrNeedsSignIn = errors.New("needs sign-in")

// Spec is one server to connect to, variables expanded.
type Spec struct {
	Name string
	Type string // Stdio, HTTP or SSE
	// Stdio: Path is the program (absolute, already looked up), Argv its
	// argument vector including argv[0], Dir the working directory, Env
	// the complete environment (nil: empty, never the app's), Owner whom
	// it runs for (an extension id).
	Path  string
	Argv  []string
	Dir   string
	Env   []string
	Owner string
	// Sandbox is what a stdio server may touch; normally its extension's
	// data folder is writable (see childproc.Sandbox).
	Sandbox childproc.Sandbox
	// Remote: URL and extra headers; HTTPClient defaults to one with the
	// system roots and bounded connects (TLS always verified).
	URL        string
	Headers    map[string]string
	HTTPClient *http.Client
	// Credentials are a kept OAuth sign-in (refreshed as needed; OnToken
	// gets each new token to keep); nil: none.
	Credentials *Credentials
	OnToken     func(*Credentials)
	// OnToolsChanged is called (from the SDK's goroutine) when the server
	// sends notifications/tools/list_changed.
	OnToolsChanged func()
}

// Conn is a live session with one server.
type Conn struct {
	spec    Spec
	session *mcp.ClientSession
	proc    *childproc.Process
	stderr  *childproc.SyncHeadTail
	stop    context.CancelFunc
	done    chan struct{}
	reaped  chan struct{} // a stdio server's process has been waited for

	mu     sync.Mutex
	exit   error // why the server ended, once done
	closed bool
}

// Connect starts or reaches the server and completes the MCP handshake
// within ctx. A stdio server lives until Close (or until it exits); ctx
// bounds only the start.
func Connect(ctx context.Context, s Spec) (*Conn, error) {
	c := &Conn{spec: s, done: make(chan struct{}), stderr: childproc.NewSyncHeadTail(MaxStderr)}
	client := mcp.NewClient(&mcp.Implementation{Name: "agentdesk", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			if s.OnToolsChanged != nil {
				s.OnToolsChanged()
			}
		},
	})
	transport, err := c.transport()
	if err != nil {
		return nil, err
	}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		c.awaitExit(exitGrace)
		c.Close()
		return nil, &StartError{Err: c.startError(ctx, err), Stderr: c.Stderr(), Pid: c.Pid()}
	}
	c.session = session
	go c.watch()
	return c, nil
}

func (c *Conn) transport() (mcp.Transport, error) {
	switch c.spec.Type {
	case Stdio, "":
		return c.startProcess()
	case HTTP:
		client, err := c.httpClient()
		if err != nil {
			return nil, err
		}
		t := &mcp.StreamableClientTransport{Endpoint: c.spec.URL, HTTPClient: client, MaxRetries: 2, OAuthHandler: needsSignIn{},
			MaxEventSize: maxLine}
		if c.spec.Credentials != nil {
			t.OAuthHandler = newStoredToken(c.spec.Credentials, c.spec.HTTPClient, c.spec.OnToken)
		}
		return t, nil
	case SSE:
		client, err := c.httpClient()
		if err != nil {
			return nil, err
		}
		return &mcp.SSEClientTransport{Endpoint: c.spec.URL, HTTPClient: client, MaxEventSize: maxLine}, nil
	}
	return nil, fmt.Errorf("transport %q is not supported", c.spec.Type)
}

// startProcess starts the stdio server in its own process group, its
// stdin and stdout being the MCP connection.
func (c *Conn) startProcess() (mcp.Transport, error) {
	life, stop := context.WithCancel(context.Background())
	proc, inW, outR, err := childproc.StartPiped(life, childproc.Spec{Path: c.spec.Path, Args: c.spec.Argv, Dir: c.spec.Dir, Env: c.spec.Env,
		Stderr: c.stderr, Owner: c.spec.Owner, Sandbox: c.spec.Sandbox})
	if err != nil {
		stop()
		return nil, fmt.Errorf("start %s: %w", c.spec.Path, err)
	}
	c.proc, c.stop, c.reaped = proc, stop, make(chan struct{})
	go func() {
		defer close(c.reaped)
		err := proc.Wait()
		proc.Stop() // what it left running goes with it
		c.mu.Lock()
		if c.exit == nil && !c.closed {
			// Not when Close ended it: a failed start (garbage on stdout)
			// is then explained by the handshake, not by our SIGTERM.
			c.exit = exitError(err)
		}
		c.mu.Unlock()
		outR.Close()
	}()
	return &mcp.IOTransport{Reader: outR, Writer: inW, MaxLineLength: maxLine}, nil
}

// exitGrace is how long a failed start waits for a server that is
// exiting on its own, whose exit status then says why.
const exitGrace = 200 * time.Millisecond

func (c *Conn) awaitExit(d time.Duration) {
	if c.reaped == nil {
		return
	}
	select {
	case <-c.reaped:
	case <-time.After(d):
	}
}

func exitError(err error) error {
	if err == nil {
		return errors.New("the server exited")
	}
	return fmt.Errorf("the server exited: %w", err)
}

// watch notices the session ending: the server exited, crashed or the
// connection dropped.
func (c *Conn) watch() {
	err := c.session.Wait()
	if c.proc != nil {
		// The process's own exit status (and all of its stderr) is the
		// better account of why it ended.
		c.stop()
		<-c.reaped
	}
	c.mu.Lock()
	if c.exit == nil {
		c.exit = fmt.Errorf("the connection ended: %v", err)
	}
	c.mu.Unlock()
	close(c.done)
}

// startError words a failed start: a timeout, a server that exited (with
// its stderr), a sign-in.
func (c *Conn) startError(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, ErrNeedsSignIn):
		return ErrNeedsSignIn
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("did not answer within the start timeout: %w", context.DeadlineExceeded)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	c.mu.Lock()
	exit := c.exit
	c.mu.Unlock()
	if exit != nil {
		return exit
	}
	var reach *url.Error
	if errors.As(err, &reach) {
		return fmt.Errorf("cannot reach %s: %w", reach.URL, reach.Err)
	}
	return fmt.Errorf("handshake: %w", err)
}

// StartError is a failed start, with what a stdio server wrote to stderr
// (its kept part), which usually says why.
type StartError struct {
	Err    error
	Stderr string
	Pid    int // the stdio server's process, already ended; 0 if none started
}

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// Done is closed when the server has ended (exited, crashed, closed).
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err says why the server ended; nil while it runs.
func (c *Conn) Err() error {
	select {
	case <-c.done:
	default:
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	return c.exit
}

// Stderr is the kept part of a stdio server's stderr.
func (c *Conn) Stderr() string { return c.stderr.String() }

// Pid is a stdio server's process id, 0 for a remote one.
func (c *Conn) Pid() int {
	if c.proc == nil {
		return 0
	}
	return c.proc.Pid()
}

// Close ends the session and a stdio server's whole process group
// (SIGTERM, then SIGKILL after childproc.Grace), and returns when it is
// gone.
func (c *Conn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	if c.session != nil {
		c.session.Close()
	}
	if c.stop != nil {
		c.stop()
	}
	if c.session != nil {
		<-c.done
	} else if c.reaped != nil {
		<-c.reaped
	}
	return nil
}

// httpClient bounds connects and TLS handshakes, adds the declared
// headers, keeps every request and redirect within the declared origin
// and bounds response bodies; certificates are always verified (system
// roots, which honour SSL_CERT_FILE).
func (c *Conn) httpClient() (*http.Client, error) {
	u, err := CheckURL(c.spec.URL)
	if err != nil {
		return nil, err
	}
	base := c.spec.HTTPClient
	if base == nil {
		base = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: connectTimeout}).DialContext,
			TLSHandshakeTimeout: connectTimeout,
		}}
	}
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	o := originOf(u)
	out := *base
	out.Transport = originTransport{base: rt, origin: o, headers: c.spec.Headers}
	out.CheckRedirect = o.checkRedirect
	return &out, nil
}
