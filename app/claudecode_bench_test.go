package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// BenchmarkClaudeCodeTurn is the turn of BenchmarkRealMarketplaceTurn
// (row 17) in Claude Code, for comparison: the `claude` executable named
// by AGENTDESK_CLAUDE_CODE (packaging/bench-claude-code.sh installs the
// npm package's) runs in print mode, `claude -p hello`, offline against
// a fake Anthropic Messages API on loopback, each run in its own
// process: Claude Code has no new session without a new process. With
// AGENTDESK_REAL_MARKETPLACE (a bare clone of wshobson/agents) a second
// home has every plugin of that marketplace installed with `claude
// plugin install` and the hook-free ones enabled, and the two homes run
// alternately; without it only the home with no plugins is measured.
//
// process-start is the time from starting the process to the first
// bytes of its first main-loop request; 20-tool-calls the time from the
// first main-loop request to the second when the model asked for 20
// Read calls of one file in one answer (answered-to-next: from the end
// of that answer to the second request). The first main request's size
// and its skills and agents listings are reported in bytes.
func BenchmarkClaudeCodeTurn(b *testing.B) {
	bin := os.Getenv("AGENTDESK_CLAUDE_CODE")
	if bin == "" {
		b.Skip("set AGENTDESK_CLAUDE_CODE to a claude executable (packaging/bench-claude-code.sh)")
	}
	f := newCCFake(b)
	none := newCCHome(b, bin, f)
	homes := []*ccHome{none}
	plugins, name := (*ccHome)(nil), "none"
	if dir := os.Getenv("AGENTDESK_REAL_MARKETPLACE"); dir != "" {
		plugins = newCCHome(b, bin, f)
		enabled := plugins.installMarketplace(b, dir)
		name = fmt.Sprintf("%d-plugins", enabled)
		homes = []*ccHome{plugins, none}
	}
	for _, h := range homes { // a first run each, not counted: the home's first start
		t := h.turn(b, f, 0)
		h.listing = listingsOf(b, t.raw)
		b.Logf("%s home, first run: first main request after %v, %d bytes; %s; side requests so far: %s",
			h.label(plugins), t.first.Round(time.Millisecond), len(t.raw), h.listing, f.sideRequests())
	}
	if plugins != nil && plugins.listing.agents <= none.listing.agents {
		b.Fatalf("the plugins are not active: the Agent tool lists %d agents with them, %d without", plugins.listing.agents, none.listing.agents)
	}
	if plugins != nil && plugins.listing.skills <= none.listing.skills {
		b.Fatalf("the plugins are not active: the Skill tool lists %d skills with them, %d without", plugins.listing.skills, none.listing.skills)
	}

	b.Run("process-start", func(b *testing.B) {
		var c ccCompare
		for b.Loop() {
			c.run(plugins, none, func(h *ccHome) ccTurn { return h.turn(b, f, 0) })
		}
		c.report(b, name, func(t ccTurn) time.Duration { return t.first })
		for _, h := range homes {
			prefix := h.label(plugins)
			b.ReportMetric(float64(len(h.last.raw)), prefix+"-request-bytes")
			b.ReportMetric(float64(h.listing.skillBytes), prefix+"-skills-bytes")
			b.ReportMetric(float64(h.listing.agentBytes), prefix+"-agents-bytes")
		}
	})
	b.Run("20-tool-calls", func(b *testing.B) {
		var c ccCompare
		for b.Loop() {
			c.run(plugins, none, func(h *ccHome) ccTurn { return h.turn(b, f, 20) })
		}
		c.report(b, name, func(t ccTurn) time.Duration { return t.next })
		for _, side := range c.sides() {
			b.ReportMetric(gittest.Millis(gittest.Median(side.of(func(t ccTurn) time.Duration { return t.gap }))), side.name(name)+"-answered-to-next-ms")
		}
	})
	b.Logf("side requests (not main-loop ones) in the whole run: %s", f.sideRequests())
}

