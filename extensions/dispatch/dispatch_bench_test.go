//go:build unix

package dispatch_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/dispatch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// benchHookPATH is the PATH the benchmark hooks get.
const benchHookPATH = "/usr/bin:/bin"

// benchExtensions is a Manager with enabled extensions, each with one
// UserPromptSubmit hook running its hooks/run.sh, and their Dispatcher.
type benchExtensions struct {
	disp    *dispatch.Dispatcher
	infos   []extensions.Info
	project string
}

// newBenchExtensions installs and enables n extensions over loopback HTTPS
// whose hook script runs body.
func newBenchExtensions(b *testing.B, n int, body string) *benchExtensions {
	return newBenchExtensionsFor(b, n, lifecycle.EventUserPromptSubmit, body)
}

// newBenchExtensionsFor is newBenchExtensions with the hook on event.
func newBenchExtensionsFor(b *testing.B, n int, event, body string) *benchExtensions {
	b.Helper()
	repos := map[string]*gittest.Repo{}
	for i := range n {
		r := gittest.NewRepo(b)
		r.Commit(b, "main", "bench", hookPlugin(fmt.Sprintf("bench-%d", i), event, body))
		r.SetHEAD(b, "main")
		repos[fmt.Sprintf("bench-%d", i)] = r
	}
	srv := gittest.Serve(b, repos)
	dir := b.TempDir()
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(dir, "agentdesk.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	m, err := extensions.NewManager(ctx, db, filepath.Join(dir, "extensions"), extensions.WithHTTPClient(srv.Client))
	if err != nil {
		b.Fatal(err)
	}
	x := &benchExtensions{project: filepath.Join(dir, "project"),
		disp: dispatch.New(m, dispatch.Config{HookPATH: func() string { return benchHookPATH }})}
	if err := os.MkdirAll(x.project, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		x.infos = append(x.infos, installEnabled(b, m, fmt.Sprintf("%s/bench-%d.git", srv.URL, i)))
	}
	return x
}

func hookPlugin(name, event, body string) map[string]gittest.File {
	return map[string]gittest.File{
		".codex-plugin/plugin.json": {Body: `{"name":"` + name + `","version":"1.0.0","description":"benchmark plugin"}`},
		"hooks/hooks.json":          {Body: `{"hooks":{"` + event + `":[{"matcher":"Bash","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh"}]}]}}`},
		"hooks/run.sh":              {Body: "#!/bin/sh\n" + body + "\n", Mode: 0o755},
	}
}

func installEnabled(b *testing.B, m *extensions.Manager, url string) extensions.Info {
	b.Helper()
	ctx := context.Background()
	info, err := m.Install(ctx, url, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	trust, err := m.TrustPrompt(ctx, info.ID)
	if err != nil {
		b.Fatal(err)
	}
	if info, err = m.Enable(ctx, info.ID, trust.Hash); err != nil {
		b.Fatal(err)
	}
	return info
}

// submit fires UserPromptSubmit once, fails on any hook notice and
// returns how long it took.
func (x *benchExtensions) submit(b *testing.B) time.Duration {
	began := time.Now()
	res := x.disp.UserPromptSubmit(context.Background(), lifecycle.PromptEvent{SessionID: "bench", ProjectDir: x.project, Prompt: "go"})
	took := time.Since(began)
	if len(res.Notices) > 0 {
		b.Fatalf("hook notices: %+v", res.Notices)
	}
	return took
}

// execHook times exec'ing the first extension's hook script directly,
// the yardstick of the dispatch benchmarks.
func (x *benchExtensions) execHook(b *testing.B) func() time.Duration {
	script := filepath.Join(x.infos[0].Dir, "hooks", "run.sh")
	return func() time.Duration {
		began := time.Now()
		if err := exec.CommandContext(b.Context(), script).Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(began)
	}
}

// BenchmarkHookDispatch compares one UserPromptSubmit through the
// Dispatcher (registry read, tamper check, environment, run, parse, run
// record) for one extension whose hook is a trivial script with exec'ing
// that same script directly, alternately; added-ms is what the dispatcher
// adds per hook at the median. ns/op covers both runs.
func BenchmarkHookDispatch(b *testing.B) {
	x := newBenchExtensions(b, 1, "exit 0")
	direct := x.execHook(b)
	var p gittest.Paired
	for b.Loop() {
		p.Run(func() time.Duration { return x.submit(b) }, direct)
	}
	p.Report(b, "dispatch", "exec")
}

// slowHook is a hook that takes 100 ms.
const slowHook = "sleep 0.1"

// BenchmarkSlowPromptHooks measures UserPromptSubmit with five enabled
// extensions whose hooks each take 100 ms against one such extension,
// alternately: extensions run concurrently, so the ratio should be close
// to 1 (5 if they ran one after another). ns/op covers both runs.
func BenchmarkSlowPromptHooks(b *testing.B) {
	one := newBenchExtensions(b, 1, slowHook)
	five := newBenchExtensions(b, 5, slowHook)
	var p gittest.Paired
	for b.Loop() {
		p.Run(func() time.Duration { return five.submit(b) }, func() time.Duration { return one.submit(b) })
	}
	p.Report(b, "five", "one")
}

// BenchmarkPreToolUseOverhead measures what a PreToolUse hook adds to a
// tool call: one extension whose hook (matcher Bash) takes 5 ms, through
// the Dispatcher with a real tool_input, against exec'ing the same script
// directly, alternately. Goal: added-ms ≤ 2 (the hook's own time plus at
// most 2 ms). ns/op covers both runs.
func BenchmarkPreToolUseOverhead(b *testing.B) {
	x := newBenchExtensionsFor(b, 1, lifecycle.EventPreToolUse, "sleep 0.005")
	ev := lifecycle.ToolEvent{SessionID: "bench", ProjectDir: x.project, Tool: "run_command", ClaudeTool: "Bash",
		Input: []byte(`{"command":"go test ./..."}`), CallID: "call_1"}
	guarded := func() time.Duration {
		began := time.Now()
		v := x.disp.PreToolUse(context.Background(), ev)
		took := time.Since(began)
		if len(v.Notices) > 0 || v.Blocked() {
			b.Fatalf("hook verdict: %+v", v)
		}
		return took
	}
	direct := x.execHook(b)
	var p gittest.Paired
	for b.Loop() {
		p.Run(guarded, direct)
	}
	p.Report(b, "pretooluse", "exec")
}

// newMarketplaceBench installs and enables n hook-free marketplace
// plugins (0: an empty registry) and returns their Dispatcher.
func newMarketplaceBench(b *testing.B, n int) *benchExtensions {
	b.Helper()
	repos := map[string]*gittest.Repo{}
	for i := range n {
		name := fmt.Sprintf("market-%02d", i)
		r := gittest.NewRepo(b)
		r.Commit(b, "main", "bench", gittest.MarketplacePlugin(name))
		r.SetHEAD(b, "main")
		repos[name] = r
	}
	srv := gittest.Serve(b, repos)
	dir := b.TempDir()
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(dir, "agentdesk.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	m, err := extensions.NewManager(ctx, db, filepath.Join(dir, "extensions"), extensions.WithHTTPClient(srv.Client))
	if err != nil {
		b.Fatal(err)
	}
	x := &benchExtensions{project: filepath.Join(dir, "project"),
		disp: dispatch.New(m, dispatch.Config{HookPATH: func() string { return benchHookPATH }})}
	b.Cleanup(x.disp.Close)
	if err := os.MkdirAll(x.project, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		x.infos = append(x.infos, installEnabled(b, m, fmt.Sprintf("%s/market-%02d.git", srv.URL, i)))
	}
	return x
}

// turnStart is what the loop asks of the extensions as a turn starts:
// the snapshot, UserPromptSubmit, the MCP tools, commands, agents and
// skill folders. It returns the turn's context.
func (x *benchExtensions) turnStart(b *testing.B) context.Context {
	ctx := x.disp.BeginTurn(context.Background(), x.project)
	if res := x.disp.UserPromptSubmit(ctx, lifecycle.PromptEvent{SessionID: "bench", ProjectDir: x.project, Prompt: "go"}); len(res.Notices) > 0 {
		b.Fatalf("notices: %+v", res.Notices)
	}
	x.disp.Tools(ctx, lifecycle.ToolsEvent{SessionID: "bench", ProjectDir: x.project})
	x.disp.Commands(ctx, x.project, nil)
	x.disp.Agents(ctx, x.project)
	x.disp.SkillRoots(ctx, x.project)
	x.disp.Enabled(ctx, x.project)
	return ctx
}

// toolCalls runs the guard hooks of 20 read_file calls in the turn ctx.
func (x *benchExtensions) toolCalls(b *testing.B, ctx context.Context) {
	ev := lifecycle.ToolEvent{SessionID: "bench", ProjectDir: x.project, Tool: "read_file", ClaudeTool: "Read",
		Input: []byte(`{"file_path":"main.go"}`), CallID: "call_1"}
	for range 20 {
		if v := x.disp.PreToolUse(ctx, ev); v.Blocked() || len(v.Notices) > 0 {
			b.Fatalf("verdict: %+v", v)
		}
		x.disp.PostToolUse(ctx, ev)
	}
}

// BenchmarkMarketplaceTurn compares a turn's start and 20 tool calls
// with 91 enabled hook-free plugins (a whole marketplace: 182 skills, 91
// agents, 91 commands) against an empty registry, alternately. Goal:
// both ratios ≤ 1.3 (issue 37: nothing about a tool call may depend on
// how many extensions are installed).
func BenchmarkMarketplaceTurn(b *testing.B) {
	many, none := newMarketplaceBench(b, 91), newMarketplaceBench(b, 0)
	if got := len(many.disp.Enabled(context.Background(), "")); got != 91 {
		b.Fatalf("%d enabled, want 91", got)
	}
	b.Run("turn-start", func(b *testing.B) {
		var p gittest.Paired
		for b.Loop() {
			p.Run(func() time.Duration { t := time.Now(); many.turnStart(b); return time.Since(t) },
				func() time.Duration { t := time.Now(); none.turnStart(b); return time.Since(t) })
		}
		p.Report(b, "91-plugins", "none")
	})
	b.Run("20-tool-calls", func(b *testing.B) {
		manyCtx, noneCtx := many.turnStart(b), none.turnStart(b)
		var p gittest.Paired
		for b.Loop() {
			p.Run(func() time.Duration { t := time.Now(); many.toolCalls(b, manyCtx); return time.Since(t) },
				func() time.Duration { t := time.Now(); none.toolCalls(b, noneCtx); return time.Since(t) })
		}
		p.Report(b, "91-plugins", "none")
	})
}
