-- One writer per session: the process running a session's jobs holds its
-- lease (its pid and a heartbeat it renews). Another process takes the
-- lease over only when that process is gone.
CREATE TABLE session_leases (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    pid        INTEGER NOT NULL,
    heartbeat  INTEGER NOT NULL
);
