package extensions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/mcp"
)

// MCP server states, as the card and `ext show --json` name them.
const (
	MCPNotStarted  = "not_started"
	MCPStarting    = "starting"
	MCPReady       = "ready"
	MCPFailed      = "failed"
	MCPNeedsSignIn = "needs_sign_in"
	MCPInactive    = "inactive" // the declaration cannot run (placeholder URL, missing file…)
)

// mcpRelistTimeout bounds re-reading a tool list after list_changed.
const mcpRelistTimeout = 10 * time.Second

// mcpKey names one running server: servers are per project, as in Claude
// Code, where each session starts its own.
type mcpKey struct{ ext, server, project string }

// mcpServer is one server the dispatcher started or tried to start.
type mcpServer struct {
	key   mcpKey
	label string // the extension's display name
	decl  manifest.MCPServer
	dir   string // the version folder it runs from (kept while it runs)
	lease func() // releases dir (Manager.Lease); called once, by closeServer

	ready       chan struct{}      // closed when the start has ended either way
	cancelStart context.CancelFunc // ends a start still under way (disable, quit)

	// Guarded by mcpHost.mu.
	state     string
	conn      *mcp.Conn
	tools     []mcp.Tool
	stale     bool // list_changed arrived; read again at the next turn boundary
	err       string
	stderr    string
	announced string // the failure already told in the chat
	dropped   map[string]bool
	touched   time.Time
}

type mcpHost struct {
	mu      sync.Mutex
	servers map[mcpKey]*mcpServer
	changed chan struct{} // closed (and replaced) when a server's state or tools change
}

// bump tells whoever waits on changes that a server's state or tools
// changed. The caller holds mu.
func (h *mcpHost) bump() {
	if h.changed != nil {
		close(h.changed)
	}
	h.changed = make(chan struct{})
}

// MCPChanged returns a channel that is closed the next time an MCP
// server starts, becomes ready, fails, stops or changes its tools, so a
// view can show servers as they are without polling; call it again after
// each close.
func (d *Dispatcher) MCPChanged() <-chan struct{} {
	d.mcp.mu.Lock()
	defer d.mcp.mu.Unlock()
	if d.mcp.changed == nil {
		d.mcp.changed = make(chan struct{})
	}
	return d.mcp.changed
}

var _ lifecycle.ToolSource = (*Dispatcher)(nil)

// Tools implements lifecycle.ToolSource: it starts the enabled
// extensions' servers for the project that are not started yet, in
// parallel, waits for them within the start timeout, and returns the
// tools of those that are ready. A server that failed is told once in the
// chat; the turn goes on without its tools.
func (d *Dispatcher) Tools(ctx context.Context, ev lifecycle.ToolsEvent) lifecycle.ToolSet {
	var wanted []*mcpServer
	for _, x := range d.active(ctx) {
		for _, s := range runnableServers(x.pkg) {
			wanted = append(wanted, d.ensureStarted(x, s, ev.ProjectDir))
		}
	}
	if len(wanted) == 0 {
		return lifecycle.ToolSet{}
	}
	if slices.ContainsFunc(wanted, starting) {
		lifecycle.ReportStatus(ctx, "starting MCP servers…")
	}
	wait, cancel := context.WithTimeout(ctx, d.mcpStartTimeout()+time.Second)
	for _, s := range wanted {
		select {
		case <-s.ready:
		case <-wait.Done():
		}
	}
	cancel()
	var set lifecycle.ToolSet
	for _, s := range wanted {
		d.collect(ctx, s, &set)
	}
	return set
}

func starting(s *mcpServer) bool {
	select {
	case <-s.ready:
		return false
	default:
		return true
	}
}

// ensureStarted returns the server for key, starting it in the
// background when it never started. A failed one stays failed until the
// user restarts it.
func (d *Dispatcher) ensureStarted(x active, decl manifest.MCPServer, project string) *mcpServer {
	key := mcpKey{x.id, decl.Name, project}
	d.mcp.mu.Lock()
	defer d.mcp.mu.Unlock()
	if s, ok := d.mcp.servers[key]; ok && s.dir == x.dir {
		s.touched = time.Now()
		return s
	} else if ok { // another version's: it goes
		go d.closeServer(s)
	}
	startCtx, cancel := context.WithTimeout(context.Background(), d.mcpStartTimeout())
	s := &mcpServer{key: key, label: x.label, decl: decl, dir: x.dir, ready: make(chan struct{}), cancelStart: cancel,
		state: MCPStarting, touched: time.Now()}
	if d.mcp.servers == nil {
		d.mcp.servers = map[mcpKey]*mcpServer{}
	}
	d.mcp.servers[key] = s
	d.mcp.bump()
	s.lease = d.m.Lease(x.dir)
	go d.startServer(startCtx, x, s)
	return s
}

