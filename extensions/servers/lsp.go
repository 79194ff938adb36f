package servers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/lsp"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// LSPConfig wires an LSP host.
type LSPConfig struct {
	// PATH, Environ, LookupEnv and AppSecrets are as for MCPConfig: the
	// same PATH and environment hooks and MCP servers get.
	PATH       func() string
	Environ    func() []string
	LookupEnv  func(string) (string, bool)
	AppSecrets func() []string
	// DiagnosticsWait bounds how long a write's result waits for a ready
	// server's diagnostics; nil or 0 → DefaultDiagnosticsWait.
	DiagnosticsWait func() time.Duration
}

// Bounds of the LSP host.
const (
	// DefaultDiagnosticsWait is how long a write waits for the covering
	// server's diagnostics once it is ready.
	DefaultDiagnosticsWait = 3 * time.Second
	// DefaultLSPStartTimeout bounds a start (process and initialize) when
	// the declaration's startupTimeout sets none.
	DefaultLSPStartTimeout = 60 * time.Second
	// DefaultLSPRestarts is how often a server with restartOnCrash and no
	// maxRestarts is started again after it crashed.
	DefaultLSPRestarts = 3
	// lspQueryTimeout bounds one lsp tool call once the server is ready.
	lspQueryTimeout = 30 * time.Second
	// settleQuiet is the pause in publishing after which the other files
	// an edit affected are taken as published.
	settleQuiet = 150 * time.Millisecond
	// maxScanEntries bounds the walk that tells which languages a project
	// holds; coverTTL is how long its answer is kept.
	maxScanEntries = 20_000
	coverTTL       = 30 * time.Second
	// maxFileBytes is the largest file whose text a result's line is read
	// from.
	maxFileBytes = 8 << 20
)

// LSP hosts the enabled extensions' language servers: one process per
// (server, project), started lazily through agent/childproc the first
// time a file it covers is read, written or asked about, supervised by
// the same Supervisor as MCP servers. It implements lifecycle.CodeIntel.
type LSP struct {
	reg     Hosted
	cfg     LSPConfig
	env     launchEnv
	sup     *Supervisor[*lsp.Server]
	removal *removalWatch

	mu     sync.Mutex
	docGen map[string]uint64 // by server key and path: bumped by every write, so a late read's text never overwrites it
	scans  map[string]projectScan
}

// projectScan is which file suffixes a project holds.
type projectScan struct {
	suffixes map[string]bool
	at       time.Time
}

var _ lifecycle.CodeIntel = (*LSP)(nil)

// NewLSP returns the host of reg's language servers; nothing starts
// until a covered file is used.
func NewLSP(reg Hosted, cfg LSPConfig) *LSP {
	h := &LSP{reg: reg, cfg: cfg, env: newLaunchEnv(cfg.PATH, cfg.Environ, cfg.LookupEnv, cfg.AppSecrets),
		docGen: map[string]uint64{}, scans: map[string]projectScan{}}
	h.sup = NewSupervisor[*lsp.Server](Config{StartTimeout: func() time.Duration { return DefaultLSPStartTimeout }})
	h.removal = newRemovalWatch(reg, h.sup.Has, h.Stop)
	return h
}

// Changed returns a channel closed the next time a server's state
// changes (for the cards).
func (h *LSP) Changed() <-chan struct{} { return h.sup.Changed() }

// covering is the server that covers a file, and the file's language.
type covering struct {
	x    extensions.Active
	decl manifest.LSPServer
	lang string
}

// find is the first server, in installation order, that covers path.
func (h *LSP) find(ctx context.Context, project, path string) (covering, bool) {
	for _, x := range h.reg.Active(extensions.WithProject(ctx, project)) {
		for _, decl := range x.LSPServers() {
			if lang, ok := decl.Language(path); ok {
				return covering{x: x, decl: decl, lang: lang}, true
			}
		}
	}
	return covering{}, false
}

func (c covering) key(project string) Key {
	return Key{Owner: c.x.ID, Name: c.decl.Name, Project: project}
}

// who names the server for the model and the user: "gopls (Go LSP)".
func (c covering) who() string { return safetext.Strip(c.decl.Name + " (" + c.x.Label + ")") }

