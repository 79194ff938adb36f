package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/dispatch"
	"github.com/agentdesk/agentdesk/storage"
)

const (
	// benchStreamTokens is the length of the streamed answer: llmtest
	// sends every 4 runes as its own SSE event, so each "tok " is one
	// chunk, one delta and one token.
	benchStreamTokens = 20_000
	// benchTranscriptEntries is the size of the transcript to show.
	benchTranscriptEntries = 5_000
	// benchGuard bounds one wait of a benchmark; it only turns a hang into
	// a failure.
	benchGuard = time.Minute
	// benchPoll is how often a wait re-checks state that changes off the
	// UI goroutine (a session going idle).
	benchPoll = 5 * time.Millisecond
)

// benchUI is the chat window on real services in a temp AGENTDESK_HOME,
// its do seam a serial loop run by the benchmark goroutine, which counts
// the frames the chat pump hands it.
type benchUI struct {
	b      *testing.B
	loop   *uiLoop
	ui     *UI
	db     *storage.DB
	frames int // pump frames applied, counted on the loop goroutine
}

func newBenchUI(b *testing.B, provider func() (llm.Provider, llm.Config, error)) *benchUI {
	b.Helper()
	return newBenchUIWith(b, provider, nil)
}

// newBenchUIWith is newBenchUI whose model may delegate to agents.
func newBenchUIWith(b *testing.B, provider func() (llm.Provider, llm.Config, error), agents lifecycle.AgentSource) *benchUI {
	b.Helper()
	home := b.TempDir()
	b.Setenv(storage.HomeEnv, home)
	b.Setenv("HOME", filepath.Join(home, "home"))
	project := filepath.Join(home, "project")
	for _, dir := range []string{filepath.Join(home, "home"), project} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	paths := storage.ResolvePaths()
	if err := paths.Ensure(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, paths.Database())
	if err != nil {
		b.Fatal(err)
	}
	exts, err := extensions.NewManager(ctx, db, paths.Extensions())
	if err != nil {
		b.Fatal(err)
	}
	disp := dispatch.New(exts, dispatch.Config{})
	approvals := &agent.Approvals{}
	ag := agent.New(agent.Config{DB: db, Provider: provider, Lifecycle: disp, Skills: disp, Approver: approvals, Agents: agents,
		Policy: func() agent.Policy { return agent.PolicyNever }, HomeDir: filepath.Join(home, "home")})
	h := &benchUI{b: b, loop: newUILoop(), db: db}
	h.ui = New(Deps{App: test.NewTempApp(b), Do: h.do, Agent: ag, Approvals: approvals, Prefs: db, Extensions: exts,
		DataDir: paths.Data, LogFile: paths.LogFile(), DetectedPATH: func() string { return "/usr/bin:/bin" }, StartDir: project})
	b.Cleanup(func() {
		h.ui.Close()
		h.loop.runQueued()
		db.Close()
	})
	h.ui.main.Resize(fyne.NewSize(1000, 700))
	h.ui.main.Show()
	h.waitFor("the project to open", func() bool { return h.ui.chat.project.ID != 0 })
	return h
}

// do is the UI's do seam: it queues f on the loop, counting it as a frame
// when the chat pump sent it.
func (h *benchUI) do(f func()) {
	if !calledFromPump() {
		h.loop.do(f)
		return
	}
	h.loop.do(func() {
		h.frames++
		f()
	})
}

// calledFromPump reports whether chatView.pump is on the calling
// goroutine's stack, i.e. whether a do call carries a transcript frame.
func calledFromPump() bool {
	pcs := make([]uintptr, 8)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, ".(*chatView).pump") {
			return true
		}
		if !more {
			return false
		}
	}
}

// waitFor runs queued UI work until cond holds; it fails the benchmark
// after benchGuard (a guard against hangs, not a timing assertion).
func (h *benchUI) waitFor(what string, cond func() bool) {
	h.b.Helper()
	deadline := time.Now().Add(benchGuard)
	for {
		h.loop.runQueued()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			h.b.Fatalf("timed out waiting for %s", what)
		}
		select {
		case <-h.loop.wake:
		case <-time.After(benchPoll):
		}
	}
}

// BenchmarkChatStream streams one long answer of many small chunks per op
// into a new session of the chat window: the real pump drains the bus at
// its frame rate and applies each frame to the transcript on the serial
// loop. tokens/s and redraws/s count the time from Send until the stored
// answer is in the transcript; dropped counts answers that never arrived
// complete.
func BenchmarkChatStream(b *testing.B) {
	server := llmtest.NewOpenAI(b)
	answer := strings.Repeat("tok ", benchStreamTokens)
	server.Respond(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: answer} })
	h := newBenchUI(b, func() (llm.Provider, llm.Config, error) {
		cfg := server.Config()
		p, err := agent.NewProvider(cfg)
		return p, cfg, err
	})
	c := h.ui.chat
	var streaming time.Duration
	turns, frames, dropped := 0, 0, 0
	for b.Loop() {
		c.onNewSession()
		h.waitFor("the new session", func() bool { return c.session != nil && !c.session.Busy() })
		h.frames = 0
		began := time.Now()
		c.onSend("go")
		h.waitFor("the stored answer", func() bool { return lastAssistant(c.transcript) != nil })
		streaming += time.Since(began)
		frames += h.frames
		turns++
		if lastAssistant(c.transcript).entry.Message().Text() != answer {
			dropped++
		}
		h.waitFor("the turn to end", func() bool { return !c.session.Busy() })
	}
	b.ReportMetric(float64(turns*benchStreamTokens)/streaming.Seconds(), "tokens/s")
	b.ReportMetric(float64(frames)/streaming.Seconds(), "redraws/s")
	b.ReportMetric(float64(dropped), "dropped")
}

