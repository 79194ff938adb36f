package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/storage"
)

const (
	// benchStreamTokens is the length of the streamed answer: llmtest
	// sends every 4 runes as its own SSE event, so each "tok " is one
	// chunk, one delta and one token.
	benchStreamTokens = 20_000
	// benchSessionMessages is the size of the stored session to open.
	benchSessionMessages = 5_000
	// benchGuard bounds one wait of a benchmark; it only turns a hang into
	// a failure.
	benchGuard = time.Minute
)

// newBenchAgent is an agent on a temp database and project talking to
// server through the real OpenAI provider, with no extensions.
func newBenchAgent(b *testing.B, server *llmtest.Server, tune ...func(*llm.Config)) (*Agent, storage.Project) {
	b.Helper()
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, "proj"), 0o755); err != nil {
		b.Fatal(err)
	}
	db, err := storage.Open(context.Background(), filepath.Join(dir, "agentdesk.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	a := New(Config{DB: db, HomeDir: home, Policy: func() Policy { return PolicyNever },
		Provider: func() (llm.Provider, llm.Config, error) {
			cfg := server.Config()
			for _, f := range tune {
				f(&cfg)
			}
			p, err := NewProvider(cfg)
			return p, cfg, err
		}})
	p, err := a.OpenProject(context.Background(), filepath.Join(home, "proj"))
	if err != nil {
		b.Fatal(err)
	}
	return a, p
}

// BenchmarkSessionStream streams one long answer of many small chunks per
// op through a session, read by a consumer that drains the bus as fast as
// it is woken (as the CLI does). tokens/s counts only the time from
// Submit until the stored answer was drained; dropped counts turns whose
// complete answer never reached the consumer.
func BenchmarkSessionStream(b *testing.B) {
	server := llmtest.NewOpenAI(b)
	answer := strings.Repeat("tok ", benchStreamTokens)
	server.Respond(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: answer} })
	a, project := newBenchAgent(b, server)
	var streaming time.Duration
	turns, delivered := 0, 0
	for b.Loop() {
		took, ok := streamTurn(b, a, project, answer)
		streaming += took
		turns++
		if ok {
			delivered++
		}
	}
	b.ReportMetric(float64(turns*benchStreamTokens)/streaming.Seconds(), "tokens/s")
	b.ReportMetric(float64(turns-delivered), "dropped")
}

// streamTurn runs one prompt in a new session and reports how long it took
// until the consumer held the stored answer, and whether that answer was
// complete.
func streamTurn(b *testing.B, a *Agent, p storage.Project, answer string) (time.Duration, bool) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), benchGuard)
	defer cancel()
	s, err := a.NewSession(ctx, p)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.WaitIdle(ctx); err != nil {
		b.Fatalf("session start: %v", err)
	}
	s.Bus().Drain()
	began := time.Now()
	s.Submit("go")
	text, err := drainUntilAnswer(ctx, s.Bus())
	if err != nil {
		b.Fatalf("stream: %v", err)
	}
	took := time.Since(began)
	if err := s.WaitIdle(ctx); err != nil {
		b.Fatalf("turn end: %v", err)
	}
	return took, text == answer
}

// drainUntilAnswer drains bus until a stored assistant entry arrives and
// returns its text.
func drainUntilAnswer(ctx context.Context, bus *Bus) (string, error) {
	for bus.Wait(ctx) {
		events, _ := bus.Drain()
		for _, e := range events {
			if e.Kind == EventEntry && e.Entry.Role == llm.RoleAssistant {
				return e.Entry.Message().Text(), nil
			}
		}
	}
	return "", fmt.Errorf("no assistant entry: %w", ctx.Err())
}

// BenchmarkOpenSession5000 resumes a stored session of 5,000 messages:
// OpenSession (transcript and context restored) until its SessionStart
// (resume) job is done.
func BenchmarkOpenSession5000(b *testing.B) {
	a, project := newBenchAgent(b, llmtest.NewOpenAI(b))
	id := storeBenchSession(b, a, project)
	ctx := context.Background()
	for b.Loop() {
		s, err := a.OpenSession(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.WaitIdle(ctx); err != nil {
			b.Fatal(err)
		}
		if n := len(s.Entries()); n < benchSessionMessages {
			b.Fatalf("opened %d entries, want %d", n, benchSessionMessages)
		}
		s.Close()
	}
}

// storeBenchSession writes a session of benchSessionMessages alternating
// prompts and Markdown answers, as turns would have stored them.
func storeBenchSession(b *testing.B, a *Agent, p storage.Project) string {
	b.Helper()
	ctx := context.Background()
	info, err := a.cfg.DB.CreateSession(ctx, storage.Session{ID: newID(), ProjectID: p.ID, Title: "long session"})
	if err != nil {
		b.Fatal(err)
	}
	for i := range benchSessionMessages {
		e := Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: fmt.Sprintf("question %d: why does the build fail?", i)}}}
		if i%2 == 1 {
			e = Entry{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: benchAnswer(i)}}}
		}
		body, err := encodeEntry(e)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := a.cfg.DB.AppendMessage(ctx, storage.Message{SessionID: info.ID, Role: string(e.Role), Parts: body, Tokens: estimateParts(e.Parts)}); err != nil {
			b.Fatal(err)
		}
	}
	return info.ID
}

func benchAnswer(i int) string {
	return fmt.Sprintf("The build fails because `pkg%d` imports itself.\n\n- remove the import\n- run `go build ./...`\n\n```go\npackage pkg%d\n```\n", i, i)
}
