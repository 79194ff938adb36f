package extensions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// Per project, per tool (docs/extensions.md): an enabled extension is
// active everywhere, or only in the projects it was enabled in; and any
// of its MCP tools can be switched off. Both are registry writes, so the
// next Active (every process's) sees them. Projects are canonical folders
// (extensions/project.Canonical: absolute, symlinks resolved), as the
// sessions' folders are; callers canonicalise before calling.

// ErrEnabledEverywhere: a project cannot be taken out of an extension
// enabled everywhere; it is restricted by enabling it in the projects it
// should run in.
var ErrEnabledEverywhere = errors.New("is enabled everywhere")

// ErrNotInProject: the extension is not enabled in that project.
var ErrNotInProject = errors.New("is not enabled in that project")

// ToolRef names one MCP tool of one of an extension's servers.
type ToolRef struct{ Server, Tool string }

// In reports whether x is active in project: it is enabled everywhere,
// or project is one of its projects.
func (x Active) In(project string) bool {
	return len(x.Projects) == 0 || project != "" && slices.Contains(x.Projects, project)
}

// ToolOff reports whether the user switched off server's tool of x.
func (x Active) ToolOff(server, tool string) bool { return x.ToolsOff[ToolRef{server, tool}] }

// EnableIn enables id (hash as for Enable) in project: an extension that
// was disabled or enabled everywhere becomes enabled only there; one
// enabled in other projects gets project added.
func (m *Manager) EnableIn(ctx context.Context, id, hash, project string) (Info, error) {
	if project == "" {
		return Info{}, fmt.Errorf("enable %s: no project folder given", id)
	}
	return m.enable(ctx, id, hash, func(was storage.Extension) []string {
		if !was.Enabled || len(was.Projects) == 0 {
			return []string{project}
		}
		if slices.Contains(was.Projects, project) {
			return was.Projects
		}
		return append(slices.Clone(was.Projects), project)
	})
}

// DisableIn takes project out of the projects id is enabled in; taking
// out the last one disables it. Its running hooks and servers stop (in
// its other projects they start again with the next prompt). An
// extension enabled everywhere → ErrEnabledEverywhere; one not enabled
// in project → ErrNotInProject.
func (m *Manager) DisableIn(ctx context.Context, id, project string) (Info, error) {
	defer m.lockOp(id)()
	_, _, err := m.db.UpdateExtension(ctx, id, nil, func(row *storage.Extension) error {
		switch {
		case row.Enabled && len(row.Projects) == 0:
			return fmt.Errorf("%s %w: enable it in the projects it should run in instead (`agentdesk ext enable %s --project DIR`)", id, ErrEnabledEverywhere, id)
		case !row.Enabled || !slices.Contains(row.Projects, project):
			return fmt.Errorf("%s %w (%s)", id, ErrNotInProject, project)
		}
		row.Projects = slices.DeleteFunc(slices.Clone(row.Projects), func(p string) bool { return p == project })
		if len(row.Projects) == 0 {
			row.Enabled, row.Projects = false, nil
		}
		return nil
	})
	if err != nil {
		return Info{}, notInstalled(id, err)
	}
	m.removing(id)
	return m.Show(ctx, id)
}

// SetToolOff switches one MCP tool of id's server off (never offered to
// the model, never found by tool_search, a call refused) or back on,
// from the next prompt. The server must be one id declares; the tool
// need not be listed yet.
func (m *Manager) SetToolOff(ctx context.Context, id, server, tool string, off bool) error {
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return notInstalled(id, err)
	}
	pkg, _, err := m.version(ctx, id, e.ActiveCommit)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(pkg.MCPServers, func(s manifest.MCPServer) bool { return s.Name == server }) {
		return fmt.Errorf("%s declares no MCP server %q", id, server)
	}
	if tool == "" {
		return fmt.Errorf("switch a tool of %s › %s: no tool named", id, server)
	}
	return m.db.SetMCPToolOff(ctx, storage.MCPToolRef{Extension: id, Server: server, Tool: tool}, off)
}