// ensure starts c's server for project unless it runs.
func (h *LSP) ensure(c covering, project string) *Entry[*lsp.Server] {
	b := Bounds{StartTimeout: time.Duration(c.decl.StartupTimeoutMS) * time.Millisecond, MaxRestarts: -1}
	if c.decl.RestartOnCrash {
		b.MaxRestarts = c.decl.MaxRestarts
		if b.MaxRestarts <= 0 {
			b.MaxRestarts = DefaultLSPRestarts
		}
	}
	e := h.sup.EnsureWith(c.key(project), c.x.Dir, func() func() { return h.reg.Lease(c.x.Dir) }, h.starter(c.x, c.decl, project), b)
	h.removal.watch(c.x.ID, c.x.Commit)
	return e
}

// starter starts one server for project: confined, writing the project
// and its data folder, with the hooks' environment.
func (h *LSP) starter(x extensions.Active, decl manifest.LSPServer, project string) StartFunc[*lsp.Server] {
	return func(ctx context.Context) (*lsp.Server, string, error) {
		if err := checkFiles(h.reg, x); err != nil {
			return nil, "", err
		}
		launch := h.env.expand(x, decl.AsMCP(), project)
		path, env, err := h.env.stdio(x, launch, project, "LSP")
		if err != nil {
			return nil, "", err
		}
		root := project
		if decl.WorkspaceFolder != "" {
			root = manifest.ExpandArgv([]string{decl.WorkspaceFolder}, manifest.Vars{PluginRoot: x.Dir, PluginData: x.Data, ProjectDir: project, Options: x.OptionArgv})[0]
			if !filepath.IsAbs(root) {
				root = filepath.Join(project, root)
			}
		}
		srv, err := lsp.Start(ctx, lsp.Spec{Path: path, Argv: launch.Argv, Dir: project, Env: env, Owner: x.ID,
			Sandbox: childproc.Sandbox{Unconfined: x.Unconfined, Write: []string{project, x.Data}, Read: []string{x.Dir}},
			Root:    root, InitOptions: decl.InitializationOptions, Settings: decl.Settings,
			ShutdownTimeout: time.Duration(decl.ShutdownTimeoutMS) * time.Millisecond})
		if err != nil {
			var se *lsp.StartError
			if errors.As(err, &se) {
				return nil, se.Stderr, err
			}
			return nil, "", err
		}
		return srv, "", nil
	}
}

// ready waits, within the server's start bound and ctx, for e to run,
// reporting that it starts; it returns the server or why there is none.
func (h *LSP) ready(ctx context.Context, c covering, e *Entry[*lsp.Server]) (*lsp.Server, error) {
	reported := false
	for {
		changed := h.sup.Changed()
		snap := h.sup.Snapshot(e)
		switch {
		case snap.State == Ready && snap.Live:
			return snap.Conn, nil
		case snap.State != Starting:
			msg := snap.Error
			if msg == "" {
				msg = snap.State.String()
			}
			return nil, fmt.Errorf("%s is unavailable (%s): restart it on its card in Preferences → Agent Extensions", c.who(), msg)
		}
		if !reported {
			lifecycle.ReportStatus(ctx, "starting "+c.decl.Name+"…")
			reported = true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("%s is still starting", c.who())
		}
	}
}

func (h *LSP) docKey(c covering, project, path string) string {
	k := c.key(project)
	return k.Owner + "\x00" + k.Name + "\x00" + k.Project + "\x00" + path
}

// Covers implements lifecycle.CodeIntel: some enabled server covers a
// file suffix the project holds.
func (h *LSP) Covers(ctx context.Context, project string) bool {
	var exts []string
	for _, x := range h.reg.Active(extensions.WithProject(ctx, project)) {
		for _, decl := range x.LSPServers() {
			for _, nv := range decl.ExtensionToLanguage {
				ext := strings.ToLower(nv.Name)
				if !strings.HasPrefix(ext, ".") {
					ext = "." + ext
				}
				exts = append(exts, ext)
			}
		}
	}
	if len(exts) == 0 || project == "" {
		return false
	}
	suffixes := h.scan(project)
	return slices.ContainsFunc(exts, func(e string) bool { return suffixes[e] })
}

