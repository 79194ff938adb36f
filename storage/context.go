package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Compaction is the boundary of a context epoch: messages before
// BoundarySeq are summarised by Summary and no longer sent to the model.
type Compaction struct {
	SessionID   string
	Epoch       int
	BoundarySeq int64
	Summary     string
	CreatedAt   time.Time
}

// Compact durably starts a new context epoch for a session, in one
// transaction, and returns its number (the first compaction makes epoch 1;
// a session starts in epoch 0).
func (db *DB) Compact(ctx context.Context, sessionID string, boundarySeq int64, summary string) (int, error) {
	var epoch int
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
			INSERT INTO compactions(session_id, epoch, boundary_seq, summary, created_at)
			VALUES(?, (SELECT COALESCE(MAX(epoch), 0) + 1 FROM compactions WHERE session_id = ?), ?, ?, ?)
			RETURNING epoch`, sessionID, sessionID, boundarySeq, summary, now()).Scan(&epoch)
	})
	if err != nil {
		return 0, fmt.Errorf("store compaction of %s: %w", sessionID, err)
	}
	return epoch, nil
}

// Compactions lists a session's compactions, oldest first.
func (db *DB) Compactions(ctx context.Context, sessionID string) ([]Compaction, error) {
	rows, err := db.r.QueryContext(ctx,
		"SELECT epoch, boundary_seq, summary, created_at FROM compactions WHERE session_id = ? ORDER BY epoch", sessionID)
	if err != nil {
		return nil, fmt.Errorf("read compactions of %s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []Compaction
	for rows.Next() {
		c := Compaction{SessionID: sessionID}
		var created int64
		if err := rows.Scan(&c.Epoch, &c.BoundarySeq, &c.Summary, &created); err != nil {
			return nil, err
		}
		c.CreatedAt = fromMillis(created)
		out = append(out, c)
	}
	return out, rows.Err()
}

// ContextBlock is the latest context one extension added for one event in
// one epoch of a session.
type ContextBlock struct {
	SessionID string
	Epoch     int
	Source    string
	Event     string
	Hash      string
	Content   string
}

// PutContextBlock records a block, replacing the previous one of the same
// (session, epoch, source, event).
func (db *DB) PutContextBlock(ctx context.Context, b ContextBlock) error {
	_, err := db.w.ExecContext(ctx, `
		INSERT INTO context_blocks(session_id, epoch, source, event, hash, content, updated_at)
		VALUES(?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(session_id, epoch, source, event)
		DO UPDATE SET hash = excluded.hash, content = excluded.content, updated_at = excluded.updated_at`,
		b.SessionID, b.Epoch, b.Source, b.Event, b.Hash, b.Content, now())
	if err != nil {
		return fmt.Errorf("store context of %s for session %s: %w", b.Source, b.SessionID, err)
	}
	return nil
}

// ContextBlocks returns the blocks of one epoch of a session.
func (db *DB) ContextBlocks(ctx context.Context, sessionID string, epoch int) ([]ContextBlock, error) {
	rows, err := db.r.QueryContext(ctx,
		"SELECT source, event, hash, content FROM context_blocks WHERE session_id = ? AND epoch = ? ORDER BY source, event",
		sessionID, epoch)
	if err != nil {
		return nil, fmt.Errorf("read context of session %s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []ContextBlock
	for rows.Next() {
		b := ContextBlock{SessionID: sessionID, Epoch: epoch}
		if err := rows.Scan(&b.Source, &b.Event, &b.Hash, &b.Content); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}
