package ui

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/storage"
)

const (
	// memSessions sessions of memMessages messages each are walked.
	memSessions = 20
	memMessages = 500
)

// BenchmarkSessionWalkMemory opens one session of 500 messages, then (per
// op) the 19 others and the first again, each shown and laid out in the
// chat window as a user would click through the sidebar. rss-ratio is the
// process's RSS back at the first session after the last op over its RSS
// after first opening it (goal: ≤ 1.3); heap-ratio is the same for the Go
// heap in use, which shows what the views keep without the allocator's
// slack. Both are taken after a GC that returns freed memory to the OS.
//
// Fyne's test driver never drops a widget's renderer from its cache (the
// real driver ages out those unused for a minute), so every row ever
// built stays on the heap here: the ratios are an upper bound.
func BenchmarkSessionWalkMemory(b *testing.B) {
	h := newBenchUI(b, func() (llm.Provider, llm.Config, error) { return nil, llm.Config{}, context.DeadlineExceeded })
	ids := seedSessions(b, h, memSessions, memMessages)
	h.openSession(ids[0])
	rss1, heap1 := settledMemory(b)
	var rss2, heap2 uint64
	for b.Loop() {
		for _, id := range ids[1:] {
			h.openSession(id)
		}
		h.openSession(ids[0])
		rss2, heap2 = settledMemory(b)
	}
	// rows-kept: renderings the transcript view still holds (before the
	// fix, every row ever shown, session after session).
	b.ReportMetric(float64(len(h.ui.chat.transcript.owner)), "rows-kept")
	b.ReportMetric(float64(rss1)/(1<<20), "rss-first-MiB")
	b.ReportMetric(float64(rss2)/(1<<20), "rss-back-MiB")
	b.ReportMetric(float64(rss2)/float64(rss1), "rss-ratio")
	b.ReportMetric(float64(heap2)/float64(heap1), "heap-ratio")
}

// openSession opens a session as a click in the sidebar does and lays the
// window out, so its visible rows are built.
func (h *benchUI) openSession(id string) {
	h.b.Helper()
	c := h.ui.chat
	h.waitFor("the session in the sidebar", func() bool { return indexOf(c.sessions, id) >= 0 })
	c.onSelectSession(indexOf(c.sessions, id))
	h.waitFor("the session "+id, func() bool { return c.session != nil && c.session.ID() == id })
	relayout(h.ui.main)
	h.loop.runQueued()
	if builtRows(c.transcript) == 0 {
		h.b.Fatalf("session %s: no row was rendered", id)
	}
}

func indexOf(sessions []storage.Session, id string) int {
	for i, s := range sessions {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// seedSessions stores n sessions of m messages (prompts and Markdown
// answers) in the open project, in one transaction, and reloads the
// sidebar.
func seedSessions(b *testing.B, h *benchUI, n, m int) []string {
	b.Helper()
	ctx := context.Background()
	u, db, project := h.ui, h.db, h.ui.chat.project
	var ids []string
	for i := range n {
		s, err := db.CreateSession(ctx, storage.Session{ID: fmt.Sprintf("walk-%02d", i), ProjectID: project.ID, Title: fmt.Sprintf("session %d", i)})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			for seq, e := range benchMessages(m) {
				body, err := json.Marshal(struct {
					Parts []llm.Part `json:"parts"`
				}{e.Parts})
				if err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, "INSERT INTO messages(session_id, seq, role, parts, tokens, created_at) VALUES(?, ?, ?, ?, 0, ?)",
					id, seq+1, string(e.Role), string(body), time.Now().UnixMilli()); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	u.chat.reloadSessions(false)
	return ids
}

// benchMessages alternates prompts and Markdown answers with code.
func benchMessages(m int) []agent.Entry {
	out := make([]agent.Entry, m)
	for i := range out {
		e := agent.Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: fmt.Sprintf("question %d: why does the build fail?", i)}}}
		if i%2 == 1 {
			e.Role = llm.RoleAssistant
			e.Parts = []llm.Part{{Kind: llm.PartText, Text: fmt.Sprintf("The build fails because `pkg%d` imports itself.\n\n"+
				"- remove the import\n- run `go build ./...`\n\n```go\npackage pkg%d\n\nfunc main() { println(%d) }\n```\n", i, i, i)}}
		}
		out[i] = e
	}
	return out
}

// settledMemory is the process's RSS and the Go heap in use after a
// collection that hands freed memory back to the OS.
func settledMemory(b *testing.B) (rss, heap uint64) {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return residentBytes(b), ms.HeapInuse
}

// residentBytes is VmRSS from /proc/self/status (Linux).
func residentBytes(b *testing.B) uint64 {
	b.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status: RSS is read on Linux only")
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}
