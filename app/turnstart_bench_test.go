package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// arrivals is a fake OpenAI-wire server (llmtest behind a loopback
// proxy) that tells when each model request's first bytes arrive: the
// proxy's handler runs as soon as the request line and headers are read,
// before the body.
type arrivals struct {
	URL   string
	model *llmtest.Server
	at    chan time.Time
}

func newArrivals(b *testing.B) *arrivals {
	model := llmtest.NewOpenAI(b)
	target, err := url.Parse(strings.TrimSuffix(model.URL, "/v1"))
	if err != nil {
		b.Fatal(err)
	}
	a := &arrivals{model: model, at: make(chan time.Time, 16)}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			a.at <- time.Now()
		}
		proxy.ServeHTTP(w, r)
	}))
	b.Cleanup(srv.Close)
	a.URL = srv.URL + "/v1"
	return a
}

// benchHome is one AgentDesk home opened as the app opens it (openCore,
// newAgent), with n hook-free plugins installed from srv and enabled.
type benchHome struct {
	agent   *agent.Agent
	project storage.Project
}

func newBenchHome(b *testing.B, srv *gittest.Server, n int) *benchHome {
	b.Helper()
	return openBenchHome(b, srv.Client, n, func(ctx context.Context, m *extensions.Manager) {
		for i := range n {
			info, err := m.Install(ctx, fmt.Sprintf("%s/bench-%02d.git", srv.URL, i), "", nil)
			if err != nil {
				b.Fatal(err)
			}
			enable(b, m, info.ID)
		}
	})
}

