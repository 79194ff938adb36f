-- Where an extension is enabled, and which of its MCP tools the user
-- switched off (docs/extensions.md, "Per project, per tool").
-- enabled_projects is a JSON array of canonical project folders
-- (extensions/project.Canonical): '[]' is everywhere (as before); a list
-- makes the extension active only in sessions of those folders. The
-- extensions row triggers of 0009 already bump the registry generation.
ALTER TABLE extensions ADD COLUMN enabled_projects TEXT NOT NULL DEFAULT '[]';

-- One row per MCP tool switched off: it is never offered to the model,
-- never found by tool_search, and a call to it is refused.
CREATE TABLE mcp_tools_off (
    extension_id TEXT NOT NULL REFERENCES extensions(id) ON DELETE CASCADE,
    server       TEXT NOT NULL,
    tool         TEXT NOT NULL,
    off_at       INTEGER NOT NULL,
    PRIMARY KEY (extension_id, server, tool)
) WITHOUT ROWID;

CREATE TRIGGER tools_off_insert_generation AFTER INSERT ON mcp_tools_off
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER tools_off_delete_generation AFTER DELETE ON mcp_tools_off
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
