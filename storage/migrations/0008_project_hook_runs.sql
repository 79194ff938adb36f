-- The run history of a project's own hooks (.claude/settings.json), as
-- hook_runs keeps it for installed extensions, keyed by the canonical
-- folder instead of an extension row. Trimmed per folder on insert.
CREATE TABLE project_hook_runs (
    id          INTEGER PRIMARY KEY,
    project     TEXT NOT NULL,
    event       TEXT NOT NULL,
    argv        TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    exit_code   INTEGER NOT NULL,
    bytes_out   INTEGER NOT NULL,
    error       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX project_hook_runs_by_project ON project_hook_runs(project, id);
