// Package dispatch serves the enabled extensions to the agent loop: the
// Dispatcher implements the lifecycle contract (agent/lifecycle: context
// and guard hooks, run history), the skill, command and agent sets, and
// the loop's MCP tools through the server host (extensions/servers). It
// reads the registry through Registry, which *extensions.Manager
// implements, so it is tested with in-memory extensions as well.
package dispatch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/servers"
	"github.com/agentdesk/agentdesk/storage"
)

// Registry is what the Dispatcher reads and writes of the installed
// extensions (*extensions.Manager implements it).
type Registry interface {
	// Active lists the enabled, trusted extensions in installation order.
	Active(ctx context.Context) []extensions.Active
	// StillActive reports whether id is still enabled and trusted at
	// commit (the row may have been changed by another process).
	StillActive(ctx context.Context, id, commit string) bool
	// Lease keeps a version folder from being deleted while hooks run
	// from it.
	Lease(dir string) (release func())
	// MarkForReview pauses an extension whose files changed on disk.
	MarkForReview(ctx context.Context, id, reason string) error
	// RecordRun keeps one hook run in the run history.
	RecordRun(run storage.HookRun)
	// OnRemove registers f, called with an extension's id before it is
	// disabled, uninstalled or switched to another version.
	OnRemove(f func(id string))
}

// Dispatcher serves the enabled extensions to the agent loop: it
// implements lifecycle.Lifecycle, lifecycle.ToolSource (the MCP host's
// tools), lifecycle.CommandSource, lifecycle.AgentSource and
// agent.SkillSource, and stops an extension's hooks, the processes they
// left running and its servers when it is disabled, updated or removed.
type Dispatcher struct {
	reg            Registry
	mcp            *servers.MCP
	lsp            *servers.LSP
	linger         *childproc.Linger // what successful hooks left running, by extension
	hookPATH       func() string
	defaultTimeout func() time.Duration
	environ        func() []string

	mu        sync.Mutex
	running   map[string]map[*context.CancelFunc]struct{} // by extension: cancels of running events
	announced map[string]string                           // extension → failure already shown in the chat
	agents    *agentMemo                                  // the latest agent set (Agents)
	// removedAt is, by extension, the count of removals (stop) at its
	// latest: a turn's snapshot leaves out what was removed after it was
	// taken (turnList).
	removedAt map[string]uint64
	removals  atomic.Uint64
}

// Config wires a Dispatcher.
type Config struct {
	HookPATH       func() string        // PATH hooks get (login-shell PATH or the Preferences override)
	DefaultTimeout func() time.Duration // Preferences; 0 → hookrun.DefaultTimeout
	Environ        func() []string      // the app's environment, filtered by the allowlist; nil → os.Environ
	// MCP hosts the extensions' MCP servers; nil → one over the same
	// registry with the hooks' PATH and environment and default bounds.
	MCP *servers.MCP
	// LSP hosts the extensions' language servers; nil → one over the
	// same registry with the hooks' PATH and environment.
	LSP *servers.LSP
}

// New returns the dispatcher for reg's extensions. Disabling, updating
// or uninstalling an extension stops its running hooks, what they left
// running and its MCP servers.
func New(reg Registry, cfg Config) *Dispatcher {
	d := &Dispatcher{reg: reg, mcp: cfg.MCP, lsp: cfg.LSP, linger: childproc.NewLinger(), hookPATH: cfg.HookPATH, defaultTimeout: cfg.DefaultTimeout,
		environ: cfg.Environ, running: map[string]map[*context.CancelFunc]struct{}{}, announced: map[string]string{},
		removedAt: map[string]uint64{}}
	if d.hookPATH == nil {
		d.hookPATH = func() string { return os.Getenv("PATH") }
	}
	if d.defaultTimeout == nil {
		d.defaultTimeout = func() time.Duration { return hookrun.DefaultTimeout }
	}
	if d.environ == nil {
		d.environ = os.Environ
	}
	if d.mcp == nil {
		if mreg, ok := reg.(servers.Registry); ok {
			d.mcp = servers.NewMCP(mreg, servers.MCPConfig{PATH: d.hookPATH, Environ: d.environ})
		}
	}
	if d.lsp == nil {
		if hreg, ok := reg.(servers.Hosted); ok {
			d.lsp = servers.NewLSP(hreg, servers.LSPConfig{PATH: d.hookPATH, Environ: d.environ})
		}
	}
	reg.OnRemove(d.stop)
	return d
}

