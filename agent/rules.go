package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/permissions"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// projectRules are the permission rules in force in the session's
// project: the user's own saved rules, the project settings' deny rules,
// and their allow and ask rules once the folder is trusted
// (Config.ProjectTrusted); see docs/permissions.md.
func (s *Session) projectRules(ctx context.Context) *permissions.Set {
	src := permissions.Sources{Project: permissions.LoadProject(s.project)}
	if s.a.cfg.ProjectTrusted != nil {
		src.Trusted = s.a.cfg.ProjectTrusted(ctx, s.project)
	}
	saved, err := s.a.cfg.DB.PermissionRules(ctx, s.info.ProjectID)
	if err != nil {
		s.a.log.Warn("permission rules", "err", err)
	}
	for _, row := range saved {
		r, err := permissions.Parse(row.Rule)
		b, berr := permissions.ParseBehavior(row.Behavior)
		if err != nil || berr != nil {
			continue // validated when saved; a row no longer understood decides nothing
		}
		r.Behavior, r.Source = b, permissions.SourceUser
		src.User = append(src.User, r)
	}
	return permissions.NewSet(s.project, s.a.cfg.HomeDir, src.Effective())
}

// trustedSettings are the project's own settings when its folder is
// trusted.
func (s *Session) trustedSettings() (permissions.Settings, bool) {
	if s.a.cfg.ProjectSettings == nil {
		return permissions.Settings{}, false
	}
	return s.a.cfg.ProjectSettings(context.Background(), s.project)
}

// projectEnv is what a trusted project's settings env adds to
// run_command's environment (credential-named variables dropped).
func (s *Session) projectEnv() []string {
	set, ok := s.trustedSettings()
	if !ok {
		return nil
	}
	kept, _ := set.Environ()
	return kept
}

// workingDirs are a trusted project's additionalDirectories that exist,
// as writable roots of the file tools; one that is, holds or lies in a
// folder children never read (the user's credentials, AgentDesk's data)
// is left out.
func (s *Session) workingDirs() []tools.ReadRoot {
	set, ok := s.trustedSettings()
	if !ok || len(set.AdditionalDirectories) == 0 {
		return nil
	}
	var out []tools.ReadRoot
	for _, d := range set.Directories(s.project, s.a.cfg.HomeDir) {
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		if info, err := os.Stat(real); err != nil || !info.IsDir() || childproc.Withholds(real, s.a.cfg.HomeDir) {
			continue
		}
		out = append(out, tools.ReadRoot{Dir: real, Writable: true})
	}
	return out
}