// scan is the file suffixes the project holds (".go", and ".d.ts" for
// a two-dot name), from a bounded walk that skips hidden folders and
// dependency trees, kept for coverTTL.
func (h *LSP) scan(project string) map[string]bool {
	h.mu.Lock()
	s, ok := h.scans[project]
	h.mu.Unlock()
	if ok && time.Since(s.at) < coverTTL {
		return s.suffixes
	}
	found := map[string]bool{}
	seen := 0
	filepath.WalkDir(project, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxScanEntries {
			return filepath.SkipAll
		}
		name := strings.ToLower(d.Name())
		if d.IsDir() {
			if path != project && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || name == "__pycache__") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(name); ext != "" {
			found[ext] = true
			if ext2 := filepath.Ext(strings.TrimSuffix(name, ext)); ext2 != "" {
				found[ext2+ext] = true
			}
		}
		return nil
	})
	h.mu.Lock()
	h.scans[project] = projectScan{suffixes: found, at: time.Now()}
	h.mu.Unlock()
	return found
}

// FileRead implements lifecycle.CodeIntel: the covering server gets the
// text the agent read (didOpen, or didChange when it differs), once it
// runs; nothing waits for it.
func (h *LSP) FileRead(ctx context.Context, project, path, text string) {
	c, ok := h.find(ctx, project, path)
	if !ok {
		return
	}
	e := h.ensure(c, project)
	dk := h.docKey(c, project, path)
	h.mu.Lock()
	gen := h.docGen[dk]
	h.mu.Unlock()
	sync := func(srv *lsp.Server) {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.docGen[dk] != gen || srv.Current(path, text) {
			return // a write since sent newer text, or the server has it
		}
		srv.Sync(path, c.lang, text)
	}
	if snap := h.sup.Snapshot(e); snap.State == Ready && snap.Live {
		sync(snap.Conn)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), DefaultLSPStartTimeout)
		defer cancel()
		if srv, err := h.ready(ctx, c, e); err == nil {
			sync(srv)
		}
	}()
}

// FileWritten implements lifecycle.CodeIntel: the covering server gets the
// new text (didChange or didOpen, then didSave), and the errors and
// warnings it then publishes for the file, and for the other files that
// broke because of it, are returned for the write's result. It waits for
// a server still starting (within its start bound; the result says how
// long that took), then at most the diagnostics wait.
func (h *LSP) FileWritten(ctx context.Context, project, path, text string) string {
	c, ok := h.find(ctx, project, path)
	if !ok {
		return ""
	}
	e := h.ensure(c, project)
	dk := h.docKey(c, project, path)
	h.mu.Lock()
	h.docGen[dk]++
	h.mu.Unlock()
	var notes []string
	startWait := time.Now()
	wasStarting := h.sup.Snapshot(e).State == Starting
	srv, err := h.ready(ctx, c, e)
	if err != nil {
		if h.sup.Announce(e, err.Error()) {
			return "(no diagnostics: " + err.Error() + ")"
		}
		return ""
	}
	h.sup.Announce(e, "")
	if wasStarting {
		notes = append(notes, fmt.Sprintf("%s started for this file (%.1f s)", c.decl.Name, time.Since(startWait).Seconds()))
	}
	since := time.Now()
	h.mu.Lock()
	v, err := srv.Sync(path, c.lang, text)
	if err == nil {
		err = srv.Save(path)
	}
	h.mu.Unlock()
	if err != nil {
		return "(no diagnostics: " + c.who() + " did not take the change: " + err.Error() + ")"
	}
	if busy := srv.Busy(); busy != "" {
		lifecycle.ReportStatus(ctx, c.decl.Name+": "+busy+"…")
	}
	wait, cancel := context.WithTimeout(ctx, h.diagnosticsWait())
	defer cancel()
	got := srv.WaitDiagnostics(wait, path, v, since)
	if got {
		srv.Settle(wait, settleQuiet)
	}
	lifecycle.ReportStatus(ctx, "")
	read := h.files(project)
	ds := lsp.Convert(project, path, text, srv.Diagnostics(path))
	for other, list := range srv.PublishedSince(since, path) {
		if src, ok := read(other); ok {
			ds = append(ds, lsp.Convert(project, other, src, list)...)
		}
	}
	shown := lsp.FormatDiagnostics(ds)
	if !got {
		why := fmt.Sprintf("%s published no diagnostics for this change within %s", c.decl.Name, h.diagnosticsWait())
		if busy := srv.Busy(); busy != "" {
			why += " (it is busy: " + busy + ")"
		}
		notes = append(notes, why)
	}
	var b strings.Builder
	if shown != "" {
		b.WriteString(lsp.DiagnosticsHeader + c.decl.Name + ":\n" + shown)
	}
	if len(notes) > 0 {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("(" + strings.Join(notes, "; ") + ")")
	}
	return safetext.Strip(b.String())
}