// ccFake is the fake Anthropic endpoint: a loopback server in front of
// two llmtest Anthropic fakes. Main-loop requests — the ones offering
// Claude Code's tool set, which has Read — go to the scripted one; every
// other request (Claude Code's side calls: a title or quota check, the
// small model's helpers, all sent without tools) to one that always
// answers "ok", or, when not streamed, gets a plain "ok" message, and
// token counting gets a count, so they never take a scripted reply.
// It notes when each main request's first bytes arrive (the handler runs
// once the request line and headers are read) and when its answer was
// written whole.
type ccFake struct {
	URL  string
	main *llmtest.Server
	at   chan ccEvent

	mu   sync.Mutex
	side map[string]int // side requests by kind
}

type ccEvent struct {
	at       time.Time
	answered bool   // false: a main request arrived; true: its answer ended
	raw      []byte // the arrived request's body
}

func newCCFake(b *testing.B) *ccFake {
	f := &ccFake{main: llmtest.NewAnthropic(b), at: make(chan ccEvent, 64), side: map[string]int{}}
	main, side := ccProxy(b, f.main.URL), ccProxy(b, llmtest.NewAnthropic(b).URL)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") {
			f.note(r.Method + " " + r.URL.Path)
			http.NotFound(w, r)
			return
		}
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(raw)), int64(len(raw))
		if r.URL.Path == "/v1/messages/count_tokens" {
			f.note("count_tokens")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"input_tokens":%d}`, len(raw)/4)
			return
		}
		var body struct {
			Stream    bool `json:"stream"`
			MaxTokens int  `json:"max_tokens"`
			Tools     []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(raw, &body)
		if !slices.ContainsFunc(body.Tools, func(t struct {
			Name string `json:"name"`
		}) bool {
			return t.Name == "Read"
		}) {
			f.note(fmt.Sprintf("messages(stream=%t,max_tokens=%d,tools=%d)", body.Stream, body.MaxTokens, len(body.Tools)))
			if body.Stream {
				side.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"msg_side","type":"message","role":"assistant","model":"`+llmtest.ModelName+
				`","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
			return
		}
		f.at <- ccEvent{at: at, raw: raw}
		main.ServeHTTP(w, r)
		f.at <- ccEvent{at: time.Now(), answered: true}
	}))
	b.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

func ccProxy(b *testing.B, to string) *httputil.ReverseProxy {
	target, err := url.Parse(to)
	if err != nil {
		b.Fatal(err)
	}
	return httputil.NewSingleHostReverseProxy(target)
}

func (f *ccFake) note(kind string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.side[kind]++
}

func (f *ccFake) sideRequests() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.side) == 0 {
		return "none"
	}
	var out []string
	for k, n := range f.side {
		out = append(out, fmt.Sprintf("%s ×%d", k, n))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// drain drops what a failed run left.
func (f *ccFake) drain() {
	for {
		select {
		case <-f.at:
		default:
			return
		}
	}
}

// ccHome is one Claude Code home (a temporary HOME) with its own project
// folder holding main.go.
type ccHome struct {
	bin, home, project string
	env                []string
	listing            ccListing // of the first run's first main request
	last               ccTurn
}

func newCCHome(b *testing.B, bin string, f *ccFake) *ccHome {
	h := &ccHome{bin: bin, home: b.TempDir(), project: b.TempDir()}
	if err := os.WriteFile(filepath.Join(h.project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	h.env = []string{
		"HOME=" + h.home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + b.TempDir(),
		"ANTHROPIC_BASE_URL=" + f.URL, "ANTHROPIC_API_KEY=fake",
		// No traffic but the model's: no autoupdater, telemetry, error
		// reporting, release notes or model listing.
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
	}
	return h
}

func (h *ccHome) label(plugins *ccHome) string {
	if h == plugins {
		return "plugins"
	}
	return "none"
}

// run runs the program with args in dir, with h's environment, and
// returns what it printed; a run longer than limit is stopped (its whole
// process group).
func (h *ccHome) run(limit time.Duration, dir, program string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	out := childproc.NewHeadTail(8 << 10)
	p, err := childproc.Start(ctx, childproc.Spec{Path: program, Args: append([]string{program}, args...), Dir: dir, Env: h.env,
		Stdout: out, Stderr: out, Sandbox: childproc.Sandbox{Unconfined: true}})
	if err != nil {
		return "", err
	}
	err = p.Wait()
	p.Stop()
	if ctx.Err() != nil {
		err = fmt.Errorf("stopped after %v: %w", limit, ctx.Err())
	}
	return out.String(), err
}

// installMarketplace clones the bare marketplace repository, adds the
// clone as a local marketplace, installs every plugin it lists with
// `claude plugin install` (one failing, as pensyve does offline, is
// logged and left out) and disables the ones with hooks, as row 17 does:
// wshobson's protect-mcp and review-agent-governance run `npx
// protect-mcp` around every tool call, which needs the network. It
// returns how many plugins are left enabled.
func (h *ccHome) installMarketplace(b *testing.B, bare string) int {
	git, err := exec.LookPath("git")
	if err != nil {
		b.Skip("git needed to clone the marketplace")
	}
	clone := filepath.Join(b.TempDir(), "marketplace")
	if out, err := h.run(time.Minute, h.project, git, "clone", "--quiet", bare, clone); err != nil {
		b.Fatalf("git clone %s: %v\n%s", bare, err, out)
	}
	raw, err := os.ReadFile(filepath.Join(clone, ".claude-plugin", "marketplace.json"))
	if err != nil {
		b.Fatal(err)
	}
	var mkt struct {
		Name    string `json:"name"`
		Plugins []struct {
			Name  string          `json:"name"`
			Hooks json.RawMessage `json:"hooks"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(raw, &mkt); err != nil {
		b.Fatal(err)
	}
	if out, err := h.run(time.Minute, h.project, h.bin, "plugin", "marketplace", "add", clone); err != nil {
		b.Fatalf("claude plugin marketplace add: %v\n%s", err, out)
	}
	began := time.Now()
	var installed, failed, hooked []string
	for _, p := range mkt.Plugins {
		id := p.Name + "@" + mkt.Name
		if out, err := h.run(time.Minute, h.project, h.bin, "plugin", "install", id); err != nil {
			failed = append(failed, fmt.Sprintf("%s (%v: %s)", p.Name, err, strings.TrimSpace(lastLine(out))))
			continue
		}
		installed = append(installed, p.Name)
		if len(p.Hooks) > 0 || h.pluginHasHooks(b, id) {
			hooked = append(hooked, p.Name)
			if out, err := h.run(time.Minute, h.project, h.bin, "plugin", "disable", id); err != nil {
				b.Fatalf("claude plugin disable %s: %v\n%s", id, err, out)
			}
		}
	}
	enabled := h.enabledPlugins(b)
	if enabled != len(installed)-len(hooked) {
		b.Fatalf("settings.json enables %d plugins, want %d (%d installed, %d hooked)", enabled, len(installed)-len(hooked), len(installed), len(hooked))
	}
	b.Logf("claude plugin install: %d of %d installed in %v, failed: %s; %d hook-free ones enabled; left disabled for their hooks: %s",
		len(installed), len(mkt.Plugins), time.Since(began).Round(time.Second), strings.Join(failed, "; "), enabled, strings.Join(hooked, ", "))
	return enabled
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// pluginHasHooks tells whether the installed plugin id has hooks: a
// hooks/hooks.json in its install folder or hooks in its plugin.json.
func (h *ccHome) pluginHasHooks(b *testing.B, id string) bool {
	raw, err := os.ReadFile(filepath.Join(h.home, ".claude", "plugins", "installed_plugins.json"))
	if err != nil {
		b.Fatal(err)
	}
	var reg struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(raw, &reg); err != nil {
		b.Fatal(err)
	}
	for _, inst := range reg.Plugins[id] {
		if _, err := os.Stat(filepath.Join(inst.InstallPath, "hooks", "hooks.json")); err == nil {
			return true
		}
		var manifest struct {
			Hooks json.RawMessage `json:"hooks"`
		}
		if raw, err := os.ReadFile(filepath.Join(inst.InstallPath, ".claude-plugin", "plugin.json")); err == nil {
			if json.Unmarshal(raw, &manifest) == nil && len(manifest.Hooks) > 0 {
				return true
			}
		}
	}
	return false
}

// enabledPlugins counts the plugins ~/.claude/settings.json enables.
func (h *ccHome) enabledPlugins(b *testing.B) int {
	raw, err := os.ReadFile(filepath.Join(h.home, ".claude", "settings.json"))
	if err != nil {
		b.Fatal(err)
	}
	var settings struct {
		EnabledPlugins map[string]bool `json:"enabledPlugins"`
	}
	if err := json.Unmarshal(raw, &settings); err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, on := range settings.EnabledPlugins {
		if on {
			n++
		}
	}
	return n
}

// ccTurn is one `claude -p` run as the fake saw it.
type ccTurn struct {
	first time.Duration // process start to the first main request's first bytes
	raw   []byte        // the first main request's body
	next  time.Duration // the first main request's arrival to the second's
	gap   time.Duration // the end of the first answer to the second request's arrival
}

// turn runs `claude -p hello` in h's project. With reads 0 the model
// answers "ok"; else it asks for that many Read calls of main.go in one
// answer, then, given their results, answers "read".
func (h *ccHome) turn(b *testing.B, f *ccFake, reads int) ccTurn {
	f.drain()
	want, final := 1, "ok"
	if reads > 0 {
		calls := make([]llmtest.ToolCall, reads)
		args, _ := json.Marshal(map[string]string{"file_path": filepath.Join(h.project, "main.go")})
		for i := range calls {
			calls[i] = llmtest.ToolCall{Name: "Read", Args: string(args)}
		}
		want, final = 2, "read"
		f.main.Push(llmtest.Reply{ToolCalls: calls}, llmtest.Reply{Text: final})
	} else {
		f.main.Push(llmtest.Reply{Text: final})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stdout, stderr := childproc.NewHeadTail(4<<10), childproc.NewHeadTail(4<<10)
	began := time.Now()
	p, err := childproc.Start(ctx, childproc.Spec{Path: h.bin, Args: []string{h.bin, "-p", "hello"}, Dir: h.project, Env: h.env,
		Stdout: stdout, Stderr: stderr, Sandbox: childproc.Sandbox{Unconfined: true}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop()
	exited := make(chan error, 1)
	go func() { exited <- p.Wait() }()
	var t ccTurn
	var arrived, answered []time.Time
	// The handler notes an answer's end just after writing it, so the
	// process may exit before that note is read: an exit leaves a moment
	// for what is still due.
	var exitErr error
	var late <-chan time.Time
	for wait := exited; len(answered) < want; {
		select {
		case e := <-f.at:
			if e.answered {
				answered = append(answered, e.at)
				continue
			}
			if len(arrived) == 0 {
				t.raw = e.raw
			}
			arrived = append(arrived, e.at)
		case exitErr = <-wait:
			wait, late = nil, time.After(2*time.Second)
		case <-late:
			b.Fatalf("claude exited after %d of %d main requests: %v\nstdout: %s\nstderr: %s", len(arrived), want, exitErr, stdout, stderr)
		case <-ctx.Done():
			b.Fatalf("claude: %d of %d main requests in 2 minutes\nstderr: %s", len(arrived), want, stderr)
		}
	}
	if late == nil {
		select {
		case exitErr = <-exited:
		case <-ctx.Done():
			b.Fatalf("claude did not exit after its last answer\nstderr: %s", stderr)
		}
	}
	if exitErr != nil {
		b.Fatalf("claude: %v\nstdout: %s\nstderr: %s", exitErr, stdout, stderr)
	}
	select {
	case e := <-f.at:
		b.Fatalf("a main request more than the %d scripted (answered: %t)", want, e.answered)
	default:
	}
	if got := strings.TrimSpace(stdout.String()); got != final {
		b.Fatalf("claude printed %q, want %q\nstderr: %s", got, final, stderr)
	}
	t.first = arrived[0].Sub(began)
	if reads > 0 {
		reqs := f.main.Requests()
		got := 0
		for _, m := range reqs[len(reqs)-1].Messages {
			got += len(m.ToolResults)
		}
		if got != reads {
			b.Fatalf("the second main request carries %d tool results, want %d", got, reads)
		}
		t.next, t.gap = arrived[1].Sub(arrived[0]), arrived[1].Sub(answered[0])
	}
	h.last = t
	return t
}

// ccListing is what a first main request lists: the Skill tool's skills
// and the Agent tool's agent types (both in the system-role message
// Claude Code puts in the messages), entries and bytes of each section,
// from its heading to the blank line that ends it.
type ccListing struct {
	skills, agents         int
	skillBytes, agentBytes int
}

const (
	ccSkillsHeading = "The following skills are available for use with the Skill tool:"
	ccAgentsHeading = "Available agent types for the Agent tool:"
)

func listingsOf(b *testing.B, raw []byte) ccListing {
	var body struct {
		System   []struct{ Text string } `json:"system"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		b.Fatal(err)
	}
	var texts []string
	for _, s := range body.System {
		texts = append(texts, s.Text)
	}
	for _, m := range body.Messages {
		var blocks []struct{ Text string }
		if json.Unmarshal(m.Content, &blocks) == nil {
			for _, c := range blocks {
				texts = append(texts, c.Text)
			}
		}
	}
	var l ccListing
	for _, t := range texts {
		if n, size := ccSection(t, ccSkillsHeading); size > 0 {
			l.skills, l.skillBytes = n, size
		}
		if n, size := ccSection(t, ccAgentsHeading); size > 0 {
			l.agents, l.agentBytes = n, size
		}
	}
	if l.skillBytes == 0 || l.agentBytes == 0 {
		b.Fatalf("the first main request has no skills listing (%q) or no agents listing (%q): Claude Code's prompt changed", ccSkillsHeading, ccAgentsHeading)
	}
	return l
}

// ccSection finds the section of text under heading: its "- " entries
// and its size in bytes (0 when absent).
func ccSection(text, heading string) (entries, size int) {
	i := strings.Index(text, heading)
	if i < 0 {
		return 0, 0
	}
	rest := text[i+len(heading):]
	body := strings.TrimLeft(rest, "\n")
	if end := strings.Index(body, "\n\n"); end >= 0 {
		body = body[:end]
	}
	for line := range strings.SplitSeq(body, "\n") {
		if strings.HasPrefix(line, "- ") {
			entries++
		}
	}
	return entries, len(heading) + len(rest) - len(strings.TrimLeft(rest, "\n")) + len(body)
}

func (l ccListing) String() string {
	return fmt.Sprintf("skills listing %d entries, %d bytes; agents listing %d entries, %d bytes", l.skills, l.skillBytes, l.agents, l.agentBytes)
}

// ccCompare collects the turns of the plugins home and the home with
// none, run alternately (plugins nil: none alone).
type ccCompare struct {
	plugins, none []ccTurn
}

func (c *ccCompare) run(plugins, none *ccHome, turn func(*ccHome) ccTurn) {
	if plugins == nil {
		c.none = append(c.none, turn(none))
		return
	}
	if len(c.none)%2 == 0 {
		c.plugins = append(c.plugins, turn(plugins))
		c.none = append(c.none, turn(none))
		return
	}
	c.none = append(c.none, turn(none))
	c.plugins = append(c.plugins, turn(plugins))
}

type ccSide struct {
	turns   []ccTurn
	plugins bool
}

func (s ccSide) name(plugins string) string {
	if s.plugins {
		return plugins
	}
	return "none"
}

func (s ccSide) of(metric func(ccTurn) time.Duration) []time.Duration {
	out := make([]time.Duration, len(s.turns))
	for i, t := range s.turns {
		out[i] = metric(t)
	}
	return out
}

func (c *ccCompare) sides() []ccSide {
	if c.plugins == nil {
		return []ccSide{{turns: c.none}}
	}
	return []ccSide{{turns: c.plugins, plugins: true}, {turns: c.none}}
}

// report reports the medians of metric as gittest.Paired does (name's
// and none's, and with plugins the pairwise difference and ratio).
func (c *ccCompare) report(b *testing.B, name string, metric func(ccTurn) time.Duration) {
	none := ccSide{turns: c.none}.of(metric)
	if c.plugins == nil {
		b.ReportMetric(gittest.Millis(gittest.Median(none)), "none-median-ms")
		return
	}
	gittest.ReportPairs(b, ccSide{turns: c.plugins}.of(metric), none, name, "none", "")
}
