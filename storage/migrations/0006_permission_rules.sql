-- The user's own permission rules per project, in Claude Code's syntax
-- (agent/permissions parses them). They live here, never in the
-- project's .claude/ folder.
CREATE TABLE permission_rules (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    behavior   TEXT NOT NULL CHECK (behavior IN ('allow', 'ask', 'deny')),
    rule       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (project_id, behavior, rule)
);