var (
	_ lifecycle.Lifecycle  = (*Dispatcher)(nil)
	_ lifecycle.ToolSource = (*Dispatcher)(nil)
	_ lifecycle.TurnScope  = (*Dispatcher)(nil)
	_ lifecycle.CodeIntel  = (*Dispatcher)(nil)
)

// Tools implements lifecycle.ToolSource: the MCP host's tools for the
// project (none without a host).
func (d *Dispatcher) Tools(ctx context.Context, ev lifecycle.ToolsEvent) lifecycle.ToolSet {
	if d.mcp == nil {
		return lifecycle.ToolSet{}
	}
	return d.mcp.Tools(ctx, ev)
}

// Covers implements lifecycle.CodeIntel through the LSP host.
func (d *Dispatcher) Covers(ctx context.Context, projectDir string) bool {
	return d.lsp != nil && d.lsp.Covers(ctx, projectDir)
}

// FileRead implements lifecycle.CodeIntel through the LSP host.
func (d *Dispatcher) FileRead(ctx context.Context, projectDir, path, text string) {
	if d.lsp != nil {
		d.lsp.FileRead(ctx, projectDir, path, text)
	}
}

// FileWritten implements lifecycle.CodeIntel through the LSP host.
func (d *Dispatcher) FileWritten(ctx context.Context, projectDir, path, text string) string {
	if d.lsp == nil {
		return ""
	}
	return d.lsp.FileWritten(ctx, projectDir, path, text)
}

// Query implements lifecycle.CodeIntel through the LSP host.
func (d *Dispatcher) Query(ctx context.Context, projectDir string, q lifecycle.CodeQuery) lifecycle.ToolResult {
	if d.lsp == nil {
		return lifecycle.ToolResult{Text: "no language server host", IsError: true}
	}
	return d.lsp.Query(ctx, projectDir, q)
}

// LSP is the language server host (the cards' Restart and live state);
// nil when it has none.
func (d *Dispatcher) LSP() *servers.LSP { return d.lsp }

// MCP is the server host the dispatcher uses (the cards' Restart, Sign
// in and live state); nil when it has none.
func (d *Dispatcher) MCP() *servers.MCP { return d.mcp }

// AddState fills in what runs now for an extension's card: its MCP
// servers' states and the processes its hooks left running.
func (d *Dispatcher) AddState(info *extensions.Info) {
	info.Lingering = d.linger.Pids(info.ID)
	slices.Sort(info.Lingering)
	if d.mcp != nil {
		d.mcp.AddState(info)
	}
	if d.lsp != nil {
		d.lsp.AddState(info)
	}
}

// Close ends every MCP server and whatever hooks left running; the app
// calls it as it quits.
func (d *Dispatcher) Close() {
	var wg sync.WaitGroup // language servers take seconds to shut down: all at once
	if d.mcp != nil {
		wg.Go(d.mcp.Close)
	}
	if d.lsp != nil {
		wg.Go(d.lsp.Close)
	}
	wg.Wait()
	d.linger.StopAll()
}

// BeginTurn implements lifecycle.TurnScope: it takes the snapshot of
// the enabled extensions that every consumer of the turn started with
// ctx uses (extensions.Snapshot). A turn inside one (a subagent's, a
// Ralph round's) keeps its parent's.
func (d *Dispatcher) BeginTurn(ctx context.Context, projectDir string) context.Context {
	if _, ok := extensions.SnapshotOf(extensions.WithProject(ctx, projectDir)); ok {
		return ctx
	}
	seq := d.removals.Load() // before the read: a removal during it counts as after
	list := d.reg.Active(extensions.WithProject(ctx, projectDir))
	snap := extensions.NewSnapshot(projectDir, list)
	snap.Seq = seq
	return extensions.WithSnapshot(ctx, snap)
}

