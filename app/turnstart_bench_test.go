package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
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

// benchPlugin is a hook-free plugin as a large marketplace holds them:
// two skills, an agent and a command, each with a description.
func benchPlugin(name string) map[string]gittest.File {
	desc := "Helps with " + name + " work: reviews, plans and explains the parts of a project that " + name + " covers, step by step."
	files := map[string]gittest.File{
		".claude-plugin/plugin.json":     {Body: `{"name":"` + name + `","version":"1.0.0","description":"` + desc + `"}`},
		"agents/" + name + "-expert.md":  {Body: "---\nname: " + name + "-expert\ndescription: " + desc + "\n---\nYou are an expert in " + name + ".\n"},
		"commands/" + name + "-check.md": {Body: "---\ndescription: " + desc + "\n---\nCheck the project for " + name + " issues: $ARGUMENTS\n"},
	}
	for _, s := range []string{"-basics", "-patterns"} {
		files["skills/"+name+s+"/SKILL.md"] = gittest.File{Body: "---\nname: " + name + s + "\ndescription: " + desc + "\n---\n# " + name + s + "\n\nBody.\n"}
	}
	return files
}

// arrivals is a fake OpenAI-wire server (llmtest behind a loopback
// proxy) that tells when each model request's first bytes arrive: the
// proxy's handler runs as soon as the request line and headers are read,
// before the body.
type arrivals struct {
	URL string
	at  chan time.Time
}

func newArrivals(b *testing.B) *arrivals {
	model := llmtest.NewOpenAI(b)
	target, err := url.Parse(strings.TrimSuffix(model.URL, "/v1"))
	if err != nil {
		b.Fatal(err)
	}
	a := &arrivals{at: make(chan time.Time, 16)}
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
	ctx := context.Background()
	b.Setenv(storage.HomeEnv, b.TempDir())
	paths := storage.ResolvePaths()
	if err := paths.Ensure(); err != nil {
		b.Fatal(err)
	}
	if n > 0 { // install with the git server's client, then let go of the database
		db, err := storage.Open(ctx, paths.Database())
		if err != nil {
			b.Fatal(err)
		}
		m, err := extensions.NewManager(ctx, db, paths.Extensions(), extensions.WithHTTPClient(srv.Client))
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			info, err := m.Install(ctx, fmt.Sprintf("%s/bench-%02d.git", srv.URL, i), "", nil)
			if err != nil {
				b.Fatal(err)
			}
			trust, err := m.TrustPrompt(ctx, info.ID)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := m.Enable(ctx, info.ID, trust.Hash); err != nil {
				b.Fatal(err)
			}
		}
		db.Close()
	}
	c, err := openCore(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.close)
	h := &benchHome{agent: c.newAgent(nil, func() agent.Policy { return agent.PolicyAsk }, nil)}
	if got := len(c.disp.Enabled()); got != n {
		b.Fatalf("%d extensions enabled, want %d", got, n)
	}
	if h.project, err = h.agent.OpenProject(ctx, filepath.Join(b.TempDir())); err != nil {
		b.Fatal(err)
	}
	return h
}

// turn submits a one-line prompt to s and returns how long until the
// first model request's first bytes arrived; the turn is over when it
// returns.
func (h *benchHome) turn(b *testing.B, s *agent.Session, a *arrivals) time.Duration {
	began := time.Now()
	s.Submit("hello")
	var d time.Duration
	select {
	case at := <-a.at:
		d = at.Sub(began)
	case <-time.After(30 * time.Second):
		b.Fatal("no model request within 30 s")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.WaitIdle(ctx); err != nil {
		b.Fatal("the turn did not end")
	}
	return d
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
// the clock starts), next-turn a later prompt of one session. Goal:
// ratio ≤ 1.3 (issue 37).
func BenchmarkTurnStartToFirstRequest(b *testing.B) {
	repos := map[string]*gittest.Repo{}
	for i := range 91 {
		name := fmt.Sprintf("bench-%02d", i)
		r := gittest.NewRepo(b)
		r.Commit(b, "main", "bench", benchPlugin(name))
		r.SetHEAD(b, "main")
		repos[name] = r
	}
	srv := gittest.Serve(b, repos)
	a := newArrivals(b)
	b.Setenv("HOME", b.TempDir()) // no user skills of the machine's
	b.Setenv(envProvider, "openai")
	b.Setenv(envBaseURL, a.URL)
	b.Setenv(envModel, llmtest.ModelName)
	b.Setenv(envAPIKey, "bench")
	many, none := newBenchHome(b, srv, 91), newBenchHome(b, srv, 0)

	b.Run("new-session", func(b *testing.B) {
		var p gittest.Paired
		for b.Loop() {
			sMany, sNone := many.session(b), none.session(b)
			p.Run(func() time.Duration { return many.turn(b, sMany, a) }, func() time.Duration { return none.turn(b, sNone, a) })
		}
		p.Report(b, "91-plugins", "none")
	})
	b.Run("next-turn", func(b *testing.B) {
		sMany, sNone := many.session(b), none.session(b)
		many.turn(b, sMany, a)
		none.turn(b, sNone, a)
		var p gittest.Paired
		for b.Loop() {
			p.Run(func() time.Duration { return many.turn(b, sMany, a) }, func() time.Duration { return none.turn(b, sNone, a) })
		}
		p.Report(b, "91-plugins", "none")
	})
}
