package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrExists is returned when installing an extension id that is taken.
var ErrExists = errors.New("already exists")

// HookRunHistory is how many hook runs are kept per extension.
const HookRunHistory = 50

// Extension is one row of the registry.
type Extension struct {
	ID           string
	InstallOrder int
	SourceURL    string
	RequestedRef string
	// Plugin names the marketplace entry the extension was installed
	// from (SourceURL is then the marketplace); PluginSource is where
	// that entry pointed (marketplace.Source as JSON).
	Plugin         string
	PluginSource   string
	ActiveCommit   string
	PreviousCommit string
	Enabled        bool
	TrustedHash    string // hash of the hook list the user approved
	ReviewReason   string // non-empty: inactive until the user reviews again
	LastError      string
	// Projects are the canonical folders an enabled extension is active
	// in; none: everywhere.
	Projects    []string
	InstalledAt time.Time
	UpdatedAt   time.Time
}

// ExtensionVersion is what was validated for one commit of an extension.
// Package is the extensions package's JSON encoding of it.
type ExtensionVersion struct {
	ExtensionID string
	Commit      string
	Version     string
	DisplayName string
	HooksHash   string
	Package     []byte
	CreatedAt   time.Time
}

// HookRun is one recorded hook execution.
type HookRun struct {
	ExtensionID string
	// Project is the canonical folder of a project's own hook (extension
	// ProjectHooks): those runs are kept per folder.
	Project   string
	HookKey   string
	Event     string
	Argv      []string
	StartedAt time.Time
	Duration  time.Duration
	ExitCode  int
	BytesOut  int64
	Error     string
}

const extensionColumns = `id, install_order, source_url, requested_ref, active_commit, previous_commit,
	enabled, trusted_hash, review_reason, last_error, installed_at, updated_at, plugin, plugin_source, enabled_projects`

func scanExtension(row interface{ Scan(...any) error }) (Extension, error) {
	var e Extension
	var installed, updated int64
	var projects string
	err := row.Scan(&e.ID, &e.InstallOrder, &e.SourceURL, &e.RequestedRef, &e.ActiveCommit, &e.PreviousCommit,
		&e.Enabled, &e.TrustedHash, &e.ReviewReason, &e.LastError, &installed, &updated, &e.Plugin, &e.PluginSource, &projects)
	e.InstalledAt, e.UpdatedAt = fromMillis(installed), fromMillis(updated)
	if err == nil && projects != "[]" {
		if jerr := json.Unmarshal([]byte(projects), &e.Projects); jerr != nil {
			return e, fmt.Errorf("projects of extension %s: %w", e.ID, jerr)
		}
	}
	return e, err
}