// turnList is xs of the turn's snapshot s less what this process
// disabled, removed or updated since s was taken: the rest of the turn
// runs no hook of it and sends none of its context. fresh: nothing was
// (the common case), so what is derived from s holds.
func (d *Dispatcher) turnList(s *extensions.Snapshot, xs []extensions.Active) (out []extensions.Active, fresh bool) {
	if d.removals.Load() == s.Seq {
		return xs, true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, x := range xs {
		if d.removedAt[x.ID] <= s.Seq {
			out = append(out, x)
		}
	}
	return out, false
}

// active is the turn's snapshot when ctx carries one for its folder,
// else what the registry holds now.
func (d *Dispatcher) active(ctx context.Context) []extensions.Active {
	xs, _ := d.listFor(ctx, "")
	return xs
}

// hooked are the extensions with an active hook for event: from the
// turn's snapshot's index, else filtered from the registry. Most
// extensions have no hook for an event and cost nothing.
func (d *Dispatcher) hooked(ctx context.Context, event string) []extensions.Active {
	if s, ok := extensions.SnapshotOf(ctx); ok {
		xs, _ := d.turnList(s, s.Hooked(event))
		return xs
	}
	var out []extensions.Active
	for _, x := range d.reg.Active(ctx) {
		if hasEvent(x.Pkg, event) {
			out = append(out, x)
		}
	}
	return out
}

// listFor is what a call for project in ctx sees: the turn's snapshot
// when ctx carries one for that folder, else what the registry holds
// now (a call outside a turn: the Skills and Agents views, a card), with
// the snapshot it came from (nil for the registry's).
func (d *Dispatcher) listFor(ctx context.Context, project string) ([]extensions.Active, *extensions.Snapshot) {
	ctx = extensions.WithProject(ctx, project)
	if s, ok := extensions.SnapshotOf(ctx); ok {
		if xs, fresh := d.turnList(s, s.Active); !fresh {
			return xs, nil
		}
		return s.Active, s
	}
	return d.reg.Active(ctx), nil
}

// memo keys of what the dispatcher derives from a turn's snapshot.
type (
	enabledMemo    struct{}
	skillRootsMemo struct{}
	agentKeyMemo   struct{}
)

// memoized is build's answer for xs, once per snapshot when xs came
// from one.
func memoized[T any](s *extensions.Snapshot, key any, build func() T) T {
	if s == nil {
		return build()
	}
	return s.Memo(key, func() any { return build() }).(T)
}

// Enabled implements lifecycle.Lifecycle.
func (d *Dispatcher) Enabled(ctx context.Context, project string) []string {
	xs, snap := d.listFor(ctx, project)
	return slices.Clone(memoized(snap, enabledMemo{}, func() []string {
		var ids []string
		for _, x := range xs {
			ids = append(ids, x.ID)
		}
		return ids
	}))
}

// SkillRoots implements agent.SkillSource: the skill folders of the
// extensions enabled in project, in installation order, each with its
// extension's active version folder for ${CLAUDE_PLUGIN_ROOT} and the
// version record's name (none for a project's own settings, whose files
// the user edits).
func (d *Dispatcher) SkillRoots(ctx context.Context, project string) []skills.Root {
	xs, snap := d.listFor(ctx, project)
	return slices.Clone(memoized(snap, skillRootsMemo{}, func() []skills.Root {
		var roots []skills.Root
		for _, x := range xs {
			var listed map[string]*skills.Listing
			if x.Version != "" { // an installed version; a project's own settings are read as the user edits them
				listed = listedByRoot(x.Pkg)
			}
			for _, dir := range x.Pkg.SkillRoots {
				roots = append(roots, skills.Root{Dir: dir, Source: "extension " + x.ID, PluginRoot: x.Dir, Version: x.Version,
					Listed: listed[dir]})
			}
		}
		return roots
	}))
}

// listedByRoot shares the skills pkg validated out to the skill roots
// they were found in (a root holding SKILL.md is the skill; else its
// subfolders are), for skills.Root.Listed. A package without skill
// roots, or one whose skills do not all fall in one of them, gives none:
// its folders are read as before.
func listedByRoot(pkg *manifest.Package) map[string]*skills.Listing {
	if len(pkg.SkillRoots) == 0 {
		return nil
	}
	out := map[string]*skills.Listing{}
	for _, dir := range pkg.SkillRoots {
		out[dir] = &skills.Listing{}
	}
	for _, s := range pkg.Skills {
		l := out[s.Dir]
		if l == nil {
			l = out[filepath.Dir(s.Dir)]
		}
		if l == nil {
			return nil
		}
		l.Skills = append(l.Skills, s)
	}
	return out
}

// SessionStart implements lifecycle.Lifecycle.
func (d *Dispatcher) SessionStart(ctx context.Context, ev lifecycle.SessionStartEvent) lifecycle.HookResult {
	in := map[string]any{"source": ev.Source, "model": ev.Model, "timestamp": time.Now().Format(time.RFC3339)}
	return d.dispatch(ctx, call{event: lifecycle.EventSessionStart, match: ev.Source, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath, mode: ev.PermissionMode, input: in})
}

// UserPromptSubmit implements lifecycle.Lifecycle. Matchers do not apply.
func (d *Dispatcher) UserPromptSubmit(ctx context.Context, ev lifecycle.PromptEvent) lifecycle.HookResult {
	in := map[string]any{"prompt": ev.Prompt}
	return d.dispatch(ctx, call{event: lifecycle.EventUserPromptSubmit, session: ev.SessionID, project: ev.ProjectDir,
		transcript: ev.TranscriptPath, mode: ev.PermissionMode, input: in})
}

// SubagentStart implements lifecycle.Lifecycle.
func (d *Dispatcher) SubagentStart(ctx context.Context, ev lifecycle.SubagentEvent) lifecycle.HookResult {
	in := map[string]any{"agent_id": ev.AgentID, "agent_type": ev.AgentType, "parent_session_id": ev.ParentSessionID}
	if ev.Round > 0 {
		in["round"] = ev.Round
	}
	return d.dispatch(ctx, call{event: lifecycle.EventSubagentStart, match: ev.AgentType, session: ev.SessionID, project: ev.ProjectDir,
		mode: ev.PermissionMode, input: in})
}

// call is one lifecycle event to dispatch.
type call struct {
	event, match string
	// aliases are other names the matcher may match: Claude Code's names
	// of the tool whose call this is.
	aliases          []string
	session, project string
	transcript       string // transcript_path
	mode             string // permission_mode; "" is "default"
	input            map[string]any
	// quiet: the caller ignores the output, so a failure is only recorded
	// (run history, the card) and neither takes nor clears the one chat
	// notice per failure that the other events show.
	quiet bool
}

// meets tests a hook's "if" against the call's tool input. A condition
// that no longer compiles lets the hook run (validation noted it).
func (c call) meets(cond string) bool {
	compiled, err := manifest.CompileCondition(cond)
	if err != nil {
		return true
	}
	input, _ := c.input["tool_input"].(json.RawMessage)
	for _, alias := range c.aliases {
		if compiled.Match(c.match, alias, input, c.project) {
			return true
		}
	}
	return compiled.Match(c.match, "", input, c.project)
}

// stdin is the hook's JSON input: the common fields plus the event's.
func (c call) stdin() []byte {
	mode := c.mode
	if mode == "" {
		mode = "default"
	}
	in := map[string]any{"session_id": c.session, "transcript_path": c.transcript, "cwd": c.project,
		"hook_event_name": c.event, "permission_mode": mode}
	for k, v := range c.input {
		in[k] = v
	}
	b, _ := json.Marshal(in)
	return fitPrompt(in, b)
}

// fitPrompt keeps a hook's input within hookrun.MaxStdin by cutting the
// user's prompt (the one field that can be that long) and saying so with
// "prompt_truncated": true. A long prompt is the user's right, never a
// hook failure.
func fitPrompt(in map[string]any, b []byte) []byte {
	prompt, ok := in["prompt"].(string)
	for ok && len(b) > hookrun.MaxStdin && prompt != "" {
		// JSON escaping may make the text longer than its bytes: keep the
		// share that fits, less a margin, then measure again.
		cut := int(int64(len(prompt))*int64(hookrun.MaxStdin-4096)/int64(len(b))) - 64
		cut = max(cut, 0)
		for cut > 0 && !utf8.RuneStart(prompt[cut]) {
			cut--
		}
		prompt = prompt[:cut]
		in["prompt"], in["prompt_truncated"] = prompt, true
		b, _ = json.Marshal(in)
	}
	return b
}

// extResult is what one extension produced for an event.
type extResult struct {
	id, label string
	block     *lifecycle.ContextBlock
	notices   []lifecycle.Notice
	guard     guardResult
}

// dispatch runs every enabled extension's matching hooks, extensions
// concurrently, and merges their results in installation order so the
// outcome does not depend on which hook finished first.
func (d *Dispatcher) dispatch(ctx context.Context, c call) lifecycle.HookResult {
	return mergeContext(d.run(ctx, c))
}

// run runs the matching hooks of every enabled extension, extensions
// concurrently, and returns their results in installation order.
func (d *Dispatcher) run(ctx context.Context, c call) []extResult {
	ctx = extensions.WithProject(ctx, c.project) // the project's own settings count for its sessions only
	exts := d.hooked(ctx, c.event)
	results := make([]extResult, len(exts))
	var wg sync.WaitGroup
	for i, x := range exts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = d.runExtension(ctx, x, c)
			results[i].id, results[i].label = x.ID, x.Label
		}()
	}
	wg.Wait()
	return results
}

