package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// BenchmarkAgentdeskProcessTurn is BenchmarkClaudeCodeTurn's
// process-start (row 18a) in AgentDesk: the real binary run as
// `agentdesk run hello` in a project folder holding main.go, a new
// process and a new session each time, with its own AGENTDESK_HOME and
// HOME and the model at a fake OpenAI-wire server on loopback. Two
// homes run alternately: one with every plugin of the bare marketplace
// clone named by AGENTDESK_REAL_MARKETPLACE (e.g. wshobson/agents)
// installed and the hook-free ones enabled, as
// BenchmarkRealMarketplaceTurn does, and one with none.
//
// process-start is the time from starting the process to the first
// bytes of its first model request; exit (the "-exit-" metrics) the
// time from starting it to its exit, after it printed the answer. The
// first request's size is reported in bytes for each home.
func BenchmarkAgentdeskProcessTurn(b *testing.B) {
	dir := os.Getenv("AGENTDESK_REAL_MARKETPLACE")
	if dir == "" {
		b.Skip("set AGENTDESK_REAL_MARKETPLACE to a bare clone of a marketplace (e.g. wshobson/agents)")
	}
	bin := agentdeskBinary(b)
	srv := gittest.Serve(b, map[string]*gittest.Repo{"market": {Dir: dir}})
	a := newArrivals(b)
	enabled := 0
	plugins := newProcessHome(b, bin, a, srv.Client, -1, func(ctx context.Context, m *extensions.Manager) {
		enabled = installRealMarketplace(ctx, b, m, srv.URL+"/market.git")
	})
	none := newProcessHome(b, bin, a, nil, 0, nil)
	name := fmt.Sprintf("%d-plugins", enabled)
	label := map[*processHome]string{plugins: name, none: "none"}
	for _, h := range []*processHome{plugins, none} { // a first run each, not counted: the home's first start
		t := h.turn(b, a)
		h.bytes = len(t.raw)
		b.Logf("%s home, first run: first request after %v, exit after %v, first request %d bytes",
			label[h], t.first.Round(time.Millisecond), t.exit.Round(time.Millisecond), h.bytes)
	}
	if plugins.bytes <= none.bytes {
		b.Fatalf("the plugins are not active: the first request is %d bytes with them, %d without", plugins.bytes, none.bytes)
	}

	b.Run("process-start", func(b *testing.B) {
		var first gittest.Paired
		exits := map[*processHome][]time.Duration{}
		timed := func(h *processHome) func() time.Duration {
			return func() time.Duration {
				t := h.turn(b, a)
				exits[h] = append(exits[h], t.exit)
				return t.first
			}
		}
		for b.Loop() {
			first.Run(timed(plugins), timed(none))
		}
		first.Report(b, name, "none")
		gittest.ReportPairs(b, exits[plugins], exits[none], name, "none", "exit")
		b.ReportMetric(float64(plugins.bytes), name+"-request-bytes")
		b.ReportMetric(float64(none.bytes), "none-request-bytes")
	})
}

// processHome is one home for the real binary: its AGENTDESK_HOME, a
// HOME of its own, a project folder holding main.go, and the child's
// whole environment.
type processHome struct {
	bin, project string
	env          []string
	bytes        int // the first run's first request
}

// newProcessHome fills a new home as openBenchHome does (install nil:
// none), checks that the app opens it with want extensions enabled (-1:
// any) and closes it again, so that only the child has the database
// open.
func newProcessHome(b *testing.B, bin string, a *arrivals, client *http.Client, want int, install func(context.Context, *extensions.Manager)) *processHome {
	b.Helper()
	home := b.TempDir()
	fakeHome := filepath.Join(home, "fakehome")
	if err := os.MkdirAll(fakeHome, 0o700); err != nil {
		b.Fatal(err)
	}
	b.Setenv("HOME", fakeHome)
	paths := fillBenchHome(b, client, install)
	c, err := openCore(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	got := len(c.disp.Enabled(context.Background(), ""))
	c.close()
	if want >= 0 && got != want {
		b.Fatalf("%d extensions enabled, want %d", got, want)
	}
	h := &processHome{bin: bin, project: b.TempDir()}
	if err := os.WriteFile(filepath.Join(h.project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	h.env = []string{
		storage.HomeEnv + "=" + paths.Data, "HOME=" + fakeHome, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		envProvider + "=openai", envBaseURL + "=" + a.URL, envModel + "=" + llmtest.ModelName, envAPIKey + "=bench",
	}
	return h
}

// processTurn is one `agentdesk run hello` as the fake saw it.
type processTurn struct {
	first time.Duration // process start to the first model request's first bytes
	exit  time.Duration // process start to its exit
	raw   []byte        // the first model request's body
}

// turn runs `agentdesk run hello` in h's project, bounded by a minute;
// the model answers "ok", which the process must print, then exit 0,
// having made one model request.
func (h *processHome) turn(b *testing.B, a *arrivals) processTurn {
	for len(a.at) > 0 { // what a failed run left
		<-a.at
	}
	a.model.Push(llmtest.Reply{Text: "ok"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bin, "run", "hello")
	cmd.Dir, cmd.Env, cmd.Stdin = h.project, h.env, strings.NewReader("")
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	began := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var t processTurn
	var err error
	select {
	case at := <-a.at:
		t.first = at.Sub(began)
		err = <-exited // within the deadline: CommandContext kills the process at it
	case err = <-exited:
		select { // arrived just as it exited
		case at := <-a.at:
			t.first = at.Sub(began)
		default:
			b.Fatalf("agentdesk exited before its first model request: %v\nstdout: %s\nstderr: %s", err, &out, &errOut)
		}
	}
	t.exit = time.Since(began)
	if ctx.Err() != nil {
		b.Fatalf("agentdesk run did not exit within a minute\nstderr: %s", &errOut)
	}
	if err != nil {
		b.Fatalf("agentdesk run: %v\nstdout: %s\nstderr: %s", err, &out, &errOut)
	}
	if n := len(a.at); n > 0 {
		b.Fatalf("%d model requests more than the one scripted\nstderr: %s", n, &errOut)
	}
	if got := strings.TrimSpace(out.String()); got != "ok" {
		b.Fatalf("agentdesk run printed %q, want %q\nstderr: %s", got, "ok", &errOut)
	}
	reqs := a.model.Requests()
	t.raw = reqs[len(reqs)-1].Raw
	return t
}
