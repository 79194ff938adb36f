package extensions

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

var _ lifecycle.CommandSource = (*Dispatcher)(nil)

// commandsOf lists a package's slash commands for display.
func commandsOf(pkg *manifest.Package) []Command {
	out := []Command{}
	for _, c := range pkg.Commands {
		out = append(out, Command{Name: c.Name, Path: c.Path, Description: c.Description,
			ArgumentHint: c.ArgumentHint, AllowedTools: c.AllowedTools})
	}
	return out
}

// Commands implements lifecycle.CommandSource: the enabled, trusted
// extensions' commands, read from the registry on every call so a disable
// or uninstall removes them at once.
func (d *Dispatcher) Commands(reserved []string) lifecycle.CommandSet {
	return commandSet(d.active(context.Background()), reserved)
}

// commandSet names every command /EXT:NAME, and /NAME when exactly one
// extension defines NAME and no host command has it.
func commandSet(xs []active, reserved []string) lifecycle.CommandSet {
	owners := map[string][]string{}
	var set lifecycle.CommandSet
	var namespaced []lifecycle.Command
	for _, x := range xs {
		for _, c := range x.pkg.Commands {
			owners[c.Name] = append(owners[c.Name], x.id)
			namespaced = append(namespaced, commandOf(x, c, x.id+":"+c.Name))
		}
	}
	for _, x := range xs {
		for _, c := range x.pkg.Commands {
			switch host := slices.Contains(reserved, c.Name); {
			case len(owners[c.Name]) == 1 && !host:
				set.Commands = append(set.Commands, commandOf(x, c, c.Name))
			case owners[c.Name][0] == x.id: // the conflict once, at its first owner
				set.Conflicts = append(set.Conflicts, lifecycle.CommandConflict{Name: c.Name, Sources: owners[c.Name], Host: host})
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
func commandOf(x active, c manifest.Command, name string) lifecycle.Command {
	var tools []string
	for _, t := range c.AllowedTools {
		tools = append(tools, safetext.Strip(t))
	}
	return lifecycle.Command{Name: name, Extension: x.id, Label: safetext.Strip(x.label), Description: safetext.Strip(c.Description),
		ArgumentHint: safetext.Strip(c.ArgumentHint), AllowedTools: tools}
}

// Expand implements lifecycle.CommandSource.
func (d *Dispatcher) Expand(ctx context.Context, name, args, projectDir string) (lifecycle.Expansion, error) {
	x, c, err := findCommand(d.active(ctx), name)
	if err != nil {
		return lifecycle.Expansion{}, err
	}
	v := manifest.Vars{PluginRoot: x.dir, PluginData: x.data, ProjectDir: projectDir, Options: x.optionArgv}
	prompt, notRun := c.Expand(args, v)
	for i, cmd := range notRun { // quoted in a notice; the prompt keeps them as written
		notRun[i] = safetext.Visible(cmd)
	}
	return lifecycle.Expansion{Command: commandOf(x, c, name), Prompt: prompt, NotRun: notRun}, nil
}

// findCommand resolves "EXT:NAME" or a short "NAME" among the active
// extensions.
func findCommand(xs []active, name string) (active, manifest.Command, error) {
	ext, short, namespaced := strings.Cut(name, ":")
	if !namespaced {
		short = ext
	}
	var found []active
	var cmd manifest.Command
	for _, x := range xs {
		if namespaced && x.id != ext {
			continue
		}
		if i := slices.IndexFunc(x.pkg.Commands, func(c manifest.Command) bool { return c.Name == short }); i >= 0 {
			found, cmd = append(found, x), x.pkg.Commands[i]
		}
	}
	switch len(found) {
	case 0:
		return active{}, manifest.Command{}, lifecycle.ErrUnknownCommand
	case 1:
		return found[0], cmd, nil
	}
	var forms []string
	for _, x := range found {
		forms = append(forms, "/"+x.id+":"+short)
	}
	return active{}, manifest.Command{}, fmt.Errorf("/%s is a command of %d extensions: type %s", short, len(found), strings.Join(forms, " or "))
}
