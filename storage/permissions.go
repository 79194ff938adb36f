package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PermissionRule is one rule the user saved for a project.
type PermissionRule struct {
	ID        int64
	ProjectID int64
	Behavior  string // allow, ask or deny
	Rule      string // Claude Code syntax, validated by the caller
	CreatedAt time.Time
}

// AddPermissionRule saves a rule for a project; saving the same rule
// again keeps the first.
func (db *DB) AddPermissionRule(ctx context.Context, projectID int64, behavior, rule string) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO permission_rules(project_id, behavior, rule, created_at)
		VALUES(?, ?, ?, ?) ON CONFLICT DO NOTHING`, projectID, behavior, rule, now())
	if err != nil {
		return fmt.Errorf("save permission rule %s: %w", rule, err)
	}
	return nil
}

// PermissionRules lists a project's saved rules, oldest first.
func (db *DB) PermissionRules(ctx context.Context, projectID int64) ([]PermissionRule, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT id, project_id, behavior, rule, created_at FROM permission_rules
		WHERE project_id = ? ORDER BY id`, projectID)
	if err != nil {
		return nil, fmt.Errorf("list permission rules: %w", err)
	}
	defer rows.Close()
	var out []PermissionRule
	for rows.Next() {
		var r PermissionRule
		var created int64
		if err := rows.Scan(&r.ID, &r.ProjectID, &r.Behavior, &r.Rule, &created); err != nil {
			return nil, fmt.Errorf("list permission rules: %w", err)
		}
		r.CreatedAt = fromMillis(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeletePermissionRule removes one saved rule and returns what it was
// (ok false when there was none).
func (db *DB) DeletePermissionRule(ctx context.Context, id int64) (gone PermissionRule, ok bool, err error) {
	var created int64
	err = db.w.QueryRowContext(ctx, "DELETE FROM permission_rules WHERE id = ? RETURNING id, project_id, behavior, rule, created_at", id).
		Scan(&gone.ID, &gone.ProjectID, &gone.Behavior, &gone.Rule, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return PermissionRule{}, false, nil
	}
	if err != nil {
		return PermissionRule{}, false, fmt.Errorf("delete permission rule: %w", err)
	}
	gone.CreatedAt = fromMillis(created)
	return gone, true, nil
}
