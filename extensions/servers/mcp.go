package servers

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/mcp"
)

// Registry is what the MCP host reads and writes of the installed
// extensions (*extensions.Manager implements it).
type Registry interface {
	Hosted
	MCPCredentials(id, server string) *mcp.Credentials
	KeepMCPCredentials(id, server string, c *mcp.Credentials)
	ForgetMCPCredentials(id, server string) error
	// CheckMCPTools pins a server's tools at their first listing after
	// trust and names those to withhold: changed or new since.
	CheckMCPTools(ctx context.Context, owner, commit, server string, defs []extensions.ToolDef) (map[string]bool, error)
	// ToolOff reports whether the user switched the tool off now.
	ToolOff(ctx context.Context, id, server, tool string) bool
}

// MCPConfig wires an MCP host.
type MCPConfig struct {
	// PATH is the PATH servers get and their program is looked up on
	// (the hooks' PATH); nil → this process's.
	PATH func() string
	// Environ is the app's environment, filtered by the allowlist; nil
	// → os.Environ.
	Environ func() []string
	// StartTimeout and CallTimeout bound server starts and tool calls
	// (Preferences); nil or 0 → the mcp package's defaults.
	StartTimeout, CallTimeout func() time.Duration
	// LookupEnv reads the user's environment for the variables a server
	// declares in its env and headers; nil → os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// AppSecrets names the further variables AgentDesk reads its own
	// secrets from (the provider's key variable, from Providers): like
	// AGENTDESK_*, they expand to nothing in a server's env and headers.
	// nil → none.
	AppSecrets func() []string
	// HTTPClient reaches remote servers (tests: a client trusting a
	// loopback CA); nil → system roots, bounded connects.
	HTTPClient *http.Client
	// OpenBrowser opens a sign-in page in the system browser; nil (the
	// CLI) means sign-in is refused with where to do it instead.
	OpenBrowser func(url string) error
}

// RemovalPoll is how often the registry row of an extension whose
// servers or hooks are running is read, so a disable, uninstall or update
// made by another AgentDesk process stops them here within a second, as
// one made in this process does at once (through OnRemove).
const RemovalPoll = 250 * time.Millisecond

// relistTimeout bounds re-reading a tool list after list_changed.
const relistTimeout = 10 * time.Second

// MCP hosts the enabled extensions' MCP servers for the agent loop: it
// implements lifecycle.ToolSource over a Supervisor of MCP connections.
type MCP struct {
	reg     Registry
	cfg     MCPConfig
	env     launchEnv
	sup     *Supervisor[*mcpConn]
	removal *removalWatch

	cmu   sync.Mutex
	calls map[string]map[*context.CancelCauseFunc]bool // extension id → its tool calls in flight
}

// errGoneMidCall is why a tool call is cancelled when its extension is
// disabled, removed or updated (perhaps in another process) while the
// call runs.
var errGoneMidCall = errors.New("extension disabled, removed or changed while this call ran")

// cancelGrace is how long Stop lets the notifications/cancelled of the
// calls it cancels reach their servers before it ends them (the SDK sends
// them off the caller's path).
const cancelGrace = 100 * time.Millisecond

// NewMCP returns the host of reg's MCP servers; nothing starts until the
// first Tools call asks for a project's servers.
func NewMCP(reg Registry, cfg MCPConfig) *MCP {
	h := &MCP{reg: reg, cfg: cfg, env: newLaunchEnv(cfg.PATH, cfg.Environ, cfg.LookupEnv, cfg.AppSecrets),
		calls: map[string]map[*context.CancelCauseFunc]bool{}}
	h.sup = NewSupervisor[*mcpConn](Config{StartTimeout: h.startTimeout})
	h.removal = newRemovalWatch(reg, h.sup.Has, h.Stop)
	return h
}

var _ lifecycle.ToolSource = (*MCP)(nil)

// mcpConn is a ready server's connection and its tool list.
type mcpConn struct {
	*mcp.Conn
	mu      sync.Mutex
	tools   []mcp.Tool
	stale   bool            // list_changed arrived; read again at the next turn boundary
	dropped map[string]bool // tools already told left out
	held    string          // the withheld tools last told, so it is said once
}

// Changed returns a channel closed the next time a server's state or
// tools change, so a view can show servers as they are without polling;
// ask again after each close.
func (h *MCP) Changed() <-chan struct{} { return h.sup.Changed() }

