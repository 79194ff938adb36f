package extensions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// MCP tool pinning (docs/extensions.md, "MCP tools pinned at trust"): the
// first time a server's tools are listed after the user trusted its
// extension, each tool's name, description and input schema is recorded.
// From then on a tool whose description or schema differs, or a new tool,
// is withheld from the model until the user reviews it; a removed tool
// simply goes. Trust covers what runs (argv, files); pinning covers what
// the model is told, which a server can change at any time.

// ToolDef is an MCP tool as the model would be offered it.
type ToolDef struct {
	Name, Description string
	Schema            json.RawMessage
}

func (d ToolDef) hash() string {
	sum := sha256.Sum256([]byte(d.Name + "\x00" + d.Description + "\x00" + string(d.Schema)))
	return hex.EncodeToString(sum[:])
}

// PendingTool is a tool withheld until the user reviews it: what the
// server lists now and, for a changed tool, what was trusted.
type PendingTool struct {
	Server         string `json:"server"`
	Tool           string `json:"tool"`
	Change         string `json:"change"` // "changed" or "new"
	Description    string `json:"description"`
	Schema         string `json:"schema"`
	WasDescription string `json:"was_description,omitempty"`
	WasSchema      string `json:"was_schema,omitempty"`
	// Hash names exactly this definition: accepting it accepts this one,
	// not whatever the server lists by the time the user answers.
	Hash string `json:"hash"`
}

// DiffText shows the change as the card and `ext review` print it.
func (p PendingTool) DiffText() string {
	var b strings.Builder
	if p.Change == "new" {
		fmt.Fprintf(&b, "%s › %s: new tool\n", p.Server, p.Tool)
		fmt.Fprintf(&b, "  + description: %s\n  + schema: %s\n", p.Description, p.Schema)
		return b.String()
	}
	fmt.Fprintf(&b, "%s › %s: changed\n", p.Server, p.Tool)
	if p.Description != p.WasDescription {
		fmt.Fprintf(&b, "  - description: %s\n  + description: %s\n", p.WasDescription, p.Description)
	}
	if p.Schema != p.WasSchema {
		fmt.Fprintf(&b, "  - schema: %s\n  + schema: %s\n", p.WasSchema, p.Schema)
	}
	return b.String()
}

// PendingText is "2 tools changed since you trusted this server", or ""
// for none.
func PendingText(pending []PendingTool) string {
	switch len(pending) {
	case 0:
		return ""
	case 1:
		return "1 tool changed since you trusted this extension's servers"
	}
	return fmt.Sprintf("%d tools changed since you trusted this extension's servers", len(pending))
}

// PinOwner is whom a server's pins belong to: the extension, or for a
// folder's own servers (the extension "project") that folder.
func PinOwner(id, dir string) string {
	if id == manifest.ProjectID {
		return "project:" + dir
	}
	return id
}

// CheckMCPTools compares what a server of owner (trusted at commit) lists
// with its pins and returns the names of the tools to withhold. The first
// listing pins every tool; later a changed or new tool is recorded as
// pending and withheld, and a tool listed as it was accepted again
// clears what was pending for it.
func (m *Manager) CheckMCPTools(ctx context.Context, owner, commit, server string, defs []ToolDef) (withheld map[string]bool, err error) {
	pins, err := m.db.MCPToolPins(ctx, owner, server)
	if err != nil {
		return nil, err
	}
	if len(pins) == 0 {
		put := []storage.MCPToolPin{{Owner: owner, Server: server, Commit: commit, Hash: "listed"}}
		for _, d := range defs {
			put = append(put, storage.MCPToolPin{Owner: owner, Server: server, Tool: d.Name, Commit: commit, Hash: d.hash(),
				Description: d.Description, Schema: string(d.Schema)})
		}
		return nil, m.db.PutMCPToolPins(ctx, put)
	}
	byTool := map[string]storage.MCPToolPin{}
	for _, p := range pins {
		byTool[p.Tool] = p
	}
	withheld = map[string]bool{}
	var put []storage.MCPToolPin
	for _, d := range defs {
		h := d.hash()
		p, ok := byTool[d.Name]
		if !ok {
			p = storage.MCPToolPin{Owner: owner, Server: server, Tool: d.Name, Commit: commit}
		}
		switch {
		case p.Hash == h:
			if p.PendingHash != "" { // back to what was trusted
				p.PendingHash, p.PendingDescription, p.PendingSchema = "", "", ""
				put = append(put, p)
			}
			continue
		case p.PendingHash != h:
			p.PendingHash, p.PendingDescription, p.PendingSchema = h, d.Description, string(d.Schema)
			put = append(put, p)
		}
		withheld[d.Name] = true
	}
	if len(put) > 0 {
		err = m.db.PutMCPToolPins(ctx, put)
	}
	return withheld, err
}

// PendingTools lists the tools of owner withheld until reviewed.
func (m *Manager) PendingTools(ctx context.Context, owner string) ([]PendingTool, error) {
	pins, err := m.db.MCPToolPins(ctx, owner, "")
	if err != nil {
		return nil, err
	}
	var out []PendingTool
	for _, p := range pins {
		if p.PendingHash == "" || p.Tool == "" {
			continue
		}
		t := PendingTool{Server: p.Server, Tool: p.Tool, Change: "changed", Description: p.PendingDescription, Schema: p.PendingSchema,
			WasDescription: p.Description, WasSchema: p.Schema, Hash: p.PendingHash}
		if p.Hash == "" {
			t.Change, t.WasDescription, t.WasSchema = "new", "", ""
		}
		out = append(out, t)
	}
	return out, nil
}

// AcceptTools accepts the pending tools of owner the user reviewed (the
// card's Review → Accept, `agentdesk ext review`): they are offered from
// the next turn on. A tool whose definition changed again since it was
// shown stays pending. It returns how many were accepted.
func (m *Manager) AcceptTools(ctx context.Context, owner string, reviewed []PendingTool) (int, error) {
	commit := ""
	if e, err := m.db.Extension(ctx, owner); err == nil {
		commit = e.ActiveCommit
	}
	n := 0
	for _, t := range reviewed {
		ok, err := m.db.AcceptMCPTool(ctx, owner, t.Server, t.Tool, t.Hash, commit)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}