// ruleVerdict is what the rules say about a call; refused is the result
// of a call a deny rule refuses. An MCP tool whose name got a collision's
// suffix is also judged by its Claude Code name, where only a deny or an
// ask counts: that name is ambiguous, so it may stop a call, never allow
// one.
func (s *Session) ruleVerdict(ctx context.Context, tool tools.Tool, name string, args json.RawMessage) (v permissions.Verdict, refused *tools.Result) {
	rules := s.projectRules(ctx)
	v = rules.Decide(permissions.CallOf(name, args))
	if m, ok := tool.(*mcpTool); ok && m.d.ClaudeName != "" && m.d.ClaudeName != name && v.Behavior != permissions.Deny {
		if alike := rules.Decide(permissions.CallOf(m.d.ClaudeName, args)); alike.Behavior == permissions.Deny || alike.Behavior == permissions.Ask {
			v = alike
		}
	}
	if v.Behavior == permissions.Allow && v.Rule.Source == permissions.SourceUser && !s.a.ruleCovers(ctx, s.info.ProjectID, v.Rule.Text, mcpServerOf(tool)) {
		v = permissions.Verdict{} // saved for another server spelled alike: the call asks
	}
	if v.Behavior != permissions.Deny {
		return v, nil
	}
	return v, &tools.Result{Text: "denied by the permission rule " + v.Rule.Text + " (" + string(v.Rule.Source) + ")", IsError: true}
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

// proposedRule is the rule "Always allow in this project" offers for a
// call, or "" for a call that asks whatever the rules say (Forced) or that
// was rewritten by a hook.
func (s *Session) proposedRule(name string, g guardedCall) string {
	if g.forced != "" || g.original != nil {
		return ""
	}
	rule, _ := permissions.Propose(s.project, permissions.CallOf(name, g.args))
	return rule
}

// AllowInProject saves rule (Claude Code syntax, as the user edited it)
// as one of the user's own allow rules for req's project. It is stored in
// AgentDesk's database, never in the project's .claude/, and applies from
// the next call (projectRules reads it each time). A rule saved from an
// MCP tool's call is bound to that tool's server (extension, server):
// the name is not proof of who answers it, so the rule never allows a
// tool of another server that holds the name later (one disabled here,
// another enabled, both spelled mcp__plugin_victim_srv_x__).
func (a *Agent) AllowInProject(ctx context.Context, req ApprovalRequest, rule string) error {
	r, err := permissions.Parse(strings.TrimSpace(rule))
	if err != nil {
		return fmt.Errorf("not a rule: %w", err)
	}
	if req.MCPServer != "" && strings.HasPrefix(r.Tool, "mcp__") {
		if err := a.bindRule(ctx, req.ProjectID, r.Text, req.MCPServer); err != nil {
			return err
		}
	}
	return a.cfg.DB.AddPermissionRule(ctx, req.ProjectID, string(permissions.Allow), r.Text)
}

// mcpServerOf is an MCP tool's server identity ("extension\x00server"),
// or "" for another tool.
func mcpServerOf(tool tools.Tool) string {
	if m, ok := tool.(*mcpTool); ok {
		return m.d.ID.Extension + "\x00" + m.d.ID.Server
	}
	return ""
}

// ruleBindingKey names the setting that holds the servers a saved MCP
// allow rule was saved for (one a line). Kept beside the rule rather than
// in it, so the rule stays Claude Code's syntax as Approvals lists it.
func ruleBindingKey(projectID int64, rule string) string {
	return fmt.Sprintf("permissions.mcp_rule_servers.%d.%s", projectID, rule)
}

func (a *Agent) bindRule(ctx context.Context, projectID int64, rule, server string) error {
	key := ruleBindingKey(projectID, rule)
	bound, _, err := a.cfg.DB.Setting(ctx, key)
	if err != nil {
		return err
	}
	servers := strings.Split(bound, "\n")
	if slices.Contains(servers, server) {
		return nil
	}
	return a.cfg.DB.SetSetting(ctx, key, strings.TrimPrefix(bound+"\n"+server, "\n"))
}

// ruleCovers says whether a user's allow rule may allow a call of a tool
// of server ("" for a tool that is not MCP's): a rule saved from an MCP
// tool's call covers the servers it was saved for; a rule written by
// hand (none bound) covers what its name matches. A binding that cannot
// be read covers nothing: the call asks.
func (a *Agent) ruleCovers(ctx context.Context, projectID int64, rule, server string) bool {
	if server == "" {
		return true
	}
	bound, ok, err := a.cfg.DB.Setting(ctx, ruleBindingKey(projectID, rule))
	if err != nil {
		return false
	}
	return !ok || slices.Contains(strings.Split(bound, "\n"), server)
}

// ListedRule is one permission rule as Preferences → Approvals shows it.
type ListedRule struct {
	ID       int64 // the saved row of one of the user's rules; 0 for a project settings rule
	Behavior permissions.Behavior
	Rule     string
	Source   permissions.Source
	// Waits is set on a project settings allow or ask rule: it applies
	// once the folder is trusted (see docs/permissions.md).
	Waits bool
	// Servers are the MCP servers (ApprovalRequest.MCPServer) a rule of
	// the user's saved from an MCP tool's call covers, and only those;
	// none: the rule covers what its name matches.
	Servers []string
}

// MCPServerName words an MCP server's identity (ApprovalRequest.MCPServer)
// for people: "server S (extension E)", escapes visible.
func MCPServerName(identity string) string {
	ext, server, _ := strings.Cut(identity, "\x00")
	return "server " + safetext.Visible(server) + " (extension " + safetext.Visible(ext) + ")"
}

// ProjectRules is a project's rules, its settings' first, then the user's.
type ProjectRules struct {
	Project     Project
	Rules       []ListedRule
	Diagnostics []string // what of the project's settings could not be read
}

// PermissionRules lists every known project's rules, most recently
// opened project first. The project's settings are read from its folder
// (a folder gone since reads as no settings).
func (a *Agent) PermissionRules(ctx context.Context) ([]ProjectRules, error) {
	projects, err := a.cfg.DB.Projects(ctx)
	if err != nil {
		return nil, err
	}
	var out []ProjectRules
	for _, p := range projects {
		pr := ProjectRules{Project: p}
		if _, err := os.Stat(p.Path); err == nil {
			set := permissions.LoadProject(p.Path)
			pr.Diagnostics = set.Diagnostics
			for _, r := range set.Rules {
				pr.Rules = append(pr.Rules, ListedRule{Behavior: r.Behavior, Rule: r.Text, Source: r.Source, Waits: r.Behavior != permissions.Deny})
			}
		}
		saved, err := a.cfg.DB.PermissionRules(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		for _, row := range saved {
			r := ListedRule{ID: row.ID, Behavior: permissions.Behavior(row.Behavior), Rule: row.Rule, Source: permissions.SourceUser}
			if r.Behavior == permissions.Allow {
				bound, ok, err := a.cfg.DB.Setting(ctx, ruleBindingKey(p.ID, row.Rule))
				if err != nil {
					return nil, err
				}
				if ok && bound != "" {
					r.Servers = strings.Split(bound, "\n")
				}
			}
			pr.Rules = append(pr.Rules, r)
		}
		if len(pr.Rules) > 0 || len(pr.Diagnostics) > 0 {
			out = append(out, pr)
		}
	}
	return out, nil
}

// RemoveRule deletes one of the user's saved rules (a ListedRule's ID);
// the next call no longer finds it. The servers an MCP allow rule was
// saved for go with it.
func (a *Agent) RemoveRule(ctx context.Context, id int64) error {
	gone, ok, err := a.cfg.DB.DeletePermissionRule(ctx, id)
	if err != nil || !ok || gone.Behavior != string(permissions.Allow) {
		return err
	}
	return a.cfg.DB.DeleteSetting(ctx, ruleBindingKey(gone.ProjectID, gone.Rule)) // saved again, it is bound afresh
}