// Tools implements lifecycle.ToolSource: it starts the enabled
// extensions' servers for the project that are not started yet, in
// parallel, waits for them within the start timeout, and returns the
// tools of those that are ready. A server that failed is told once in the
// chat; the turn goes on without its tools.
func (h *MCP) Tools(ctx context.Context, ev lifecycle.ToolsEvent) lifecycle.ToolSet {
	type want struct {
		x     extensions.Active
		decl  manifest.MCPServer
		entry *Entry[*mcpConn]
	}
	var wanted []want
	actives := h.reg.Active(extensions.WithProject(ctx, ev.ProjectDir))
	for _, x := range actives {
		for _, decl := range x.Servers() {
			key := Key{Owner: x.ID, Name: decl.Name, Project: ev.ProjectDir}
			e := h.sup.Ensure(key, x.Dir, func() func() { return h.reg.Lease(x.Dir) }, h.starter(x, decl, ev.ProjectDir))
			wanted = append(wanted, want{x, decl, e})
		}
		if len(x.Servers()) > 0 {
			h.removal.watch(x.ID, x.Commit)
		}
	}
	if len(wanted) == 0 {
		return lifecycle.ToolSet{}
	}
	names := namings(actives)
	entries := make([]*Entry[*mcpConn], len(wanted))
	for i, w := range wanted {
		entries[i] = w.entry
	}
	if slices.ContainsFunc(entries, (*Entry[*mcpConn]).Starting) {
		lifecycle.ReportStatus(ctx, "starting MCP servers…")
	}
	wait, cancel := context.WithTimeout(ctx, h.startTimeout()+time.Second)
	Wait(wait, entries)
	cancel()
	var set lifecycle.ToolSet
	for _, w := range wanted {
		h.collect(ctx, w.x, w.decl, names[serverRef{w.x.ID, w.decl.Name}], w.entry, &set)
	}
	return set
}

// serverRef is one server of one extension.
type serverRef struct{ ext, server string }

// naming is how one server's tools are named in requests.
type naming struct {
	claude string // Claude Code's prefix, mcp__plugin_<plugin>_<server>__
	prefix string // claude, or with a short suffix when another server spells it alike
	alike  []serverRef
}

// namings names the tools of every server the active extensions declare.
// Two servers whose Claude Code prefixes are spelled alike (plugin
// victim's srv_x and plugin victim_srv's x) both get a short suffix from
// their extension id and server name. It is decided from the
// declarations, not from which servers are running, so a name means the
// same tool from turn to turn, even while one of the two is still
// starting.
func namings(actives []extensions.Active) map[serverRef]naming {
	byPrefix := map[string][]serverRef{}
	for _, x := range actives {
		for _, decl := range x.Servers() {
			p := manifest.MCPToolPrefix(x.ID, decl.Name)
			if !slices.Contains(byPrefix[p], (serverRef{x.ID, decl.Name})) {
				byPrefix[p] = append(byPrefix[p], serverRef{x.ID, decl.Name})
			}
		}
	}
	out := map[serverRef]naming{}
	for p, refs := range byPrefix {
		for _, r := range refs {
			n := naming{claude: p, prefix: p}
			if len(refs) > 1 {
				sum := sha256.Sum256([]byte(r.ext + "\x00" + r.server))
				n.prefix = strings.TrimSuffix(p, "__") + "_" + hex.EncodeToString(sum[:2]) + "__"
				n.alike = slices.DeleteFunc(slices.Clone(refs), func(o serverRef) bool { return o == r })
			}
			out[r] = n
		}
	}
	return out
}

// names returns a tool's name in requests and Claude Code's name for it.
func (n naming) names(plugin, server, tool string) (name, claude string) {
	claude = manifest.MCPToolName(plugin, server, tool)
	if n.prefix == "" {
		n.prefix, n.claude = manifest.MCPToolPrefix(plugin, server), manifest.MCPToolPrefix(plugin, server)
	}
	return shorten(n.prefix + strings.TrimPrefix(claude, n.claude)), claude
}

// starter connects to one server of x for project. A server that
// answers 401 or 403, at the handshake or at its tool list, waits for a
// sign-in (ErrNeedsSignIn) rather than failing.
func (h *MCP) starter(x extensions.Active, decl manifest.MCPServer, project string) StartFunc[*mcpConn] {
	return func(ctx context.Context) (*mcpConn, string, error) {
		mc := &mcpConn{}
		conn, tools, stderr, err := h.connect(ctx, x, decl, project, func() { mc.markStale(); h.sup.Bump() })
		if errors.Is(err, mcp.ErrNeedsSignIn) {
			err = ErrNeedsSignIn
		}
		if err != nil {
			return nil, stderr, err
		}
		mc.Conn, mc.tools = conn, tools
		return mc, "", nil
	}
}