// Extensions lists the registry in installation order.
func (db *DB) Extensions(ctx context.Context) ([]Extension, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT "+extensionColumns+" FROM extensions ORDER BY install_order")
	if err != nil {
		return nil, fmt.Errorf("list extensions: %w", err)
	}
	defer rows.Close()
	var out []Extension
	for rows.Next() {
		e, err := scanExtension(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Extension reads one registry row.
func (db *DB) Extension(ctx context.Context, id string) (Extension, error) {
	return getExtension(ctx, db.r, id)
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func getExtension(ctx context.Context, q queryer, id string) (Extension, error) {
	e, err := scanExtension(q.QueryRowContext(ctx, "SELECT "+extensionColumns+" FROM extensions WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Extension{}, fmt.Errorf("extension %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Extension{}, fmt.Errorf("read extension %s: %w", id, err)
	}
	return e, nil
}

// ExtensionVersion reads what was validated for one commit.
func (db *DB) ExtensionVersion(ctx context.Context, id, commit string) (ExtensionVersion, error) {
	v := ExtensionVersion{ExtensionID: id, Commit: commit}
	var pkg string
	var created int64
	err := db.r.QueryRowContext(ctx,
		"SELECT version, display_name, hooks_hash, package, created_at FROM extension_versions WHERE extension_id = ? AND commit_id = ?",
		id, commit).Scan(&v.Version, &v.DisplayName, &v.HooksHash, &pkg, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return ExtensionVersion{}, fmt.Errorf("extension %s at %s: %w", id, commit, ErrNotFound)
	}
	if err != nil {
		return ExtensionVersion{}, fmt.Errorf("read extension %s at %s: %w", id, commit, err)
	}
	v.Package, v.CreatedAt = []byte(pkg), fromMillis(created)
	return v, nil
}

// RegistryGeneration is the registry's change counter: triggers bump it
// in the same transaction as every write to the extensions, their
// versions and their option settings, whichever process writes. Equal
// numbers mean nothing a reader of Extensions and ExtensionVersion sees
// has changed.
func (db *DB) RegistryGeneration(ctx context.Context) (int64, error) {
	var n int64
	if err := db.r.QueryRowContext(ctx, "SELECT n FROM registry_generation WHERE id = 1").Scan(&n); err != nil {
		return 0, fmt.Errorf("read registry generation: %w", err)
	}
	return n, nil
}

// BumpRegistryGeneration marks a registry change the triggers cannot
// see: a sensitive option value, kept in the keyring, not in a row.
func (db *DB) BumpRegistryGeneration(ctx context.Context) error {
	_, err := db.w.ExecContext(ctx, "UPDATE registry_generation SET n = n + 1 WHERE id = 1")
	if err != nil {
		return fmt.Errorf("bump registry generation: %w", err)
	}
	return nil
}

// ExtensionVersionKey is what identifies one version record's content
// without reading it: its hooks hash and how often the record was
// rewritten (a re-stamp or a revalidation bumps the revision).
func (db *DB) ExtensionVersionKey(ctx context.Context, id, commit string) (hooksHash string, revision int64, err error) {
	err = db.r.QueryRowContext(ctx,
		"SELECT hooks_hash, revision FROM extension_versions WHERE extension_id = ? AND commit_id = ?",
		id, commit).Scan(&hooksHash, &revision)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, fmt.Errorf("extension %s at %s: %w", id, commit, ErrNotFound)
	}
	if err != nil {
		return "", 0, fmt.Errorf("read extension %s at %s: %w", id, commit, err)
	}
	return hooksHash, revision, nil
}

// InstallExtension adds a new registry row and its first version in one
// transaction: the commit point of an install. The new extension comes
// last in installation order. e.ID taken → ErrExists.
func (db *DB) InstallExtension(ctx context.Context, e Extension, v ExtensionVersion) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		var taken int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM extensions WHERE id = ?", e.ID).Scan(&taken); err != nil {
			return err
		}
		if taken > 0 {
			return fmt.Errorf("extension %s: %w", e.ID, ErrExists)
		}
		t := now()
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO extensions(id, install_order, source_url, requested_ref, active_commit, previous_commit,
				enabled, trusted_hash, review_reason, last_error, installed_at, updated_at, plugin, plugin_source)
			VALUES(?, (SELECT COALESCE(MAX(install_order), 0) + 1 FROM extensions), ?, ?, ?, '', 0, '', '', '', ?, ?, ?, ?)`,
			e.ID, e.SourceURL, e.RequestedRef, v.Commit, t, t, e.Plugin, e.PluginSource); err != nil {
			return fmt.Errorf("register extension %s: %w", e.ID, err)
		}
		return putVersion(ctx, tx, v)
	})
}

func putVersion(ctx context.Context, tx *sql.Tx, v ExtensionVersion) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO extension_versions(extension_id, commit_id, version, display_name, hooks_hash, package, created_at)
		VALUES(?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(extension_id, commit_id) DO UPDATE SET version = excluded.version,
			display_name = excluded.display_name, hooks_hash = excluded.hooks_hash, package = excluded.package,
			revision = extension_versions.revision + 1`,
		v.ExtensionID, v.Commit, v.Version, v.DisplayName, v.HooksHash, string(v.Package), now())
	if err != nil {
		return fmt.Errorf("record version %s of %s: %w", v.Commit, v.ExtensionID, err)
	}
	return nil
}

// UpdateExtension is the one read-modify-write of a registry row: in one
// immediate transaction it reads the row, lets change edit it, records
// newVersion if given, writes the row back and drops version records that
// are neither active nor previous. It returns the row as written and the
// commits whose records were dropped (their store folders may go).
func (db *DB) UpdateExtension(ctx context.Context, id string, newVersion *ExtensionVersion,
	change func(*Extension) error) (Extension, []string, error) {
	var out Extension
	var dropped []string
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		e, err := getExtension(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := change(&e); err != nil {
			return err
		}
		if newVersion != nil {
			if err := putVersion(ctx, tx, *newVersion); err != nil {
				return err
			}
		}
		e.UpdatedAt = fromMillis(now())
		if err := writeExtension(ctx, tx, e); err != nil {
			return err
		}
		dropped, err = pruneVersions(ctx, tx, e)
		out = e
		return err
	})
	return out, dropped, err
}