// mergeContext joins the extensions' context blocks and notices in
// installation order.
func mergeContext(results []extResult) lifecycle.HookResult {
	var out lifecycle.HookResult
	for _, r := range results {
		if r.block != nil {
			out.Blocks = append(out.Blocks, *r.block)
		}
		out.Notices = append(out.Notices, r.notices...)
	}
	return out
}

// matches tests a compiled matcher against the call's name and aliases.
func (c call) matches(m manifest.Matcher) bool {
	if m.Match(c.match) {
		return true
	}
	for _, alias := range c.aliases {
		if alias != "" && m.Match(alias) {
			return true
		}
	}
	return false
}

// hasEvent reports whether pkg has an active hook for event.
func hasEvent(pkg *manifest.Package, event string) bool {
	for _, h := range pkg.Hooks {
		if h.Event == event && h.Inactive == "" {
			return true
		}
	}
	return false
}

// matching returns the hooks of x for c in manifest order, each (argv)
// once, without inactive ones.
func matching(pkg *manifest.Package, c call) []manifest.Hook {
	seen := map[string]bool{}
	spec, _ := lifecycle.LookupEvent(c.event)
	var out []manifest.Hook
	for _, h := range pkg.Hooks {
		if h.Event != c.event || h.Inactive != "" || seen[h.Key()] {
			continue
		}
		if spec.MatcherField != "" { // the event table: "" means matchers do not apply
			m, err := manifest.CompileMatcher(h.Matcher)
			if err != nil || !c.matches(m) {
				continue
			}
		}
		if h.If != "" && !c.meets(h.If) {
			continue
		}
		seen[h.Key()] = true
		out = append(out, h)
	}
	return out
}

