package storage

import (
	"context"
	"fmt"
)

// MCPToolRef names one MCP tool of one extension's server.
type MCPToolRef struct{ Extension, Server, Tool string }

// MCPToolsOff lists the MCP tools the user switched off, of every
// extension, by extension, server and tool.
func (db *DB) MCPToolsOff(ctx context.Context) ([]MCPToolRef, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT extension_id, server, tool FROM mcp_tools_off ORDER BY extension_id, server, tool")
	if err != nil {
		return nil, fmt.Errorf("read switched-off MCP tools: %w", err)
	}
	defer rows.Close()
	var out []MCPToolRef
	for rows.Next() {
		var r MCPToolRef
		if err := rows.Scan(&r.Extension, &r.Server, &r.Tool); err != nil {
			return nil, fmt.Errorf("read switched-off MCP tools: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// SetMCPToolOff switches one installed extension's MCP tool off or back
// on. An extension id that is not installed → ErrNotFound.
func (db *DB) SetMCPToolOff(ctx context.Context, r MCPToolRef, off bool) error {
	what := fmt.Sprintf("switch MCP tool %s › %s of %s", r.Server, r.Tool, r.Extension)
	if !off {
		_, err := db.w.ExecContext(ctx, "DELETE FROM mcp_tools_off WHERE extension_id = ? AND server = ? AND tool = ?",
			r.Extension, r.Server, r.Tool)
		if err != nil {
			return fmt.Errorf("%s on: %w", what, err)
		}
		return nil
	}
	res, err := db.w.ExecContext(ctx, `INSERT OR IGNORE INTO mcp_tools_off(extension_id, server, tool, off_at)
		SELECT id, ?, ?, ? FROM extensions WHERE id = ?`, r.Server, r.Tool, now(), r.Extension)
	if err != nil {
		return fmt.Errorf("%s off: %w", what, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := db.Extension(ctx, r.Extension); err != nil {
			return err
		}
	}
	return nil
}