// connect starts or reaches the server and reads its tools; on failure
// it returns why and the end of the server's stderr.
func (h *MCP) connect(ctx context.Context, x extensions.Active, decl manifest.MCPServer, project string, onToolsChanged func()) (*mcp.Conn, []mcp.Tool, string, error) {
	spec, err := h.spec(x, decl, project, onToolsChanged)
	if err != nil {
		return nil, nil, "", err
	}
	conn, err := mcp.Connect(ctx, spec)
	if err != nil {
		var start *mcp.StartError
		if errors.As(err, &start) {
			return nil, nil, start.Stderr, err
		}
		return nil, nil, "", err
	}
	tools, err := conn.Tools(ctx)
	if err != nil && len(tools) == 0 {
		stderr := conn.Stderr()
		conn.Close()
		return nil, nil, stderr, err
	}
	return conn, tools, "", nil
}

func (c *mcpConn) markStale() {
	c.mu.Lock()
	c.stale = true
	c.mu.Unlock()
}

// spec expands a server's declaration into what to start or reach.
func (h *MCP) spec(x extensions.Active, decl manifest.MCPServer, project string, onToolsChanged func()) (mcp.Spec, error) {
	if err := checkFiles(h.reg, x); err != nil {
		return mcp.Spec{}, err
	}
	launch := h.env.expand(x, decl, project)
	spec := mcp.Spec{Name: decl.Name, Type: decl.Type, URL: launch.URL, Headers: launch.Headers, HTTPClient: h.cfg.HTTPClient,
		OnToolsChanged: onToolsChanged}
	if decl.Type != manifest.MCPStdio {
		id, server := x.ID, decl.Name
		spec.Credentials = h.reg.MCPCredentials(id, server)
		spec.OnToken = func(c *mcp.Credentials) { h.reg.KeepMCPCredentials(id, server, c) }
		if decl.OAuth && spec.Credentials == nil {
			// It declares OAuth: without a sign-in it only answers 401.
			return spec, ErrNeedsSignIn
		}
		return spec, nil
	}
	path, env, err := h.env.stdio(x, launch, project, "MCP")
	if err != nil {
		return spec, err
	}
	spec.Path, spec.Argv, spec.Env, spec.Owner = path, launch.Argv, env, x.ID
	spec.Sandbox = childproc.Sandbox{Unconfined: x.Unconfined, Write: []string{x.Data}, Read: []string{x.Dir}}
	spec.Dir = x.Dir
	if launch.Cwd != "" {
		spec.Dir = launch.Cwd
		if !filepath.IsAbs(spec.Dir) {
			spec.Dir = filepath.Join(x.Dir, spec.Dir)
		}
	}
	return spec, nil
}

// collect adds a server's tools to the turn's set, re-reading the list
// first when the server said it changed (here, at a turn boundary, never
// mid-request), and tells once why a server offers nothing.
func (h *MCP) collect(ctx context.Context, x extensions.Active, decl manifest.MCPServer, n naming, e *Entry[*mcpConn], set *lifecycle.ToolSet) {
	snap := h.sup.Snapshot(e)
	who := x.Label + " › " + decl.Name
	notice := func(msg string) {
		if h.sup.Announce(e, msg) {
			set.Notices = append(set.Notices, lifecycle.Notice{Kind: lifecycle.NoticeMCP, Source: x.ID, Label: safetext.Strip(x.Label),
				Text: safetext.Strip(msg)})
		}
	}
	switch {
	case snap.State == Ready && snap.Live:
		h.sup.Announce(e, "")
		c := snap.Conn
		c.relist(ctx, h.sup)
		c.mu.Lock()
		defer c.mu.Unlock()
		withheld := h.withheld(ctx, x, decl.Name, c, who, set)
		names := map[string]bool{}
		for _, t := range c.tools {
			name, claude := n.names(x.ID, decl.Name, t.Name)
			if t.Problem == "" && (names[name] || slices.ContainsFunc(set.Tools, func(d lifecycle.ToolDescriptor) bool { return d.Name == name })) {
				t.Problem = "another tool has the same name once spelled as " + name
			}
			names[name] = true
			if t.Problem != "" {
				if c.dropped == nil {
					c.dropped = map[string]bool{}
				}
				if !c.dropped[t.Name] {
					c.dropped[t.Name] = true
					set.Notices = append(set.Notices, lifecycle.Notice{Kind: lifecycle.NoticeMCP, Source: x.ID, Label: safetext.Strip(x.Label),
						Text: safetext.Strip(fmt.Sprintf("%s: tool %s is left out: %s", who, safetext.Strip(t.Name), safetext.Strip(t.Problem)))})
				}
				continue
			}
			if withheld == nil || withheld[t.Name] || x.ToolOff(decl.Name, t.Name) {
				continue // switched off: not offered, not on tool_search
			}
			d := h.descriptor(x, decl.Name, c.Conn, t, name)
			d.ClaudeName = claude
			set.Tools = append(set.Tools, d)
		}
	case snap.State == Starting:
		notice(fmt.Sprintf("%s is still starting; its tools are left out of this turn", who))
	case snap.State == NeedsSignIn:
		notice(fmt.Sprintf("%s needs you to sign in before its tools can be used: Sign in on its card in Preferences → Agent Extensions", who))
	default:
		notice(fmt.Sprintf("%s is unavailable (%s); its tools are left out until it is restarted on its card", who, snap.Error))
	}
}

