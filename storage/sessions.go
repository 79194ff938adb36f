package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned when a looked-up row does not exist.
var ErrNotFound = errors.New("not found")

// Session kinds.
const (
	KindChat  = "chat"
	KindRalph = "ralph" // a Ralph round: a fresh-context child of a chat session
	KindAgent = "agent" // a delegated task: a subagent's fresh-context child run
)

// Session is one conversation in a project.
type Session struct {
	ID        string
	ProjectID int64
	ParentID  string // set for Ralph rounds
	Kind      string
	Title     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Message is one stored message. Parts is the agent's JSON encoding of
// the message's parts; storage does not interpret it.
type Message struct {
	SessionID string
	Seq       int64
	Role      string
	Parts     []byte
	Tokens    int
	CreatedAt time.Time
}

// CreateSession stores a new session; s.ID is chosen by the caller.
func (db *DB) CreateSession(ctx context.Context, s Session) (Session, error) {
	if s.Kind == "" {
		s.Kind = KindChat
	}
	t := now()
	s.CreatedAt, s.UpdatedAt = fromMillis(t), fromMillis(t)
	var parent any
	if s.ParentID != "" {
		parent = s.ParentID
	}
	_, err := db.w.ExecContext(ctx,
		"INSERT INTO sessions(id, project_id, parent_id, kind, title, created_at, updated_at) VALUES(?, ?, ?, ?, ?, ?, ?)",
		s.ID, s.ProjectID, parent, s.Kind, s.Title, t, t)
	if err != nil {
		return Session{}, fmt.Errorf("create session: %w", err)
	}
	return s, nil
}

const sessionColumns = "id, project_id, COALESCE(parent_id, ''), kind, title, created_at, updated_at"

func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var created, updated int64
	err := row.Scan(&s.ID, &s.ProjectID, &s.ParentID, &s.Kind, &s.Title, &created, &updated)
	s.CreatedAt, s.UpdatedAt = fromMillis(created), fromMillis(updated)
	return s, err
}

// Session reads one session.
func (db *DB) Session(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(db.r.QueryRowContext(ctx, "SELECT "+sessionColumns+" FROM sessions WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("read session %s: %w", id, err)
	}
	return s, nil
}

// Sessions lists a project's chat sessions, most recently active first.
func (db *DB) Sessions(ctx context.Context, projectID int64) ([]Session, error) {
	rows, err := db.r.QueryContext(ctx,
		"SELECT "+sessionColumns+" FROM sessions WHERE project_id = ? AND kind = ? ORDER BY updated_at DESC, created_at DESC",
		projectID, KindChat)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// RenameSession changes a session's title.
func (db *DB) RenameSession(ctx context.Context, id, title string) error {
	return db.execOne(ctx, "rename session "+id, "UPDATE sessions SET title = ? WHERE id = ?", title, id)
}

// DeleteSession removes a session with its messages, children and
// context records. It returns the ids of the children it removed (at any
// depth), so files kept per session can go with them.
func (db *DB) DeleteSession(ctx context.Context, id string) (children []string, err error) {
	what := "delete session " + id
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `
			WITH RECURSIVE tree(id) AS (
				SELECT id FROM sessions WHERE parent_id = ?
				UNION ALL SELECT s.id FROM sessions s JOIN tree ON s.parent_id = tree.id)
			SELECT id FROM tree`, id)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		defer rows.Close()
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			children = append(children, c)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%s: %w", what, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return children, nil
}

func (db *DB) execOne(ctx context.Context, what, query string, args ...any) error {
	res, err := db.w.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}

// AppendMessage stores the next message of a session and returns its
// sequence number. It is called once per complete message, never per
// streamed token.
func (db *DB) AppendMessage(ctx context.Context, m Message) (int64, error) {
	var seq int64
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		t := now()
		err := tx.QueryRowContext(ctx, `
			INSERT INTO messages(session_id, seq, role, parts, tokens, created_at)
			VALUES(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = ?), ?, ?, ?, ?)
			RETURNING seq`, m.SessionID, m.SessionID, m.Role, string(m.Parts), m.Tokens, t).Scan(&seq)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE sessions SET updated_at = ? WHERE id = ?", t, m.SessionID)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store message in session %s: %w", m.SessionID, err)
	}
	return seq, nil
}

// Messages returns a session's messages with seq >= fromSeq, in order.
func (db *DB) Messages(ctx context.Context, sessionID string, fromSeq int64) ([]Message, error) {
	rows, err := db.r.QueryContext(ctx,
		"SELECT seq, role, parts, tokens, created_at FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq",
		sessionID, fromSeq)
	if err != nil {
		return nil, fmt.Errorf("read messages of %s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		m := Message{SessionID: sessionID}
		var parts string
		var created int64
		if err := rows.Scan(&m.Seq, &m.Role, &parts, &m.Tokens, &created); err != nil {
			return nil, err
		}
		m.Parts, m.CreatedAt = []byte(parts), fromMillis(created)
		out = append(out, m)
	}
	return out, rows.Err()
}

// LastSeq is the sequence number of a session's newest message; 0 when it
// has none.
func (db *DB) LastSeq(ctx context.Context, sessionID string) (int64, error) {
	var seq int64
	if err := db.r.QueryRowContext(ctx, "SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ?", sessionID).Scan(&seq); err != nil {
		return 0, fmt.Errorf("read messages of %s: %w", sessionID, err)
	}
	return seq, nil
}
