package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// MCPToolPin is one MCP tool definition as the user accepted it, and the
// definition waiting for review when the server now lists another.
type MCPToolPin struct {
	Owner, Server, Tool string
	Commit              string
	// Hash, Description and Schema are the accepted definition; Hash is
	// "" for a tool that was never accepted (new since the pin).
	Hash, Description, Schema string
	// Pending* is what the server lists now, when it differs; "" when
	// nothing waits.
	PendingHash, PendingDescription, PendingSchema string
}

const pinColumns = `owner, server, tool, commit_id, hash, description, input_schema, pending_hash, pending_description, pending_schema`

func scanPins(rows *sql.Rows) ([]MCPToolPin, error) {
	defer rows.Close()
	var out []MCPToolPin
	for rows.Next() {
		var p MCPToolPin
		if err := rows.Scan(&p.Owner, &p.Server, &p.Tool, &p.Commit, &p.Hash, &p.Description, &p.Schema,
			&p.PendingHash, &p.PendingDescription, &p.PendingSchema); err != nil {
			return nil, fmt.Errorf("read MCP tool pins: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// MCPToolPins lists the pins of owner's server (every server when server
// is ""), by server and tool.
func (db *DB) MCPToolPins(ctx context.Context, owner, server string) ([]MCPToolPin, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+pinColumns+` FROM mcp_tool_pins
		WHERE owner = ? AND (? = '' OR server = ?) ORDER BY server, tool`, owner, server, server)
	if err != nil {
		return nil, fmt.Errorf("read MCP tool pins of %s: %w", owner, err)
	}
	return scanPins(rows)
}

// PutMCPToolPins writes pins (inserted, or replacing the row of the same
// owner, server and tool) in one transaction.
func (db *DB) PutMCPToolPins(ctx context.Context, pins []MCPToolPin) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		for _, p := range pins {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO mcp_tool_pins(`+pinColumns+`, updated_at)
				VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.Owner, p.Server, p.Tool, p.Commit, p.Hash, p.Description, p.Schema,
				p.PendingHash, p.PendingDescription, p.PendingSchema, now()); err != nil {
				return fmt.Errorf("pin MCP tool %s of %s: %w", p.Tool, p.Owner, err)
			}
		}
		return nil
	})
}

// AcceptMCPTool makes a pending definition the accepted one at commit,
// if it is still the one pending (pendingHash); it reports whether it was.
func (db *DB) AcceptMCPTool(ctx context.Context, owner, server, tool, pendingHash, commit string) (bool, error) {
	res, err := db.w.ExecContext(ctx, `UPDATE mcp_tool_pins SET hash = pending_hash, description = pending_description,
		input_schema = pending_schema, pending_hash = '', pending_description = '', pending_schema = '', commit_id = ?, updated_at = ?
		WHERE owner = ? AND server = ? AND tool = ? AND pending_hash = ? AND pending_hash != ''`, commit, now(), owner, server, tool, pendingHash)
	if err != nil {
		return false, fmt.Errorf("accept MCP tool %s of %s: %w", tool, owner, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// DeleteMCPToolPins forgets every pin of owner (uninstall).
func (db *DB) DeleteMCPToolPins(ctx context.Context, owner string) error {
	if _, err := db.w.ExecContext(ctx, "DELETE FROM mcp_tool_pins WHERE owner = ?", owner); err != nil {
		return fmt.Errorf("forget MCP tool pins of %s: %w", owner, err)
	}
	return nil
}