// withheld checks a ready server's usable tools against their pins
// (c.mu held) and names those withheld until the user reviews them,
// telling the chat once per set; nil (withhold all) when the pins
// cannot be read, since an unchecked tool is never offered.
func (h *MCP) withheld(ctx context.Context, x extensions.Active, server string, c *mcpConn, who string, set *lifecycle.ToolSet) map[string]bool {
	var defs []extensions.ToolDef
	for _, t := range c.tools {
		if t.Problem == "" {
			defs = append(defs, toolDef(t))
		}
	}
	held, err := h.reg.CheckMCPTools(ctx, extensions.PinOwner(x.ID, x.Dir), x.Commit, server, defs)
	var msg string
	switch {
	case err != nil:
		msg = fmt.Sprintf("%s: its tools are withheld: what you trusted could not be read (%v)", who, err)
		held = nil
	case len(held) > 0:
		var list []string
		for name := range held {
			list = append(list, safetext.Strip(name))
		}
		slices.Sort(list)
		msg = fmt.Sprintf("%s: %d tools changed since you trusted this server (%s) and are withheld from the model until you review them: %s",
			who, len(held), strings.Join(list, ", "), reviewHint(x))
	}
	if msg != c.held {
		c.held = msg
		if msg != "" {
			set.Notices = append(set.Notices, lifecycle.Notice{Kind: lifecycle.NoticeMCP, Source: x.ID, Label: safetext.Strip(x.Label), Text: safetext.Strip(msg)})
		}
	}
	if err != nil {
		return nil
	}
	if held == nil {
		held = map[string]bool{}
	}
	return held
}

// reviewHint says where the withheld tools of x are reviewed: on its
// card, or with the command line (a folder's own servers are pinned per
// folder: project review).
func reviewHint(x extensions.Active) string {
	if x.ID == manifest.ProjectID {
		return "Review on this project's card in Preferences → Agent Extensions, or `agentdesk project review " + x.Dir + "`"
	}
	return "Review on its card in Preferences → Agent Extensions, or `agentdesk ext review " + x.ID + "`"
}

// toolDef is what of a tool is pinned: its name, its description as the
// model gets it, and its input schema.
func toolDef(t mcp.Tool) extensions.ToolDef {
	return extensions.ToolDef{Name: t.Name, Description: offeredDescription(t), Schema: t.Schema}
}

func offeredDescription(t mcp.Tool) string {
	if t.Description == "" {
		return t.Title
	}
	return t.Description
}

// relist re-reads the tool list when the server said it changed; a read
// that fails is tried again at the next turn.
func (c *mcpConn) relist(ctx context.Context, sup *Supervisor[*mcpConn]) {
	c.mu.Lock()
	stale := c.stale
	c.stale = false
	c.mu.Unlock()
	if !stale {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, relistTimeout)
	tools, err := c.Conn.Tools(ctx)
	cancel()
	c.mu.Lock()
	if err == nil {
		c.tools = tools
	} else {
		c.stale = true
	}
	c.mu.Unlock()
	if err == nil {
		sup.Bump()
	}
}