func (d *Dispatcher) runExtension(ctx context.Context, x extensions.Active, c call) extResult {
	hooks := matching(x.Pkg, c)
	if len(hooks) == 0 {
		return extResult{}
	}
	if err := manifest.CheckStamps(x.Dir, x.Pkg.Stamps); err != nil {
		reason := "a file its hooks run changed on disk since you trusted it (" + err.Error() + "); review it before it runs again"
		if markErr := d.reg.MarkForReview(context.WithoutCancel(ctx), x.ID, reason); markErr != nil {
			slog.Error("mark extension for review", "id", x.ID, "err", markErr)
		}
		return extResult{notices: []lifecycle.Notice{{Kind: lifecycle.NoticeFailure, Source: x.ID, Label: x.Label, Text: x.Label + " was paused: " + reason}}}
	}
	ctx, done := d.track(ctx, x.ID)
	defer done()
	go d.watchRemoval(ctx, x)
	defer d.reg.Lease(x.Dir)()
	if err := hookrun.PrepareDataDir(x.Data); err != nil {
		return d.failed(x, "cannot prepare its data folder: "+err.Error())
	}
	var r extResult
	var texts []string
	var failure string
	for _, h := range hooks {
		out, err := d.runHook(ctx, x, h, c)
		if err != nil {
			if failure == "" && !errors.Is(err, context.Canceled) && ctx.Err() == nil {
				failure = err.Error()
			}
			continue
		}
		if strings.TrimSpace(out.AdditionalContext) != "" {
			texts = append(texts, strings.TrimSpace(out.AdditionalContext))
		}
		r.notices = append(r.notices, outputNotices(x, out)...)
		r.guard.add(out)
	}
	if len(texts) > 0 {
		text := strings.Join(texts, "\n\n")
		r.block = &lifecycle.ContextBlock{Source: x.ID, Event: c.event, Text: text, Hash: hashOf(text)}
	}
	switch {
	case c.quiet:
	case failure != "":
		r.notices = append(r.notices, d.failed(x, failure).notices...)
	case ctx.Err() == nil:
		d.recovered(x.ID)
	}
	return r
}

