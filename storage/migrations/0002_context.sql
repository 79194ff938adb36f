-- Compaction epochs and the extension context recorded per epoch.
CREATE TABLE compactions (
    session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    epoch        INTEGER NOT NULL,
    boundary_seq INTEGER NOT NULL,
    summary      TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (session_id, epoch)
) WITHOUT ROWID;

CREATE TABLE context_blocks (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    epoch      INTEGER NOT NULL,
    source     TEXT NOT NULL,
    event      TEXT NOT NULL,
    hash       TEXT NOT NULL,
    content    TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, epoch, source, event)
) WITHOUT ROWID;