// descriptor wraps one tool for the loop.
func (h *MCP) descriptor(x extensions.Active, server string, conn *mcp.Conn, t mcp.Tool, name string) lifecycle.ToolDescriptor {
	desc := offeredDescription(t)
	tool := t.Name
	return lifecycle.ToolDescriptor{Name: name, Description: desc, Schema: t.Schema, ReadOnlyHint: t.ReadOnly,
		ID: lifecycle.ToolID{Extension: x.ID, Server: server, Tool: tool}, Source: x.ID, Label: safetext.Strip(x.Label + " › " + server + ": " + tool),
		Call: func(ctx context.Context, args json.RawMessage) lifecycle.ToolResult {
			if !h.reg.StillActive(ctx, x.ID, x.Commit) {
				return lifecycle.ToolResult{Text: fmt.Sprintf("%s was disabled, removed or changed since this turn began (perhaps in another AgentDesk window); the tool %s did not run",
					safetext.Strip(x.Label), safetext.Strip(tool)), IsError: true}
			}
			if h.reg.ToolOff(ctx, x.ID, server, tool) {
				return lifecycle.ToolResult{Text: fmt.Sprintf("the tool %s of %s › %s is switched off (on its card in Preferences → Agent Extensions); it did not run",
					safetext.Strip(tool), safetext.Strip(x.Label), safetext.Strip(server)), IsError: true}
			}
			ctx, cancel := context.WithTimeout(ctx, h.callTimeout())
			defer cancel()
			ctx, done := h.inFlight(ctx, x.ID)
			defer done()
			text, isErr, err := conn.Call(ctx, tool, args, mcp.DefaultMaxResultBytes)
			if errors.Is(context.Cause(ctx), errGoneMidCall) {
				return lifecycle.ToolResult{Text: fmt.Sprintf("%s was disabled, removed or changed while the tool %s ran (perhaps in another AgentDesk window): the call was cancelled, and it may have done part of its work",
					safetext.Strip(x.Label), safetext.Strip(tool)), IsError: true}
			}
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
	return shorten(manifest.MCPToolName(plugin, server, tool))
}

// shorten fits a name in maxToolName, ending it with a hash of the whole.
func shorten(name string) string {
	if len(name) <= maxToolName {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return name[:maxToolName-9] + "_" + hex.EncodeToString(sum[:4])
}

// inFlight registers a call of extension id's tools until done, so Stop
// can cancel it.
func (h *MCP) inFlight(ctx context.Context, id string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	key := &cancel
	h.cmu.Lock()
	if h.calls[id] == nil {
		h.calls[id] = map[*context.CancelCauseFunc]bool{}
	}
	h.calls[id][key] = true
	h.cmu.Unlock()
	return ctx, func() {
		h.cmu.Lock()
		delete(h.calls[id], key)
		if len(h.calls[id]) == 0 {
			delete(h.calls, id)
		}
		h.cmu.Unlock()
		cancel(nil)
	}
}

// cancelCalls cancels the calls in flight of extension id (of every
// extension when id is "") and reports whether there were any.
func (h *MCP) cancelCalls(id string) bool {
	h.cmu.Lock()
	defer h.cmu.Unlock()
	any := false
	for owner, calls := range h.calls {
		if id != "" && owner != id {
			continue
		}
		for cancel := range calls {
			(*cancel)(errGoneMidCall)
			any = true
		}
	}
	return any
}

// Stop ends every server of an extension (all of them when id is ""),
// returning when their process groups are gone. Its calls in flight are
// cancelled first (the servers get notifications/cancelled) and answer
// that the extension went while they ran.
func (h *MCP) Stop(id string) {
	if h.cancelCalls(id) {
		time.Sleep(cancelGrace)
	}
	h.removal.forget(id)
	h.sup.Close(func(k Key) bool { return id == "" || k.Owner == id })
}

// Close ends every server; the app calls it as it quits.
func (h *MCP) Close() { h.Stop("") }

// Restart stops an extension's server (in every project) so the next
// turn starts it again (the card's Restart).
func (h *MCP) Restart(id, server string) {
	h.sup.Close(func(k Key) bool { return k.Owner == id && k.Name == server })
}

// AddState fills in what each server of info is doing now, for the card,
// and which of the variables it reads are AgentDesk's own secrets.
func (h *MCP) AddState(info *extensions.Info) {
	for i, s := range info.MCPServers {
		for _, name := range s.UserEnv {
			if h.env.appSecret(name) && !slices.Contains(s.Withheld, name) {
				info.MCPServers[i].Withheld = append(info.MCPServers[i].Withheld, name)
			}
		}
	}
	h.addNaming(info)
	states := h.sup.Latest(info.ID)
	for i, s := range info.MCPServers {
		st, ok := states[s.Name]
		if !ok || s.State == extensions.MCPInactive {
			continue
		}
		out := &info.MCPServers[i]
		out.State, out.Error, out.Stderr, out.Pid, out.Tools = st.State.String(), st.Error, st.Stderr, st.Pid, nil
		if st.Live {
			st.Conn.mu.Lock()
			for _, t := range st.Conn.tools {
				name := t.Name
				if t.Problem != "" {
					name += " (left out: " + t.Problem + ")"
				}
				out.Tools = append(out.Tools, safetext.Strip(name))
			}
			st.Conn.mu.Unlock()
			slices.Sort(out.Tools)
		}
	}
}

// addNaming notes on the card a server whose tool names collide with
// another enabled server's, and how its tools are named instead.
func (h *MCP) addNaming(info *extensions.Info) {
	actives := h.reg.Active(context.Background())
	names := namings(actives)
	labels := map[string]string{}
	for _, x := range actives {
		labels[x.ID] = x.Label
	}
	for i, s := range info.MCPServers {
		n := names[serverRef{info.ID, s.Name}]
		if len(n.alike) == 0 {
			continue
		}
		out := &info.MCPServers[i]
		out.ToolPrefix, out.SameNameAs = n.prefix, nil
		for _, o := range n.alike {
			out.SameNameAs = append(out.SameNameAs, safetext.Strip(cmp.Or(labels[o.ext], o.ext)+" › "+o.server))
		}
	}
}

// ErrNotRemote: only remote servers sign in.
var ErrNotRemote = errors.New("only a remote (http or sse) MCP server signs in")

// SignIn signs in to an enabled extension's remote server: the browser
// opens at its authorization page (OAuth 2.1 with PKCE, a loopback
// redirect), the credentials go to the OS keyring, and the server starts
// again with the next prompt. Without a browser (agentdesk run) it fails
// and says where to sign in.
func (h *MCP) SignIn(ctx context.Context, id, server string) error {
	x, decl, err := h.remoteServer(ctx, id, server)
	if err != nil {
		return err
	}
	launch := h.env.expand(x, decl, "")
	creds, err := mcp.SignIn(ctx, mcp.SignInSpec{URL: launch.URL, Headers: launch.Headers, HTTPClient: h.cfg.HTTPClient,
		ClientID: decl.OAuthClientID, CallbackPort: decl.OAuthCallbackPort, OpenBrowser: h.cfg.OpenBrowser})
	if err != nil {
		return err
	}
	h.reg.KeepMCPCredentials(id, server, creds)
	h.Restart(id, server)
	return nil
}

// SignOut forgets a server's sign-in and stops it.
func (h *MCP) SignOut(_ context.Context, id, server string) error {
	if err := h.reg.ForgetMCPCredentials(id, server); err != nil {
		return err
	}
	h.Restart(id, server)
	return nil
}

func (h *MCP) remoteServer(ctx context.Context, id, server string) (extensions.Active, manifest.MCPServer, error) {
	for _, x := range h.reg.Active(ctx) {
		if x.ID != id {
			continue
		}
		for _, s := range x.Servers() {
			if s.Name != server {
				continue
			}
			if s.Type == manifest.MCPStdio {
				return x, s, ErrNotRemote
			}
			return x, s, nil
		}
	}
	return extensions.Active{}, manifest.MCPServer{}, fmt.Errorf("%s has no enabled MCP server %q", id, server)
}

func (h *MCP) startTimeout() time.Duration {
	if h.cfg.StartTimeout != nil {
		if t := h.cfg.StartTimeout(); t > 0 {
			return t
		}
	}
	return mcp.DefaultStartTimeout
}

func (h *MCP) callTimeout() time.Duration {
	if h.cfg.CallTimeout != nil {
		if t := h.cfg.CallTimeout(); t > 0 {
			return t
		}
	}
	return mcp.DefaultCallTimeout
}

// ToolsChanged reports whether a ready server of id said its tool list
// changed since it was last read: the next turn reads it again.
func (h *MCP) ToolsChanged(id string) bool {
	for _, st := range h.sup.Latest(id) {
		if !st.Live {
			continue
		}
		st.Conn.mu.Lock()
		stale := st.Conn.stale
		st.Conn.mu.Unlock()
		if stale {
			return true
		}
	}
	return false
}
