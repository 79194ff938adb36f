package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/agent/permissions"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// projectRules are the permission rules in force in the session's
// project. Folder trust is not built yet, so the project's allow and ask
// rules wait (Sources.Trusted stays false) and only its deny rules apply;
// see docs/permissions.md.
func (s *Session) projectRules() *permissions.Set {
	src := permissions.Sources{Project: permissions.LoadProject(s.project)}
	return permissions.NewSet(s.project, s.a.cfg.HomeDir, src.Effective())
}

// deniedByRule is the result of a call a deny rule refuses, or nil.
func (s *Session) deniedByRule(name string, args json.RawMessage) *tools.Result {
	v := s.projectRules().Decide(permissions.CallOf(name, args))
	if v.Behavior != permissions.Deny {
		return nil
	}
	return &tools.Result{Text: "denied by the permission rule " + v.Rule.Text + " (" + string(v.Rule.Source) + ")", IsError: true}
}

// guardsTheGuards says why an edit of the project's agent configuration
// (.claude/, CLAUDE.md, CLAUDE.local.md, .mcp.json) must always ask: no
// policy, rule or "always" answer lets the model change what later runs
// or instructs it.
func guardsTheGuards(kind tools.Kind, args json.RawMessage) string {
	if kind != tools.Edit {
		return ""
	}
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return ""
	}
	p := filepath.ToSlash(filepath.Clean(a.Path))
	base := filepath.Base(p)
	if strings.HasPrefix(p, ".claude/") || strings.Contains(p, "/.claude/") || p == ".claude" ||
		base == "CLAUDE.md" || base == "CLAUDE.local.md" || base == ".mcp.json" {
		return "This changes the project's agent configuration (" + a.Path + "): AgentDesk always asks for it."
	}
	return ""
}