// benchChildTokens is the length of the child's streamed answer.
const benchChildTokens = 2_000

// fixedAgents offers one agent to the bench's model.
type fixedAgents []lifecycle.Agent

func (f fixedAgents) Agents(context.Context, string) lifecycle.AgentSet {
	return lifecycle.AgentSet{Agents: f}
}

// BenchmarkChatChildStream: the model delegates, and the child streams
// one long answer of many small chunks while the parent's window shows
// the delegated block: the window must keep to its frame rate (redraws/s
// ≤ 30) as for the conversation's own answer.
func BenchmarkChatChildStream(b *testing.B) {
	server := llmtest.NewOpenAI(b)
	answer := strings.Repeat("tok ", benchChildTokens)
	server.Respond(func(r llmtest.Request) llmtest.Reply {
		switch {
		case strings.Contains(r.System, "# Agent: explorer"):
			return llmtest.Reply{Text: answer}
		case len(r.LastMessage().ToolResults) > 0:
			return llmtest.Reply{Text: "done"}
		}
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"d","prompt":"p"}`}}}
	})
	h := newBenchUIWith(b, func() (llm.Provider, llm.Config, error) {
		cfg := server.Config()
		p, err := agent.NewProvider(cfg)
		return p, cfg, err
	}, fixedAgents{{Name: "explorer", Type: "x:explorer", Description: "explores", Tools: []string{"Read"}, Prompt: "explore"}})
	c := h.ui.chat
	var streaming time.Duration
	frames := 0
	for b.Loop() {
		c.onNewSession()
		h.waitFor("the new session", func() bool { return c.session != nil && !c.session.Busy() })
		h.frames = 0
		began := time.Now()
		c.onSend("go")
		h.waitFor("the child's answer", func() bool { return childDone(c.transcript) })
		streaming += time.Since(began)
		frames += h.frames
		h.waitFor("the turn to end", func() bool { return !c.session.Busy() })
	}
	b.ReportMetric(float64(frames)/streaming.Seconds(), "redraws/s")
}

// childDone reports whether a delegated block in the transcript is done.
func childDone(t *transcriptView) bool {
	for _, it := range t.rounds {
		if h := it.entry.Host; h != nil && h.Kind == agent.HostAgent && h.Status == agent.ChildDone {
			return true
		}
	}
	return false
}

// lastAssistant is the transcript's last row if it is a stored assistant
// message.
func lastAssistant(t *transcriptView) *item {
	if n := len(t.items); n > 0 && t.items[n-1].entry.Role == llm.RoleAssistant {
		return t.items[n-1]
	}
	return nil
}

// BenchmarkTranscriptOpen5000 puts a 5,000-message transcript into the
// chat window's transcript view and lays the window out, which builds the
// visible rows (what attach does after OpenSession returns).
func BenchmarkTranscriptOpen5000(b *testing.B) {
	h := newBenchUI(b, func() (llm.Provider, llm.Config, error) { return nil, llm.Config{}, context.DeadlineExceeded })
	t := h.ui.chat.transcript
	entries := benchTranscript()
	for b.Loop() {
		t.setEntries("long-session", entries)
		relayout(h.ui.main)
	}
	if built := builtRows(t); built == 0 {
		b.Fatal("no transcript row was rendered")
	}
}

// benchTranscript alternates prompts and Markdown answers.
func benchTranscript() []agent.Entry {
	entries := make([]agent.Entry, benchTranscriptEntries)
	for i := range entries {
		e := agent.Entry{Seq: int64(i + 1), Session: "long-session", Role: llm.RoleUser,
			Parts: []llm.Part{{Kind: llm.PartText, Text: fmt.Sprintf("question %d: why does the build fail?", i)}}}
		if i%2 == 1 {
			e.Role = llm.RoleAssistant
			e.Parts = []llm.Part{{Kind: llm.PartText, Text: fmt.Sprintf(
				"The build fails because `pkg%d` imports itself.\n\n- remove the import\n- run `go build ./...`\n\n```go\npackage pkg%d\n```\n", i, i)}}
		}
		entries[i] = e
	}
	return entries
}

// relayout makes the test canvas lay out again, as the real driver does
// every frame, so the virtualised list materialises its visible rows.
func relayout(w fyne.Window) {
	size := w.Canvas().Size()
	w.Resize(size.AddWidthHeight(1, 0))
	w.Resize(size)
}

func builtRows(t *transcriptView) int {
	built := 0
	for _, it := range t.items {
		if it.obj != nil {
			built++
		}
	}
	return built
}
