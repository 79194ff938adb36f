package storage

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

func openTemp(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	raw, err := sql.Open("sqlite3", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMigrateFromEmptyAndReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a b?c#d", "agentdesk.db") // mattn must not cut at '?'
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetSetting(context.Background(), "k", "v"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := userVersion(t, path); got != SchemaVersion() || got < 3 {
		t.Fatalf("user_version = %d, want %d (>= 3)", got, SchemaVersion())
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("database mode = %o, want 600", perm)
	}
	db, err = Open(context.Background(), path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	if v, ok, err := db.Setting(context.Background(), "k"); err != nil || !ok || v != "v" {
		t.Fatalf("setting after reopen = %q %v %v", v, ok, err)
	}
}

func TestNewerSchemaRefusedUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentdesk.db")
	raw, err := sql.Open("sqlite3", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("CREATE TABLE future(x); PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before, _ := os.ReadFile(path)

	_, err = Open(context.Background(), path)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open = %v, want ErrNewerSchema", err)
	}
	if !strings.Contains(err.Error(), "schema version 99") || !strings.Contains(err.Error(), "not modified") {
		t.Errorf("message should name the version and reassure: %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a newer database was modified")
	}
	if v := userVersion(t, path); v != 99 {
		t.Errorf("user_version = %d, want 99", v)
	}
}

func TestTwoWritersAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentdesk.db")
	ctx := context.Background()
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, path) // a second handle stands in for a second process
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := a.OpenProject(ctx, "/p")
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.CreateSession(ctx, Session{ID: "s1", ProjectID: p.ID, Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	const perWriter = 100
	var wg sync.WaitGroup
	errs := make(chan error, 2*perWriter)
	for _, db := range []*DB{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWriter; i++ {
				if _, err := db.AppendMessage(ctx, Message{SessionID: s.ID, Role: "user", Parts: []byte(fmt.Sprint(i))}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent writer: %v", err)
	}
	msgs, err := b.Messages(ctx, s.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2*perWriter {
		t.Fatalf("got %d messages, want %d", len(msgs), 2*perWriter)
	}
	for i, m := range msgs {
		if m.Seq != int64(i+1) {
			t.Fatalf("message %d has seq %d: sequence numbers must be dense", i, m.Seq)
		}
	}
}

func TestSessionsAndMessagesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentdesk.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := db.OpenProject(ctx, "/src/foo")
	if _, err := db.CreateSession(ctx, Session{ID: "old", ProjectID: p.ID, Title: "first"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateSession(ctx, Session{ID: "new", ProjectID: p.ID, Title: "second"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateSession(ctx, Session{ID: "child", ProjectID: p.ID, ParentID: "new", Kind: KindRalph, Title: "round 1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateSession(ctx, Session{ID: "grandchild", ProjectID: p.ID, ParentID: "child", Kind: KindAgent, Title: "explorer"}); err != nil {
		t.Fatal(err)
	}
	want := []string{`[{"kind":"text","text":"hi"}]`, `[{"kind":"text","text":"hello"}]`}
	for i, parts := range want {
		role := []string{"user", "assistant"}[i]
		if _, err := db.AppendMessage(ctx, Message{SessionID: "old", Role: role, Parts: []byte(parts), Tokens: 3}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.RenameSession(ctx, "old", "renamed"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.Sessions(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "old" || list[0].Title != "renamed" {
		t.Fatalf("sessions = %+v; want the two chats, the one with messages first", list)
	}
	msgs, err := db.Messages(ctx, "old", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range msgs {
		if string(m.Parts) != want[i] || m.Tokens != 3 {
			t.Errorf("message %d = %s (%d tokens), want %s", i, m.Parts, m.Tokens, want[i])
		}
	}
	children, err := db.DeleteSession(ctx, "new")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(children)
	if !slices.Equal(children, []string{"child", "grandchild"}) {
		t.Errorf("children removed = %q, want child and grandchild", children)
	}
	for _, id := range []string{"child", "grandchild"} {
		if _, err := db.Session(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s of a deleted session: %v, want ErrNotFound", id, err)
		}
	}
	if _, err := db.DeleteSession(ctx, "new"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v, want ErrNotFound", err)
	}
}

func TestCompactionAndContextBlocks(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	p, _ := db.OpenProject(ctx, "/p")
	db.CreateSession(ctx, Session{ID: "s", ProjectID: p.ID, Title: "t"})
	for e := 1; e <= 2; e++ {
		got, err := db.Compact(ctx, "s", int64(10*e), fmt.Sprintf("summary %d", e))
		if err != nil || got != e {
			t.Fatalf("Compact #%d = %d, %v", e, got, err)
		}
	}
	cs, err := db.Compactions(ctx, "s")
	if err != nil || len(cs) != 2 || cs[1].BoundarySeq != 20 || cs[1].Summary != "summary 2" {
		t.Fatalf("compactions = %+v, %v", cs, err)
	}
	b := ContextBlock{SessionID: "s", Epoch: 2, Source: "ponytail", Event: "SessionStart", Hash: "h1", Content: "one"}
	if err := db.PutContextBlock(ctx, b); err != nil {
		t.Fatal(err)
	}
	b.Hash, b.Content = "h2", "two"
	if err := db.PutContextBlock(ctx, b); err != nil {
		t.Fatal(err)
	}
	blocks, err := db.ContextBlocks(ctx, "s", 2)
	if err != nil || len(blocks) != 1 || blocks[0].Content != "two" {
		t.Fatalf("blocks = %+v, %v; want the latest only", blocks, err)
	}
	if other, _ := db.ContextBlocks(ctx, "s", 1); len(other) != 0 {
		t.Fatalf("epoch 1 has %d blocks, want 0", len(other))
	}
}

// Writes made within one millisecond must still list in the order they
// happened: the chat list is "most recently active first".
func TestSessionsOrderByActivityWithinOneMillisecond(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, _ := db.OpenProject(ctx, "/src/foo")
	const n = 40
	for i := range n {
		if _, err := db.CreateSession(ctx, Session{ID: fmt.Sprint("s", i), ProjectID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	// Touch them in reverse creation order: s0 becomes the most recent.
	for i := n - 1; i >= 0; i-- {
		if _, err := db.AppendMessage(ctx, Message{SessionID: fmt.Sprint("s", i), Role: "user", Parts: []byte(`[]`)}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := db.Sessions(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != n {
		t.Fatalf("%d sessions, want %d", len(list), n)
	}
	for i, s := range list {
		if want := fmt.Sprint("s", i); s.ID != want {
			t.Fatalf("position %d holds %s, want %s (list: %v)", i, s.ID, want, list)
		}
	}
}

// Deleted settings leave no bytes behind once checkpointed.
func TestDeletedRowsAreZeroedAndCheckpointed(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	var on int
	if err := db.w.QueryRowContext(ctx, "PRAGMA secure_delete").Scan(&on); err != nil || on != 1 {
		t.Fatalf("secure_delete = %d, %v; want 1", on, err)
	}
	const secret = "very-secret-bytes-4242"
	if err := db.SetSetting(ctx, "x.secret", secret); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSettings(ctx, "x.secret"); err != nil {
		t.Fatal(err)
	}
	if err := db.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{db.Path(), db.Path() + "-wal"} {
		body, _ := os.ReadFile(f)
		if bytes.Contains(body, []byte(secret)) {
			t.Errorf("%s holds a deleted row's bytes", filepath.Base(f))
		}
	}
}
