package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Setting reads one setting; ok is false when it was never set.
func (db *DB) Setting(ctx context.Context, key string) (value string, ok bool, err error) {
	err = db.r.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read setting %s: %w", key, err)
	}
	return value, true, nil
}

// SetSetting writes one setting.
func (db *DB) SetSetting(ctx context.Context, key, value string) error {
	return db.SetSettings(ctx, map[string]string{key: value})
}

// SetSettings writes several settings in one transaction.
func (db *DB) SetSettings(ctx context.Context, kv map[string]string) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		for k, v := range kv {
			if _, err := tx.ExecContext(ctx,
				"INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", k, v); err != nil {
				return fmt.Errorf("write setting %s: %w", k, err)
			}
		}
		return nil
	})
}

// DeleteSetting removes one setting (none set is no error).
func (db *DB) DeleteSetting(ctx context.Context, key string) error {
	if _, err := db.w.ExecContext(ctx, `DELETE FROM settings WHERE key = ?`, key); err != nil {
		return fmt.Errorf("delete setting %s: %w", key, err)
	}
	return nil
}

// DeleteSettings removes the settings whose key starts with prefix (the
// prefix itself included), e.g. every option of one extension.
func (db *DB) DeleteSettings(ctx context.Context, prefix string) error {
	if _, err := db.w.ExecContext(ctx, `DELETE FROM settings WHERE substr(key, 1, length(?)) = ?`, prefix, prefix); err != nil {
		return fmt.Errorf("delete settings %s: %w", prefix, err)
	}
	return nil
}