func (d *Dispatcher) startServer(ctx context.Context, x active, s *mcpServer) {
	defer close(s.ready)
	defer s.cancelStart()
	spec, err := d.mcpSpec(x, s)
	var conn *mcp.Conn
	var tools []mcp.Tool
	if err == nil {
		conn, err = mcp.Connect(ctx, spec)
	}
	if err == nil {
		tools, err = conn.Tools(ctx)
		if err != nil && len(tools) == 0 {
			conn.Close()
		}
	}
	d.mcp.mu.Lock()
	if d.mcp.servers[s.key] != s { // stopped while starting: gone before ready closes
		d.mcp.mu.Unlock()
		if conn != nil {
			conn.Close()
		}
		return
	}
	defer d.mcp.mu.Unlock()
	defer d.mcp.bump()
	switch {
	case errors.Is(err, mcp.ErrNeedsSignIn):
		s.state, s.err = MCPNeedsSignIn, "sign in on its card (Preferences → Agent Extensions)"
		return
	case err != nil && len(tools) == 0:
		s.state, s.err = MCPFailed, safetext.Strip(err.Error())
		var start *mcp.StartError
		if errors.As(err, &start) {
			s.stderr = safetext.Strip(start.Stderr)
		} else if conn != nil {
			s.stderr = safetext.Strip(conn.Stderr())
		}
		return
	}
	s.state, s.conn, s.tools = MCPReady, conn, tools
	go d.watchServer(s, conn)
}

// watchServer marks a server that ended on its own as failed, with why.
func (d *Dispatcher) watchServer(s *mcpServer, conn *mcp.Conn) {
	<-conn.Done()
	d.mcp.mu.Lock()
	defer d.mcp.mu.Unlock()
	if s.conn != conn {
		return
	}
	s.conn = nil
	if err := conn.Err(); err != nil {
		s.state, s.err, s.stderr = MCPFailed, safetext.Strip(err.Error()), safetext.Strip(conn.Stderr())
	}
	d.mcp.bump()
}

// mcpSpec expands a server's declaration into what to start or reach.
func (d *Dispatcher) mcpSpec(x active, s *mcpServer) (mcp.Spec, error) {
	if err := manifest.CheckStamps(x.dir, x.pkg.Stamps); err != nil {
		return mcp.Spec{}, fmt.Errorf("a file of the extension changed on disk since you trusted it (%v); review it first", err)
	}
	if err := hookrun.PrepareDataDir(x.data); err != nil {
		return mcp.Spec{}, err
	}
	launch := s.decl.Expand(manifest.MCPEnv{Vars: manifest.Vars{PluginRoot: x.dir, PluginData: x.data, ProjectDir: s.key.project, Options: x.optionArgv},
		Sensitive: sensitiveOptions(x), LookupEnv: d.lookupEnv})
	spec := mcp.Spec{Name: s.decl.Name, Type: s.decl.Type, URL: launch.URL, Headers: launch.Headers, HTTPClient: d.mcpHTTP,
		OnToolsChanged: func() { d.markStale(s) }}
	if s.decl.Type != manifest.MCPStdio {
		id, server := x.id, s.decl.Name
		spec.Credentials = d.m.mcpCredentials(id, server)
		spec.OnToken = func(c *mcp.Credentials) { d.m.keepCredentials(id, server, c) }
		if s.decl.OAuth && spec.Credentials == nil {
			// It declares OAuth: without a sign-in it only answers 401.
			return spec, mcp.ErrNeedsSignIn
		}
		return spec, nil
	}
	path, err := hookrun.LookPath(launch.Argv[0], d.hookPATH())
	if err != nil {
		return spec, fmt.Errorf("needs `%s`, which was not found on PATH: install it or set the PATH in Preferences → Advanced", launch.Argv[0])
	}
	env := hookrun.Environ(hookrun.EnvInput{Parent: d.environ(), HookPATH: d.hookPATH(), PluginRoot: x.dir, PluginData: x.data,
		ProjectDir: s.key.project, Event: "MCP", Options: x.optionEnv})
	spec.Path, spec.Argv, spec.Env, spec.Owner = path, launch.Argv, append(env, launch.Env...), x.id
	spec.Sandbox = childproc.Sandbox{Write: []string{x.data}, Read: []string{x.dir}}
	spec.Dir = x.dir
	if launch.Cwd != "" {
		spec.Dir = launch.Cwd
		if !filepath.IsAbs(spec.Dir) {
			spec.Dir = filepath.Join(x.dir, spec.Dir)
		}
	}
	return spec, nil
}

