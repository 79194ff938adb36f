package dispatch

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

var _ lifecycle.CommandSource = (*Dispatcher)(nil)

// Commands implements lifecycle.CommandSource: the enabled, trusted
// extensions' commands, from the turn's snapshot (or, outside a turn, the
// registry's active list) so a disable or uninstall removes them from
// the next turn, and at once from the window's lists.
func (d *Dispatcher) Commands(ctx context.Context, projectDir string, reserved []string) lifecycle.CommandSet {
	return commandSet(d.active(extensions.WithProject(ctx, projectDir)), reserved)
}

// commandSet names every command /EXT:NAME, and /NAME when exactly one
// extension defines NAME and no host command has it. The project's own
// command keeps /NAME against plugins' (Claude Code's order), the
// conflict still reported.
func commandSet(xs []extensions.Active, reserved []string) lifecycle.CommandSet {
	owners := map[string][]string{}
	var set lifecycle.CommandSet
	var namespaced []lifecycle.Command
	for _, x := range xs {
		for _, c := range x.Pkg.Commands {
			owners[c.Name] = append(owners[c.Name], x.ID)
			namespaced = append(namespaced, commandOf(x, c, x.ID+":"+c.Name))
		}
	}
	for _, x := range xs {
		for _, c := range x.Pkg.Commands {
			host := slices.Contains(reserved, c.Name)
			if len(owners[c.Name]) == 1 && !host || x.ID == manifest.ProjectID && !host {
				set.Commands = append(set.Commands, commandOf(x, c, c.Name))
			}
			if len(owners[c.Name]) > 1 || host {
				if owners[c.Name][0] == x.ID { // the conflict once, at its first owner
					set.Conflicts = append(set.Conflicts, lifecycle.CommandConflict{Name: c.Name, Sources: owners[c.Name], Host: host})
				}
			}
		}
	}
	byName := func(a, b lifecycle.Command) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(set.Commands, byName)
	slices.SortFunc(namespaced, byName)
	set.Commands = append(set.Commands, namespaced...)
	return set
}

// commandOf is what the window and /help show of a command: the package's
// text without control or bidi characters (names are validated already).
func commandOf(x extensions.Active, c manifest.Command, name string) lifecycle.Command {
	var tools []string
	for _, t := range c.AllowedTools {
		tools = append(tools, safetext.Strip(t))
	}
	return lifecycle.Command{Name: name, Extension: x.ID, Label: safetext.Strip(x.Label), Description: safetext.Strip(c.Description),
		ArgumentHint: safetext.Strip(c.ArgumentHint), AllowedTools: tools}
}

// Expand implements lifecycle.CommandSource.
func (d *Dispatcher) Expand(ctx context.Context, name, args, projectDir string) (lifecycle.Expansion, error) {
	x, c, err := findCommand(d.active(extensions.WithProject(ctx, projectDir)), name)
	if err != nil {
		return lifecycle.Expansion{}, err
	}
	v := manifest.Vars{PluginRoot: x.Dir, PluginData: x.Data, ProjectDir: projectDir, Options: x.OptionArgv}
	prompt, notRun := c.Expand(args, v)
	for i, cmd := range notRun { // quoted in a notice; the prompt keeps them as written
		notRun[i] = safetext.Visible(cmd)
	}
	return lifecycle.Expansion{Command: commandOf(x, c, name), Prompt: prompt, NotRun: notRun}, nil
}

// findCommand resolves "EXT:NAME" or a short "NAME" among the active
// extensions. The project's commands come first: their own names may
// hold ':' (a subfolder, /frontend:component), and a short name the
// project shares with plugins is the project's.
func findCommand(xs []extensions.Active, name string) (extensions.Active, manifest.Command, error) {
	for _, x := range xs {
		if x.ID != manifest.ProjectID {
			continue
		}
		for _, c := range x.Pkg.Commands {
			if c.Name == name {
				return x, c, nil
			}
		}
	}
	ext, short, namespaced := strings.Cut(name, ":")
	if !namespaced {
		short = ext
	}
	var found []extensions.Active
	var cmd manifest.Command
	for _, x := range xs {
		if namespaced && x.ID != ext {
			continue
		}
		if i := slices.IndexFunc(x.Pkg.Commands, func(c manifest.Command) bool { return c.Name == short }); i >= 0 {
			found, cmd = append(found, x), x.Pkg.Commands[i]
		}
	}
	switch len(found) {
	case 0:
		return extensions.Active{}, manifest.Command{}, lifecycle.ErrUnknownCommand
	case 1:
		return found[0], cmd, nil
	}
	var forms []string
	for _, x := range found {
		forms = append(forms, "/"+x.ID+":"+short)
	}
	return extensions.Active{}, manifest.Command{}, fmt.Errorf("/%s is a command of %d extensions: type %s", short, len(found), strings.Join(forms, " or "))
}