func outputNotices(x extensions.Active, out hookrun.Output) []lifecycle.Notice {
	var ns []lifecycle.Notice
	if s := strings.TrimSpace(out.SystemMessage); s != "" {
		ns = append(ns, lifecycle.Notice{Kind: lifecycle.NoticeStatus, Source: x.ID, Label: x.Label, Text: s})
	}
	if s := strings.TrimSpace(out.BlockReason); s != "" {
		ns = append(ns, lifecycle.Notice{Kind: lifecycle.NoticeBlocked, Source: x.ID, Label: x.Label, Text: s})
	}
	return ns
}

// failed returns the chat notice for a failure, once: the same failure
// is not repeated on every turn until the extension recovers.
func (d *Dispatcher) failed(x extensions.Active, msg string) extResult {
	d.mu.Lock()
	seen := d.announced[x.ID] == msg
	d.announced[x.ID] = msg
	d.mu.Unlock()
	if seen {
		return extResult{}
	}
	return extResult{notices: []lifecycle.Notice{{Kind: lifecycle.NoticeFailure, Source: x.ID, Label: x.Label,
		Text: x.Label + ": " + msg}}}
}

func (d *Dispatcher) recovered(id string) {
	d.mu.Lock()
	delete(d.announced, id)
	d.mu.Unlock()
}

// runHook runs one hook and records the run.
func (d *Dispatcher) runHook(ctx context.Context, x extensions.Active, h manifest.Hook, c call) (hookrun.Output, error) {
	argv := manifest.ExpandArgv(h.Argv, manifest.Vars{PluginRoot: x.Dir, PluginData: x.Data, ProjectDir: c.project, Options: x.OptionArgv})
	timeout := time.Duration(h.Timeout) * time.Second
	if timeout == 0 {
		timeout = d.defaultTimeout()
	}
	env := hookrun.Environ(hookrun.EnvInput{Parent: d.environ(), HookPATH: d.hookPATH(), PluginRoot: x.Dir,
		PluginData: x.Data, ProjectDir: c.project, SessionID: c.session, Event: c.event, Options: x.OptionEnv})
	if h.StatusMessage != "" {
		lifecycle.ReportStatus(ctx, x.Label+": "+h.StatusMessage)
	}
	started := time.Now()
	res := hookrun.Run(ctx, hookrun.Spec{Argv: argv, Dir: c.project, Env: env, Stdin: c.stdin(), Timeout: timeout, Owner: x.ID, Linger: d.linger,
		Sandbox: childproc.Sandbox{Unconfined: x.Unconfined, Write: []string{c.project, x.Data}, Read: []string{x.Dir, c.transcript}}})
	if h.IgnoreExit {
		var f *hookrun.Failure
		if errors.As(res.Err, &f) && f.Kind == hookrun.ExitStatus {
			res.Err = nil // the manifest's "; exit 0" / "|| true"
		}
	}
	out, err := hookrun.ParseOutput(c.event, res)
	run := storage.HookRun{ExtensionID: x.ID, Project: c.project, HookKey: h.Key(), Event: c.event, Argv: argv, StartedAt: started,
		Duration: res.Duration, ExitCode: res.ExitCode, BytesOut: res.StdoutBytes}
	if err != nil {
		run.Error = err.Error()
	}
	d.reg.RecordRun(run)
	return out, err
}

// track gives an event its own cancel, registered under the extension so
// disabling or uninstalling it stops the hooks at once.
func (d *Dispatcher) track(ctx context.Context, id string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	d.mu.Lock()
	if d.running[id] == nil {
		d.running[id] = map[*context.CancelFunc]struct{}{}
	}
	d.running[id][&cancel] = struct{}{}
	d.mu.Unlock()
	return ctx, func() {
		d.mu.Lock()
		delete(d.running[id], &cancel)
		d.mu.Unlock()
		cancel()
	}
}

// stop cancels every running hook of an extension and ends the processes
// its hooks left running (process groups get SIGTERM, then SIGKILL).
func (d *Dispatcher) stop(id string) {
	d.mu.Lock()
	d.removedAt[id] = d.removals.Add(1)
	var cancels []context.CancelFunc
	for c := range d.running[id] {
		cancels = append(cancels, *c)
	}
	delete(d.announced, id)
	d.mu.Unlock()
	for _, c := range cancels {
		c()
	}
	if d.mcp != nil {
		d.mcp.Stop(id)
	}
	if d.lsp != nil {
		d.lsp.Stop(id)
	}
	d.linger.StopOwned(id)
}

func hashOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