func (d *Dispatcher) markStale(s *mcpServer) {
	d.mcp.mu.Lock()
	s.stale = true
	d.mcp.mu.Unlock()
}

// collect adds a server's tools to the turn's set, re-reading the list
// first when the server said it changed (here, at a turn boundary, never
// mid-request), and tells once why a server offers nothing.
func (d *Dispatcher) collect(ctx context.Context, s *mcpServer, set *lifecycle.ToolSet) {
	d.mcp.mu.Lock()
	conn, stale := s.conn, s.stale
	s.stale = false
	d.mcp.mu.Unlock()
	if conn != nil && stale {
		relist, cancel := context.WithTimeout(ctx, mcpRelistTimeout)
		tools, err := conn.Tools(relist)
		cancel()
		d.mcp.mu.Lock()
		if err == nil {
			s.tools = tools
			d.mcp.bump()
		} else {
			s.stale = true
		}
		d.mcp.mu.Unlock()
	}
	d.mcp.mu.Lock()
	defer d.mcp.mu.Unlock()
	who := s.label + " › " + s.decl.Name
	switch s.state {
	case MCPReady:
		s.announced = ""
		names := map[string]bool{}
		for _, t := range s.tools {
			name := toolName(s.key.ext, s.decl.Name, t.Name)
			if t.Problem == "" && names[name] {
				t.Problem = "another of its tools has the same name once spelled as " + name
			}
			names[name] = true
			if t.Problem != "" {
				if s.dropped == nil {
					s.dropped = map[string]bool{}
				}
				if !s.dropped[t.Name] {
					s.dropped[t.Name] = true
					set.Notices = append(set.Notices, d.mcpNotice(s, fmt.Sprintf("%s: tool %s is left out: %s", who, safetext.Strip(t.Name), safetext.Strip(t.Problem))))
				}
				continue
			}
			set.Tools = append(set.Tools, d.descriptor(s, s.conn, t, name))
		}
		return
	case MCPStarting:
		msg := fmt.Sprintf("%s is still starting; its tools are left out of this turn", who)
		if s.announced != msg {
			s.announced = msg
			set.Notices = append(set.Notices, d.mcpNotice(s, msg))
		}
		return
	}
	msg := fmt.Sprintf("%s is unavailable (%s); its tools are left out until it is restarted on its card", who, s.err)
	if s.state == MCPNeedsSignIn {
		msg = fmt.Sprintf("%s needs you to sign in before its tools can be used: Sign in on its card in Preferences → Agent Extensions", who)
	}
	if s.announced != msg {
		s.announced = msg
		set.Notices = append(set.Notices, d.mcpNotice(s, msg))
	}
}

func (d *Dispatcher) mcpNotice(s *mcpServer, text string) lifecycle.Notice {
	return lifecycle.Notice{Kind: lifecycle.NoticeMCP, Source: s.key.ext, Label: safetext.Strip(s.label), Text: safetext.Strip(text)}
}

