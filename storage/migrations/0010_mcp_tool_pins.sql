-- MCP tool definitions pinned when a server's tools are first listed
-- after the user trusted its extension (extensions/pins.go). A tool whose
-- description or schema differs later, or a new tool, waits in pending_*
-- (hash '' marks a tool never accepted) and is withheld from the model
-- until the user reviews it. The row with tool '' records that the
-- server's tools were listed at all, so a server that first lists
-- nothing cannot add its tools unseen later.
CREATE TABLE mcp_tool_pins (
    owner               TEXT NOT NULL, -- extension id; project:<folder> for a folder's own servers
    server              TEXT NOT NULL,
    tool                TEXT NOT NULL,
    commit_id           TEXT NOT NULL, -- what the extension was trusted at when accepted
    hash                TEXT NOT NULL DEFAULT '',
    description         TEXT NOT NULL DEFAULT '',
    input_schema        TEXT NOT NULL DEFAULT '',
    pending_hash        TEXT NOT NULL DEFAULT '',
    pending_description TEXT NOT NULL DEFAULT '',
    pending_schema      TEXT NOT NULL DEFAULT '',
    updated_at          INTEGER NOT NULL,
    PRIMARY KEY (owner, server, tool)
) WITHOUT ROWID;
