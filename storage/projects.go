package storage

import (
	"context"
	"fmt"
	"time"
)

// Project is a folder the user opened.
type Project struct {
	ID       int64
	Path     string
	OpenedAt time.Time
}

// OpenProject records that the canonical folder path was opened, creating
// the project on first use.
func (db *DB) OpenProject(ctx context.Context, path string) (Project, error) {
	t := now()
	var p Project
	var opened int64
	err := db.w.QueryRowContext(ctx, `
		INSERT INTO projects(path, created_at, opened_at) VALUES(?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET opened_at = excluded.opened_at
		RETURNING id, path, opened_at`, path, t, t).Scan(&p.ID, &p.Path, &opened)
	if err != nil {
		return Project{}, fmt.Errorf("open project %s: %w", path, err)
	}
	p.OpenedAt = fromMillis(opened)
	return p, nil
}

// Projects lists projects, most recently opened first.
func (db *DB) Projects(ctx context.Context) ([]Project, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT id, path, opened_at FROM projects ORDER BY opened_at DESC, id DESC")
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	defer rows.Close()
	var out []Project
	for rows.Next() {
		var p Project
		var opened int64
		if err := rows.Scan(&p.ID, &p.Path, &opened); err != nil {
			return nil, err
		}
		p.OpenedAt = fromMillis(opened)
		out = append(out, p)
	}
	return out, rows.Err()
}