// Query implements lifecycle.CodeIntel: one lsp tool call, answered by
// the server that covers the file (started when needed).
func (h *LSP) Query(ctx context.Context, project string, q lifecycle.CodeQuery) lifecycle.ToolResult {
	c, ok := h.find(ctx, project, q.Path)
	if !ok {
		return lifecycle.ToolResult{Text: fmt.Sprintf("no enabled language server covers %s (%s)", lsp.Rel(project, q.Path), h.coveredText(ctx, project)), IsError: true}
	}
	e := h.ensure(c, project)
	srv, err := h.ready(ctx, c, e)
	if err != nil {
		return lifecycle.ToolResult{Text: err.Error(), IsError: true}
	}
	h.mu.Lock()
	if !srv.Current(q.Path, q.Text) {
		srv.Sync(q.Path, c.lang, q.Text)
	}
	h.mu.Unlock()
	defer lifecycle.ReportStatus(ctx, "")
	if busy := srv.Busy(); busy != "" {
		lifecycle.ReportStatus(ctx, c.decl.Name+": "+busy+"…")
	}
	qctx, cancel := context.WithTimeout(ctx, lspQueryTimeout)
	defer cancel()
	text, err := srv.Answer(qctx, project, lsp.Request{Operation: q.Operation, Path: q.Path, Text: q.Text, Line: q.Line,
		Character: q.Character, Query: q.Query}, h.files(project))
	if err != nil {
		return lifecycle.ToolResult{Text: fmt.Sprintf("%s: %v", c.who(), err), IsError: true}
	}
	return lifecycle.ToolResult{Text: safetext.Strip(text)}
}

// coveredText names the files the enabled servers cover, for an answer
// that none covers the one asked about.
func (h *LSP) coveredText(ctx context.Context, project string) string {
	var parts []string
	for _, x := range h.reg.Active(extensions.WithProject(ctx, project)) {
		for _, decl := range x.LSPServers() {
			var exts []string
			for _, nv := range decl.ExtensionToLanguage {
				exts = append(exts, nv.Name)
			}
			parts = append(parts, decl.Name+": "+strings.Join(exts, " "))
		}
	}
	if len(parts) == 0 {
		return "no language server is enabled"
	}
	return "enabled: " + strings.Join(parts, "; ")
}

// files reads the text of files inside the project, through an os.Root
// so a symlink cannot lead out of it; files outside are shown, not read.
func (h *LSP) files(project string) lsp.Files {
	return func(path string) (string, bool) {
		rel, err := filepath.Rel(project, path)
		if err != nil || !filepath.IsLocal(rel) {
			return "", false
		}
		root, err := os.OpenRoot(project)
		if err != nil {
			return "", false
		}
		defer root.Close()
		f, err := root.Open(rel)
		if err != nil {
			return "", false
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxFileBytes))
		if err != nil {
			return "", false
		}
		return string(b), true
	}
}

func (h *LSP) diagnosticsWait() time.Duration {
	if h.cfg.DiagnosticsWait != nil {
		if d := h.cfg.DiagnosticsWait(); d > 0 {
			return d
		}
	}
	return DefaultDiagnosticsWait
}

// AddState fills in what each language server of info is doing now, for
// the card and `ext show --json`.
func (h *LSP) AddState(info *extensions.Info) {
	states := h.sup.Latest(info.ID)
	for i, s := range info.LSPServers {
		st, ok := states[s.Name]
		if !ok || s.State == extensions.LSPInactive {
			continue
		}
		out := &info.LSPServers[i]
		out.State, out.Error, out.Stderr, out.Restarts, out.Pid = st.State.String(), st.Error, st.Stderr, st.Restarts, st.Pid
		if st.Live {
			out.Busy = safetext.Strip(st.Conn.Busy())
		}
	}
}

// Stop ends every language server of an extension (all of them when id
// is ""): shutdown and exit within its shutdown timeout, then its
// process group; it returns when they are gone.
func (h *LSP) Stop(id string) {
	h.removal.forget(id)
	h.sup.Close(func(k Key) bool { return id == "" || k.Owner == id })
}

// Close ends every server; the app calls it as it quits.
func (h *LSP) Close() { h.Stop("") }

// Restart stops a server (in every project) so the next covered file
// starts it again (the card's Restart).
func (h *LSP) Restart(id, server string) {
	h.sup.Close(func(k Key) bool { return k.Owner == id && k.Name == server })
}