// descriptor wraps one tool for the loop.
func (d *Dispatcher) descriptor(s *mcpServer, conn *mcp.Conn, t mcp.Tool, name string) lifecycle.ToolDescriptor {
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	server, tool := s.decl.Name, t.Name
	return lifecycle.ToolDescriptor{Name: name, Description: desc, Schema: t.Schema, ReadOnlyHint: t.ReadOnly,
		Source: s.key.ext, Label: safetext.Strip(s.label + " › " + server + ": " + tool),
		Call: func(ctx context.Context, args json.RawMessage) lifecycle.ToolResult {
			ctx, cancel := context.WithTimeout(ctx, d.mcpCallTimeout())
			defer cancel()
			text, isErr, err := conn.Call(ctx, tool, args, mcp.DefaultMaxResultBytes)
			if err != nil {
				return lifecycle.ToolResult{Text: fmt.Sprintf("MCP server %s: %v", server, err), IsError: true}
			}
			return lifecycle.ToolResult{Text: text, IsError: isErr}
		}}
}

// maxToolName is the longest tool name the model APIs accept (OpenAI's
// and Anthropic's function names: 64 of [A-Za-z0-9_-]).
const maxToolName = 64

// toolName is Claude Code's name for a server's tool, shortened to
// maxToolName with a hash of the whole when longer, so every name is one
// the APIs accept and stays the same from turn to turn.
func toolName(plugin, server, tool string) string {
	name := manifest.MCPToolName(plugin, server, tool)
	if len(name) <= maxToolName {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return name[:maxToolName-9] + "_" + hex.EncodeToString(sum[:4])
}

// stopMCP ends every server of an extension (all of them when id is ""),
// waiting until their process groups are gone.
func (d *Dispatcher) stopMCP(id string) {
	d.closeServers(func(k mcpKey) bool { return id == "" || k.ext == id })
}

// Close ends every MCP server; the app calls it as it quits.
func (d *Dispatcher) Close() { d.stopMCP("") }

// RestartMCP stops an extension's server (in every project) so the next
// turn starts it again.
func (d *Dispatcher) RestartMCP(id, server string) {
	d.closeServers(func(k mcpKey) bool { return k.ext == id && k.server == server })
}

// closeServers forgets the servers whose key matches and ends them, all
// at once, returning when they are gone.
func (d *Dispatcher) closeServers(match func(mcpKey) bool) {
	d.mcp.mu.Lock()
	var gone []*mcpServer
	for k, s := range d.mcp.servers {
		if match(k) {
			gone = append(gone, s)
			delete(d.mcp.servers, k)
		}
	}
	if len(gone) > 0 {
		d.mcp.bump()
	}
	d.mcp.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range gone {
		wg.Go(func() { d.closeServer(s) })
	}
	wg.Wait()
}

// closeServer ends a server that is no longer in the map, once its start
// is over, and lets its version folder go.
func (d *Dispatcher) closeServer(s *mcpServer) {
	s.cancelStart()
	<-s.ready
	d.mcp.mu.Lock()
	conn := s.conn
	s.conn = nil
	d.mcp.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
	s.lease()
}

// MCPStatus is what one server is doing now, for the card and `ext show`.
type MCPStatus struct {
	State  string
	Tools  []string // tool names as the server gives them; dropped ones marked
	Error  string
	Stderr string
	Pid    int
}

// mcpStatus reports each server of an extension by name: the most
// recently used instance when several projects run one.
func (d *Dispatcher) mcpStatus(id string) map[string]MCPStatus {
	d.mcp.mu.Lock()
	defer d.mcp.mu.Unlock()
	out := map[string]MCPStatus{}
	latest := map[string]time.Time{}
	for k, s := range d.mcp.servers {
		if k.ext != id || s.touched.Before(latest[k.server]) {
			continue
		}
		latest[k.server] = s.touched
		st := MCPStatus{State: s.state, Error: s.err, Stderr: s.stderr}
		if s.conn != nil {
			st.Pid = s.conn.Pid()
		}
		for _, t := range s.tools {
			name := t.Name
			if t.Problem != "" {
				name += " (left out: " + t.Problem + ")"
			}
			st.Tools = append(st.Tools, safetext.Strip(name))
		}
		slices.Sort(st.Tools)
		out[k.server] = st
	}
	return out
}

func (d *Dispatcher) mcpStartTimeout() time.Duration {
	if d.startTimeout != nil {
		if t := d.startTimeout(); t > 0 {
			return t
		}
	}
	return mcp.DefaultStartTimeout
}

func (d *Dispatcher) mcpCallTimeout() time.Duration {
	if d.callTimeout != nil {
		if t := d.callTimeout(); t > 0 {
			return t
		}
	}
	return mcp.DefaultCallTimeout
}
