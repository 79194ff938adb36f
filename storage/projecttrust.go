package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ProjectTrust is what the user trusted of a folder's own settings.
type ProjectTrust struct {
	Path     string // the canonical folder
	Hash     string // of what runs, as trusted
	Snapshot string // JSON of what was trusted, for the diff
	// ReviewReason is set when something the trusted hooks run changed on
	// disk: the folder waits for trust again.
	ReviewReason string
	TrustedAt    time.Time
}

// ProjectTrust returns the trust of a folder; ErrNotFound when it was
// never trusted (or was untrusted).
func (db *DB) ProjectTrust(ctx context.Context, path string) (ProjectTrust, error) {
	t := ProjectTrust{Path: path}
	var at int64
	err := db.r.QueryRowContext(ctx, `SELECT hash, snapshot, review_reason, trusted_at FROM project_trust WHERE path = ?`, path).
		Scan(&t.Hash, &t.Snapshot, &t.ReviewReason, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return ProjectTrust{}, fmt.Errorf("trust of %s: %w", path, ErrNotFound)
	}
	if err != nil {
		return ProjectTrust{}, fmt.Errorf("trust of %s: %w", path, err)
	}
	t.TrustedAt = fromMillis(at)
	return t, nil
}

// TrustProject records that the user trusted what t describes, replacing
// an earlier trust of the folder.
func (db *DB) TrustProject(ctx context.Context, t ProjectTrust) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO project_trust(path, hash, snapshot, review_reason, trusted_at) VALUES(?, ?, ?, '', ?)
		ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, snapshot = excluded.snapshot, review_reason = '', trusted_at = excluded.trusted_at`,
		t.Path, t.Hash, t.Snapshot, now())
	if err != nil {
		return fmt.Errorf("trust %s: %w", t.Path, err)
	}
	return nil
}

// UntrustProject forgets a folder's trust; an untrusted folder is no error.
func (db *DB) UntrustProject(ctx context.Context, path string) error {
	if _, err := db.w.ExecContext(ctx, `DELETE FROM project_trust WHERE path = ?`, path); err != nil {
		return fmt.Errorf("untrust %s: %w", path, err)
	}
	return nil
}

// MarkProjectForReview keeps the folder's trust row (for the diff) but
// makes it wait for trust again, saying why.
func (db *DB) MarkProjectForReview(ctx context.Context, path, reason string) error {
	if _, err := db.w.ExecContext(ctx, `UPDATE project_trust SET review_reason = ? WHERE path = ?`, reason, path); err != nil {
		return fmt.Errorf("mark %s for review: %w", path, err)
	}
	return nil
}