// enable trusts and enables id as the trust dialog's Enable does.
func enable(b *testing.B, m *extensions.Manager, id string) {
	ctx := context.Background()
	trust, err := m.TrustPrompt(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.Enable(ctx, id, trust.Hash); err != nil {
		b.Fatal(err)
	}
}

// openBenchHome makes a new home, lets install fill it (nil: none) and
// opens it as the app does (client is the git server's, for install);
// want is how many extensions it must have enabled (-1: any).
func openBenchHome(b *testing.B, client *http.Client, want int, install func(context.Context, *extensions.Manager)) *benchHome {
	b.Helper()
	ctx := context.Background()
	fillBenchHome(b, client, install)
	c, err := openCore(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.close)
	h := &benchHome{agent: c.newAgent(nil, func() agent.Policy { return agent.PolicyAsk }, nil)}
	if got := len(c.disp.Enabled(context.Background(), "")); want >= 0 && got != want {
		b.Fatalf("%d extensions enabled, want %d", got, want)
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if h.project, err = h.agent.OpenProject(ctx, dir); err != nil {
		b.Fatal(err)
	}
	return h
}

// fillBenchHome makes a new home, points AGENTDESK_HOME at it and lets
// install fill it (nil: none) through a Manager with the git server's
// client; the database is closed again when it returns.
func fillBenchHome(b *testing.B, client *http.Client, install func(context.Context, *extensions.Manager)) storage.Paths {
	b.Helper()
	ctx := context.Background()
	b.Setenv(storage.HomeEnv, b.TempDir())
	paths := storage.ResolvePaths()
	if err := paths.Ensure(); err != nil {
		b.Fatal(err)
	}
	if install != nil {
		db, err := storage.Open(ctx, paths.Database())
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		m, err := extensions.NewManager(ctx, db, paths.Extensions(), extensions.WithHTTPClient(client))
		if err != nil {
			b.Fatal(err)
		}
		install(ctx, m)
	}
	return paths
}

// turn submits a one-line prompt to s and returns when each of its
// model requests' first bytes arrived (want of them), measured from the
// submit; the turn is over when it returns.
func (h *benchHome) turn(b *testing.B, s *agent.Session, a *arrivals, want int) []time.Duration {
	began := time.Now()
	s.Submit("hello")
	var out []time.Duration
	for range want {
		select {
		case at := <-a.at:
			out = append(out, at.Sub(began))
		case <-time.After(30 * time.Second):
			b.Fatal("no model request within 30 s")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.WaitIdle(ctx); err != nil {
		b.Fatal("the turn did not end")
	}
	return out
}

// start is a turn's start: to its first model request.
func (h *benchHome) start(b *testing.B, s *agent.Session, a *arrivals) time.Duration {
	return h.turn(b, s, a, 1)[0]
}

// twentyReads is a turn whose model reads main.go 20 times in one step:
// the time from its first model request to its second, that is the 20
// read_file calls with their PreToolUse and PostToolUse.
func (h *benchHome) twentyReads(b *testing.B, s *agent.Session, a *arrivals) time.Duration {
	calls := make([]llmtest.ToolCall, 20)
	for i := range calls {
		calls[i] = llmtest.ToolCall{Name: "read_file", Args: `{"path":"main.go"}`}
	}
	a.model.Push(llmtest.Reply{ToolCalls: calls}, llmtest.Reply{Text: "read"})
	at := h.turn(b, s, a, 2)
	return at[1] - at[0]
}

func (h *benchHome) session(b *testing.B) *agent.Session {
	s, err := h.agent.NewSession(context.Background(), h.project)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkTurnStartToFirstRequest measures turn start as a user sees
// it: from a prompt submitted to the first bytes of the first model
// request at a fake OpenAI-wire server on loopback, with 91 enabled
// hook-free plugins (182 skills, 91 agents, 91 commands) against a home
// with none, alternately, in the app's own wiring (openCore, newAgent).
// new-session is a session's first prompt (a new session made before
// the clock starts), next-turn a later prompt of one session, and
// 20-tool-calls the time from a turn's first model request to its
// second when the model asked for 20 read_file calls. Goal: ratio ≤ 1.3
// (issue 37).
func BenchmarkTurnStartToFirstRequest(b *testing.B) {
	repos := map[string]*gittest.Repo{}
	for i := range 91 {
		name := fmt.Sprintf("bench-%02d", i)
		r := gittest.NewRepo(b)
		r.Commit(b, "main", "bench", gittest.MarketplacePlugin(name))
		r.SetHEAD(b, "main")
		repos[name] = r
	}
	srv := gittest.Serve(b, repos)
	a := newArrivals(b)
	benchEnv(b, a)
	many, none := newBenchHome(b, srv, 91), newBenchHome(b, srv, 0)
	compareTurns(b, many, none, a, "91-plugins")
}

// benchEnv points the app at the fake model server a and at a home
// folder with no skills of the machine's.
func benchEnv(b *testing.B, a *arrivals) {
	b.Setenv("HOME", b.TempDir())
	b.Setenv(envProvider, "openai")
	b.Setenv(envBaseURL, a.URL)
	b.Setenv(envModel, llmtest.ModelName)
	b.Setenv(envAPIKey, "bench")
}

// compareTurns runs many's and none's turns alternately: a new
// session's first prompt, a later prompt, and a turn of 20 read_file
// calls.
func compareTurns(b *testing.B, many, none *benchHome, a *arrivals, name string) {
	b.Run("new-session", func(b *testing.B) {
		var p gittest.Paired
		for b.Loop() {
			sMany, sNone := many.session(b), none.session(b)
			p.Run(func() time.Duration { return many.start(b, sMany, a) }, func() time.Duration { return none.start(b, sNone, a) })
		}
		p.Report(b, name, "none")
	})
	sMany, sNone := many.session(b), none.session(b)
	many.start(b, sMany, a)
	none.start(b, sNone, a)
	if reqs := a.model.Requests(); len(reqs) >= 2 {
		b.Logf("first request of a session: %s %d bytes, none %d bytes", name, len(reqs[len(reqs)-2].Raw), len(reqs[len(reqs)-1].Raw))
	}
	b.Run("next-turn", func(b *testing.B) {
		var p gittest.Paired
		for b.Loop() {
			p.Run(func() time.Duration { return many.start(b, sMany, a) }, func() time.Duration { return none.start(b, sNone, a) })
		}
		p.Report(b, name, "none")
	})
	b.Run("20-tool-calls", func(b *testing.B) {
		var p gittest.Paired
		for b.Loop() { // new sessions: 20 results a turn would soon fill a window and compact
			sMany, sNone := many.session(b), none.session(b)
			p.Run(func() time.Duration { return many.twentyReads(b, sMany, a) }, func() time.Duration { return none.twentyReads(b, sNone, a) })
		}
		p.Report(b, name, "none")
	})
}

// BenchmarkRealMarketplaceTurn is BenchmarkTurnStartToFirstRequest with
// a real marketplace: every plugin of the bare clone named by
// AGENTDESK_REAL_MARKETPLACE (e.g. wshobson/agents) installed from a
// loopback git server and the hook-free ones enabled (as issue 37
// measured: wshobson's two hooked plugins run `npx protect-mcp` on
// every tool call, which needs the network), against a home with none.
func BenchmarkRealMarketplaceTurn(b *testing.B) {
	dir := os.Getenv("AGENTDESK_REAL_MARKETPLACE")
	if dir == "" {
		b.Skip("set AGENTDESK_REAL_MARKETPLACE to a bare clone of a marketplace (e.g. wshobson/agents)")
	}
	srv := gittest.Serve(b, map[string]*gittest.Repo{"market": {Dir: dir}})
	a := newArrivals(b)
	benchEnv(b, a)
	enabled := 0
	many := openBenchHome(b, srv.Client, -1, func(ctx context.Context, m *extensions.Manager) {
		enabled = installRealMarketplace(ctx, b, m, srv.URL+"/market.git")
	})
	none := openBenchHome(b, nil, 0, nil)
	compareTurns(b, many, none, a, fmt.Sprintf("%d-plugins", enabled))
}

// installRealMarketplace installs every plugin the marketplace at url
// lists through m and enables the hook-free ones; it returns how many it
// enabled.
func installRealMarketplace(ctx context.Context, b *testing.B, m *extensions.Manager, url string) int {
	_, err := m.Install(ctx, url, "", nil)
	var mkt *extensions.MarketplaceError
	if !errors.As(err, &mkt) {
		b.Fatalf("not listed as a marketplace: %v", err)
	}
	var names []string
	for _, p := range mkt.Marketplace.Plugins {
		names = append(names, p.Name)
	}
	results, err := m.InstallPlugins(ctx, url, "", names, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	enabled := 0
	var hooked []string
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		trust, err := m.TrustPrompt(ctx, r.Info.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(trust.Hooks) > 0 {
			hooked = append(hooked, r.Plugin)
			continue
		}
		enable(b, m, r.Info.ID)
		enabled++
	}
	b.Logf("%s; %d hook-free ones enabled; left disabled for their hooks: %s", extensions.InstallSummary(results), enabled, strings.Join(hooked, ", "))
	return enabled
}