func writeExtension(ctx context.Context, tx *sql.Tx, e Extension) error {
	projects := []byte("[]")
	if len(e.Projects) > 0 {
		projects, _ = json.Marshal(e.Projects)
	}
	_, err := tx.ExecContext(ctx, `
		UPDATE extensions SET requested_ref = ?, active_commit = ?, previous_commit = ?, enabled = ?,
			trusted_hash = ?, review_reason = ?, last_error = ?, updated_at = ?, plugin_source = ?, enabled_projects = ?
		WHERE id = ?`,
		e.RequestedRef, e.ActiveCommit, e.PreviousCommit, e.Enabled, e.TrustedHash, e.ReviewReason, e.LastError,
		e.UpdatedAt.UnixMilli(), e.PluginSource, string(projects), e.ID)
	if err != nil {
		return fmt.Errorf("update extension %s: %w", e.ID, err)
	}
	return nil
}

func pruneVersions(ctx context.Context, tx *sql.Tx, e Extension) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `
		DELETE FROM extension_versions WHERE extension_id = ? AND commit_id NOT IN (?, ?)
		RETURNING commit_id`, e.ID, e.ActiveCommit, e.PreviousCommit)
	if err != nil {
		return nil, fmt.Errorf("prune versions of %s: %w", e.ID, err)
	}
	defer rows.Close()
	var dropped []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		dropped = append(dropped, c)
	}
	return dropped, rows.Err()
}

// DeleteExtension removes an extension's registry row, versions, errors
// and run history.
func (db *DB) DeleteExtension(ctx context.Context, id string) error {
	return db.execOne(ctx, "delete extension "+id, "DELETE FROM extensions WHERE id = ?", id)
}

// RecordHookRun stores one run, keeps the newest HookRunHistory runs of
// the extension, and sets or clears the hook's last error, in one
// transaction.
func (db *DB) RecordHookRun(ctx context.Context, r HookRun) error {
	return db.RecordHookRuns(ctx, []HookRun{r})
}

