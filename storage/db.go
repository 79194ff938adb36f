package storage

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/agentdesk/agentdesk/storage/secrets"
)

// busyTimeout is how long a writer waits for another writer (in this or
// another process) before SQLITE_BUSY reaches the caller.
const busyTimeout = 10 * time.Second

// readerConns bounds the read-only pool.
const readerConns = 4

//go:embed migrations/*.sql
var migrationFiles embed.FS

// ErrNewerSchema is returned when the database was written by a newer
// AgentDesk. The file is left untouched.
var ErrNewerSchema = errors.New("database written by a newer AgentDesk")

// DB is the AgentDesk database: one writer connection (SQLite allows one
// writer at a time; a single connection makes that explicit and keeps
// transactions immediate) plus a pool of read-only connections.
type DB struct {
	path    string
	w       *sql.DB
	r       *sql.DB
	secrets *secrets.Store // secret settings: never in a row
	leases  leases         // this process's session leases (lease.go)
}

// dsn builds a mattn/go-sqlite3 URI with net/url, because mattn cuts a raw
// path at the first '?'.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "FULL")
	// Deleted rows are overwritten with zeros, not left in free space: a
	// copied database must not hold a key that was moved out of it.
	q.Set("_secure_delete", "on")
	if readOnly {
		q.Set("mode", "ro")
		q.Set("_query_only", "on")
	} else {
		q.Set("_journal_mode", "WAL")
		q.Set("_txlock", "immediate")
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") { // Windows drive paths
		u.Path = "/" + u.Path
	}
	return u.String()
}

// Open opens (creating if needed) the database at path and brings its
// schema up to date. The file is created 0600: it may hold API keys.
func Open(ctx context.Context, path string) (*DB, error) {
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite3", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	db := &DB{path: path, w: w, secrets: secrets.New(keyringService, filepath.Join(filepath.Dir(path), "secrets.json"), false)}
	if err := db.migrate(ctx); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite3", dsn(path, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s read-only: %w", path, err)
	}
	r.SetMaxOpenConns(readerConns)
	db.r = r
	return db, nil
}

func createPrivate(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open database %s: %w", path, err)
	}
	return f.Close()
}

// Close closes both pools.
func (db *DB) Close() error {
	var errs []error
	if db.r != nil {
		errs = append(errs, db.r.Close())
	}
	errs = append(errs, db.w.Close())
	return errors.Join(errs...)
}

// Checkpoint copies the write-ahead log into the database file and
// empties it, so bytes overwritten by a delete (see secure_delete in dsn)
// remain in neither file.
func (db *DB) Checkpoint(ctx context.Context) error {
	var busy, frames, done int
	if err := db.w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &done); err != nil {
		return fmt.Errorf("checkpoint %s: %w", db.path, err)
	}
	if busy != 0 {
		return fmt.Errorf("checkpoint %s: another connection is reading; the log is kept", db.path)
	}
	return nil
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []migration
	for i, e := range entries {
		body, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		var v int
		if _, err := fmt.Sscanf(e.Name(), "%04d_", &v); err != nil || v != i+1 {
			return nil, fmt.Errorf("migration %s: want number %04d", e.Name(), i+1)
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	return out, nil
}

// SchemaVersion is the newest schema this build knows.
func SchemaVersion() int {
	ms, _ := loadMigrations()
	return len(ms)
}

// migrate applies the missing migrations inside one immediate transaction,
// tracked by PRAGMA user_version. A newer schema is refused untouched.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	return db.Tx(ctx, func(tx *sql.Tx) error {
		var current int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
			return fmt.Errorf("read schema version of %s: %w", db.path, err)
		}
		if current > len(ms) {
			return fmt.Errorf("%w: %s has schema version %d, this AgentDesk knows up to %d; update AgentDesk (the file was not modified)",
				ErrNewerSchema, db.path, current, len(ms))
		}
		for _, m := range ms[current:] {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
		}
		if current == len(ms) {
			return nil
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(ms)))
		return err
	})
}

// Tx runs fn in one immediate write transaction, committing when fn
// returns nil.
func (db *DB) Tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// lastStamp is the newest timestamp now has handed out in this process.
var lastStamp atomic.Int64

// now is the timestamp stored in rows: Unix milliseconds, strictly
// increasing within the process. Lists ordered by activity ("most
// recently active first") would otherwise tie on writes made in the same
// millisecond and come back in an arbitrary order; a stamp at most a few
// milliseconds ahead of the wall clock under a burst of writes is the
// price.
func now() int64 {
	for {
		last, t := lastStamp.Load(), time.Now().UnixMilli()
		if t <= last {
			t = last + 1
		}
		if lastStamp.CompareAndSwap(last, t) {
			return t
		}
	}
}

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms) }
