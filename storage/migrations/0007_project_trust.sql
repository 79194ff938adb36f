-- Folder trust: a project's own Claude Code settings (hooks, MCP servers,
-- allow rules) run only once the user trusted that folder. The row keeps
-- the hash of what was trusted and a JSON snapshot of it, so a change is
-- shown as a diff and waits for trust again (extensions/project).
CREATE TABLE project_trust (
    path          TEXT PRIMARY KEY, -- the canonical folder
    hash          TEXT NOT NULL,
    snapshot      TEXT NOT NULL,
    review_reason TEXT NOT NULL DEFAULT '',
    trusted_at    INTEGER NOT NULL
);