// RecordHookRuns is RecordHookRun for several runs, in order, in one
// transaction.
func (db *DB) RecordHookRuns(ctx context.Context, runs []HookRun) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		for _, r := range runs {
			if err := recordHookRun(ctx, tx, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// ProjectHooks is the extension id a project's own hooks run under
// (manifest.ProjectID); their runs are kept by folder, there being no
// extension row.
const ProjectHooks = "project"

func recordHookRun(ctx context.Context, tx *sql.Tx, r HookRun) error {
	argv, err := json.Marshal(r.Argv)
	if err != nil {
		return err
	}
	if r.ExtensionID == ProjectHooks {
		return recordProjectHookRun(ctx, tx, r, string(argv))
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO hook_runs(extension_id, event, argv, started_at, duration_ms, exit_code, bytes_out, error)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ExtensionID, r.Event, string(argv), r.StartedAt.UnixMilli(), r.Duration.Milliseconds(), r.ExitCode, r.BytesOut, r.Error); err != nil {
		return fmt.Errorf("record hook run of %s: %w", r.ExtensionID, err)
	}
	if _, err := tx.ExecContext(ctx, `
		DELETE FROM hook_runs WHERE extension_id = ? AND id NOT IN
			(SELECT id FROM hook_runs WHERE extension_id = ? ORDER BY id DESC LIMIT ?)`,
		r.ExtensionID, r.ExtensionID, HookRunHistory); err != nil {
		return fmt.Errorf("trim hook runs of %s: %w", r.ExtensionID, err)
	}
	return setHookError(ctx, tx, r)
}

func setHookError(ctx context.Context, tx *sql.Tx, r HookRun) error {
	var err error
	if r.Error == "" {
		_, err = tx.ExecContext(ctx, "DELETE FROM hook_errors WHERE extension_id = ? AND hook_key = ?", r.ExtensionID, r.HookKey)
	} else {
		_, err = tx.ExecContext(ctx, `
			INSERT INTO hook_errors(extension_id, hook_key, error, at) VALUES(?, ?, ?, ?)
			ON CONFLICT(extension_id, hook_key) DO UPDATE SET error = excluded.error, at = excluded.at`,
			r.ExtensionID, r.HookKey, r.Error, r.StartedAt.UnixMilli())
	}
	if err != nil {
		return fmt.Errorf("record hook error of %s: %w", r.ExtensionID, err)
	}
	return nil
}

func recordProjectHookRun(ctx context.Context, tx *sql.Tx, r HookRun, argv string) error {
	if r.Project == "" {
		return nil // not said which folder: nowhere to keep it
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO project_hook_runs(project, event, argv, started_at, duration_ms, exit_code, bytes_out, error)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Project, r.Event, argv, r.StartedAt.UnixMilli(), r.Duration.Milliseconds(), r.ExitCode, r.BytesOut, r.Error); err != nil {
		return fmt.Errorf("record hook run of %s: %w", r.Project, err)
	}
	if _, err := tx.ExecContext(ctx, `
		DELETE FROM project_hook_runs WHERE project = ? AND id NOT IN
			(SELECT id FROM project_hook_runs WHERE project = ? ORDER BY id DESC LIMIT ?)`,
		r.Project, r.Project, HookRunHistory); err != nil {
		return fmt.Errorf("trim hook runs of %s: %w", r.Project, err)
	}
	return nil
}

// ProjectHookRuns returns up to limit of the newest runs of the project
// folder dir's own hooks, newest first.
func (db *DB) ProjectHookRuns(ctx context.Context, dir string, limit int) ([]HookRun, error) {
	return db.hookRuns(ctx, `SELECT event, argv, started_at, duration_ms, exit_code, bytes_out, error
		FROM project_hook_runs WHERE project = ? ORDER BY id DESC LIMIT ?`, dir, limit, HookRun{ExtensionID: ProjectHooks, Project: dir})
}

// HookRuns returns up to limit of an extension's newest runs, newest first.
func (db *DB) HookRuns(ctx context.Context, id string, limit int) ([]HookRun, error) {
	return db.hookRuns(ctx, `SELECT event, argv, started_at, duration_ms, exit_code, bytes_out, error
		FROM hook_runs WHERE extension_id = ? ORDER BY id DESC LIMIT ?`, id, limit, HookRun{ExtensionID: id})
}

// hookRuns reads the runs query selects for key, each starting as proto.
func (db *DB) hookRuns(ctx context.Context, query, key string, limit int, proto HookRun) ([]HookRun, error) {
	rows, err := db.r.QueryContext(ctx, query, key, limit)
	if err != nil {
		return nil, fmt.Errorf("read hook runs of %s: %w", key, err)
	}
	defer rows.Close()
	var out []HookRun
	for rows.Next() {
		r := proto
		var argv string
		var started, ms int64
		if err := rows.Scan(&r.Event, &argv, &started, &ms, &r.ExitCode, &r.BytesOut, &r.Error); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(argv), &r.Argv); err != nil {
			return nil, fmt.Errorf("hook run argv of %s: %w", key, err)
		}
		r.StartedAt, r.Duration = fromMillis(started), time.Duration(ms)*time.Millisecond
		out = append(out, r)
	}
	return out, rows.Err()
}

// HookErrors returns the current last error of each failing hook of an
// extension, by hook key.
func (db *DB) HookErrors(ctx context.Context, id string) (map[string]string, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT hook_key, error FROM hook_errors WHERE extension_id = ?", id)
	if err != nil {
		return nil, fmt.Errorf("read hook errors of %s: %w", id, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, e string
		if err := rows.Scan(&k, &e); err != nil {
			return nil, err
		}
		out[k] = e
	}
	return out, rows.Err()
}
