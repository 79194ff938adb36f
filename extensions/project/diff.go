package project

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// Diff is what changed since the folder was trusted, for the review
// dialog and `project trust`.
type Diff struct {
	Hooks manifest.HookDiff
	// Servers added, removed or declared differently, by name.
	ServersAdded, ServersRemoved, ServersChanged []string
	// Files whose content changed, appeared or went away (hook and
	// server scripts).
	Files []string
	// Rules and Env entries added and removed.
	RulesAdded, RulesRemoved []string
	EnvAdded, EnvRemoved     []string
	DirsAdded, DirsRemoved   []string
}

// Empty reports whether nothing that trust covers changed.
func (d Diff) Empty() bool {
	return d.Hooks.Empty() && len(d.ServersAdded)+len(d.ServersRemoved)+len(d.ServersChanged)+len(d.Files)+
		len(d.RulesAdded)+len(d.RulesRemoved)+len(d.EnvAdded)+len(d.EnvRemoved)+len(d.DirsAdded)+len(d.DirsRemoved) == 0
}

// Diff compares what the folder runs now with what was trusted; the zero
// Diff when it was never trusted (everything is new, shown whole).
func (f Folder) Diff() Diff {
	if f.Trusted == nil {
		return Diff{}
	}
	old, now := *f.Trusted, f.Snapshot
	d := Diff{Hooks: manifest.DiffHooks(old.Hooks, now.Hooks)}
	d.ServersAdded, d.ServersRemoved, d.ServersChanged = diffServers(old.MCPServers, now.MCPServers)
	d.Files = diffFiles(old.Files, now.Files)
	d.RulesAdded, d.RulesRemoved = diffLists(old.Rules, now.Rules)
	d.EnvAdded, d.EnvRemoved = diffLists(old.Env, now.Env)
	d.DirsAdded, d.DirsRemoved = diffLists(old.Dirs, now.Dirs)
	return d
}

func diffServers(old, now []manifest.MCPServer) (added, removed, changed []string) {
	byName := map[string]string{}
	for _, s := range old {
		b, _ := json.Marshal(s)
		byName[s.Name] = string(b)
	}
	for _, s := range now {
		b, _ := json.Marshal(s)
		was, ok := byName[s.Name]
		switch {
		case !ok:
			added = append(added, s.Name)
		case was != string(b):
			changed = append(changed, s.Name)
		}
		delete(byName, s.Name)
	}
	for _, s := range old {
		if _, gone := byName[s.Name]; gone {
			removed = append(removed, s.Name)
		}
	}
	return added, removed, changed
}

func diffFiles(old, now []manifest.FileStamp) []string {
	was := map[string]string{}
	for _, f := range old {
		was[f.Path] = f.SHA256
	}
	var out []string
	for _, f := range now {
		if sum, ok := was[f.Path]; ok && sum != f.SHA256 {
			out = append(out, f.Path)
		}
	}
	return out
}

func diffLists(old, now []string) (added, removed []string) {
	for _, s := range now {
		if !slices.Contains(old, s) {
			added = append(added, s)
		}
	}
	for _, s := range old {
		if !slices.Contains(now, s) {
			removed = append(removed, s)
		}
	}
	return added, removed
}

// Text is the diff for people, one change a line ("+ hook PreToolUse:
// ./guard.sh", "~ file .claude/hooks/x.py (its content changed)"), under
// the heading "Changed since you trusted it": the review dialog and
// `agentdesk project trust` show it. Callers make it safe to display.
func (d Diff) Text() string {
	var w strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&w, format+"\n", args...) }
	line("Changed since you trusted it")
	for _, h := range d.Hooks.Added {
		line("  + hook %s: %s", h.Event, strings.Join(h.Argv, " "))
	}
	for _, h := range d.Hooks.Removed {
		line("  - hook %s: %s", h.Event, strings.Join(h.Argv, " "))
	}
	for _, c := range d.Hooks.Changed {
		line("  - hook %s: %s", c.Old.Event, strings.Join(c.Old.Argv, " "))
		line("  + hook %s: %s", c.New.Event, strings.Join(c.New.Argv, " "))
	}
	list := func(format string, items []string) {
		for _, it := range items {
			line(format, it)
		}
	}
	list("  ~ file %s (its content changed)", d.Files)
	list("  + MCP server %s", d.ServersAdded)
	list("  - MCP server %s", d.ServersRemoved)
	list("  ~ MCP server %s", d.ServersChanged)
	list("  + %s", d.RulesAdded)
	list("  - %s", d.RulesRemoved)
	list("  + env %s", d.EnvAdded)
	list("  - env %s", d.EnvRemoved)
	list("  + additional directory %s", d.DirsAdded)
	list("  - additional directory %s", d.DirsRemoved)
	return w.String()
}
