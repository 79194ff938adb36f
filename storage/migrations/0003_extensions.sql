-- The Agent Extensions registry. A row in extensions is the commit point
-- of an install or update: active_commit names a complete folder in the
-- store, and extension_versions holds what was validated for it.
CREATE TABLE extensions (
    id              TEXT PRIMARY KEY,
    install_order   INTEGER NOT NULL UNIQUE,
    source_url      TEXT NOT NULL,
    requested_ref   TEXT NOT NULL DEFAULT '',
    active_commit   TEXT NOT NULL,
    previous_commit TEXT NOT NULL DEFAULT '',
    enabled         INTEGER NOT NULL DEFAULT 0,
    trusted_hash    TEXT NOT NULL DEFAULT '',
    review_reason   TEXT NOT NULL DEFAULT '',
    last_error      TEXT NOT NULL DEFAULT '',
    installed_at    INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);

CREATE TABLE extension_versions (
    extension_id TEXT NOT NULL REFERENCES extensions(id) ON DELETE CASCADE,
    commit_id    TEXT NOT NULL,
    version      TEXT NOT NULL DEFAULT '',
    display_name TEXT NOT NULL,
    hooks_hash   TEXT NOT NULL,
    package      TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (extension_id, commit_id)
) WITHOUT ROWID;

CREATE TABLE hook_errors (
    extension_id TEXT NOT NULL REFERENCES extensions(id) ON DELETE CASCADE,
    hook_key     TEXT NOT NULL,
    error        TEXT NOT NULL,
    at           INTEGER NOT NULL,
    PRIMARY KEY (extension_id, hook_key)
) WITHOUT ROWID;

CREATE TABLE hook_runs (
    id           INTEGER PRIMARY KEY,
    extension_id TEXT NOT NULL REFERENCES extensions(id) ON DELETE CASCADE,
    event        TEXT NOT NULL,
    argv         TEXT NOT NULL,
    started_at   INTEGER NOT NULL,
    duration_ms  INTEGER NOT NULL,
    exit_code    INTEGER NOT NULL,
    bytes_out    INTEGER NOT NULL,
    error        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX hook_runs_by_extension ON hook_runs(extension_id, id);