// ToolOff reports whether the user switched off server's tool of id, as
// the registry holds it now (a call checks it, so a tool switched off
// mid-turn is refused at once). A failed read answers true: an unchecked
// tool does not run.
func (m *Manager) ToolOff(ctx context.Context, id, server, tool string) bool {
	off, err := m.toolsOff(ctx)
	if err != nil {
		m.log.Error("read switched-off MCP tools", "err", err)
		return true
	}
	return off[id][ToolRef{server, tool}]
}

// toolsOff reads the switched-off tools by extension.
func (m *Manager) toolsOff(ctx context.Context) (map[string]map[ToolRef]bool, error) {
	refs, err := m.db.MCPToolsOff(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]map[ToolRef]bool{}
	for _, r := range refs {
		if out[r.Extension] == nil {
			out[r.Extension] = map[ToolRef]bool{}
		}
		out[r.Extension][ToolRef{r.Server, r.Tool}] = true
	}
	return out, nil
}

// inProject is list less the extensions not active in project.
func inProject(list []Active, project string) []Active {
	return slices.DeleteFunc(list, func(x Active) bool { return !x.In(project) })
}

// ScopeText is where an enabled extension is active: "everywhere", or
// its projects, comma-separated.
func (i Info) ScopeText() string {
	if len(i.EnabledProjects) == 0 {
		return "everywhere"
	}
	return strings.Join(i.EnabledProjects, ", ")
}

// EnabledIn reports whether the enabled extension is active in project.
func (i Info) EnabledIn(project string) bool {
	return i.Enabled && (len(i.EnabledProjects) == 0 || slices.Contains(i.EnabledProjects, project))
}

// addToolSwitches fills each server's known tools (pinned since trust)
// and those switched off.
func (m *Manager) addToolSwitches(ctx context.Context, info *Info) {
	off, _ := m.toolsOff(ctx)
	pins, _ := m.db.MCPToolPins(ctx, info.ID, "")
	for i := range info.MCPServers {
		s := &info.MCPServers[i]
		for _, p := range pins {
			if p.Server == s.Name && p.Tool != "" && !slices.Contains(s.KnownTools, p.Tool) {
				s.KnownTools = append(s.KnownTools, p.Tool)
			}
		}
		for ref := range off[info.ID] {
			if ref.Server == s.Name {
				s.ToolsOff = append(s.ToolsOff, ref.Tool)
			}
		}
		slices.Sort(s.KnownTools)
		slices.Sort(s.ToolsOff)
	}
}

// ErrNotEnabled: the scope of a disabled extension is set by enabling it.
var ErrNotEnabled = errors.New("is not enabled")

// AddProject makes the enabled id active in project: one enabled
// everywhere becomes enabled only there, one enabled in other projects
// gets project added. It changes where, never what, is trusted, so it
// asks for no trust: a disabled extension or one waiting for review →
// ErrNotEnabled (enable it through the trust prompt, EnableIn).
func (m *Manager) AddProject(ctx context.Context, id, project string) (Info, error) {
	return m.rescope(ctx, id, func(was []string) []string {
		if len(was) == 0 {
			return []string{project}
		}
		if slices.Contains(was, project) {
			return was
		}
		return append(slices.Clone(was), project)
	})
}

// EnableEverywhere makes the enabled id active in every project, as
// Enable does, without asking for trust again (ErrNotEnabled as for
// AddProject).
func (m *Manager) EnableEverywhere(ctx context.Context, id string) (Info, error) {
	return m.rescope(ctx, id, func([]string) []string { return nil })
}

func (m *Manager) rescope(ctx context.Context, id string, scope func(was []string) []string) (Info, error) {
	defer m.lockOp(id)()
	_, _, err := m.db.UpdateExtension(ctx, id, nil, func(row *storage.Extension) error {
		if !row.Enabled || row.ReviewReason != "" {
			return fmt.Errorf("%s %w: enable it first", id, ErrNotEnabled)
		}
		row.Projects = scope(row.Projects)
		return nil
	})
	if err != nil {
		return Info{}, notInstalled(id, err)
	}
	return m.Show(ctx, id)
}
