package dispatch

import (
	"context"
	"hash/maphash"
	"maps"
	"slices"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

var _ lifecycle.AgentSource = (*Dispatcher)(nil)

func stripAll(list []string) []string {
	var out []string
	for _, s := range list {
		out = append(out, safetext.Strip(s))
	}
	return out
}

// Agents implements lifecycle.AgentSource: the enabled, trusted
// extensions' agents, from the turn's snapshot (or, outside a turn, the
// registry's active list), so a disable or uninstall removes them from
// the next turn. The set built from one list is kept while the list is
// the same (the same packages, folders and options): expanding the
// variables of every agent's body for each turn was most of a turn's
// start with a whole marketplace enabled.
func (d *Dispatcher) Agents(ctx context.Context, projectDir string) lifecycle.AgentSet {
	xs, snap := d.listFor(ctx, projectDir)
	key := memoized(snap, agentKeyMemo{}, func() uint64 { return agentKey(xs, projectDir) })
	d.mu.Lock()
	memo := d.agents
	d.mu.Unlock()
	if memo == nil || memo.key != key {
		memo = &agentMemo{key: key, set: agentSet(xs, projectDir)}
		d.mu.Lock()
		d.agents = memo
		d.mu.Unlock()
	}
	return lifecycle.AgentSet{Agents: slices.Clone(memo.set.Agents), Conflicts: slices.Clone(memo.set.Conflicts)}
}

// agentMemo is an agent set and the key of what it was built from.
type agentMemo struct {
	key uint64
	set lifecycle.AgentSet
}

// agentSeed keys agent sets for the life of the process.
var agentSeed = maphash.MakeSeed()

// agentKey is a 64-bit hash of everything agentSet reads of xs: each
// extension's id, label, folders, options and package (a decoded package
// is never changed, and a new version or re-stamp is decoded anew, so
// its address stands for its content).
func agentKey(xs []extensions.Active, projectDir string) uint64 {
	var h maphash.Hash
	h.SetSeed(agentSeed)
	field := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	field(projectDir)
	for _, x := range xs {
		field(x.ID)
		field(x.Label)
		field(x.Dir)
		field(x.Data)
		maphash.WriteComparable(&h, x.Pkg)
		for _, k := range slices.Sorted(maps.Keys(x.OptionArgv)) {
			field(k)
			field(x.OptionArgv[k])
		}
		h.WriteByte(1) // the end of one extension
	}
	return h.Sum64()
}

// agentSet offers each agent by its short name when exactly one
// extension defines it, else by "EXT:NAME" with the conflict reported:
// deterministic, in installation order, never one silently hiding
// another. The project's own agent keeps its short name against
// plugins' (Claude Code's order), the conflict still reported.
func agentSet(xs []extensions.Active, projectDir string) lifecycle.AgentSet {
	// The built-in general-purpose agent owns its name: an extension's
	// agent of that name is offered by "EXT:general-purpose" (else it
	// would be listed twice and never reached).
	owners := map[string][]string{generalPurpose: {builtInAgent}}
	for _, x := range xs {
		for _, a := range x.Pkg.Agents {
			owners[a.Name] = append(owners[a.Name], x.ID)
		}
	}
	var set lifecycle.AgentSet
	for _, x := range xs {
		v := manifest.Vars{PluginRoot: x.Dir, PluginData: x.Data, ProjectDir: projectDir, Options: x.OptionArgv}
		for _, a := range x.Pkg.Agents {
			out := agentOf(x, a, v)
			if len(owners[a.Name]) > 1 {
				if !projectWins(owners[a.Name], x.ID) {
					out.Name = out.Type
				}
				if firstExtension(owners[a.Name]) == x.ID { // the conflict once, at its first owner
					set.Conflicts = append(set.Conflicts, lifecycle.AgentConflict{Name: a.Name, Sources: owners[a.Name]})
				}
			}
			set.Agents = append(set.Agents, out)
		}
	}
	return set
}

// builtInAgent names AgentDesk itself among an agent name's owners, and
// generalPurpose is its agent's name (agent.GeneralPurpose, which this
// package cannot import).
const (
	builtInAgent   = "built-in"
	generalPurpose = "general-purpose"
)

func firstExtension(owners []string) string {
	for _, o := range owners {
		if o != builtInAgent {
			return o
		}
	}
	return ""
}

// agentOf is the loop's view of one agent. What is shown to people or to
// the model as a description is stripped of control and bidi characters;
// the body is the package's prompt, like a command's.
func agentOf(x extensions.Active, a manifest.Agent, v manifest.Vars) lifecycle.Agent {
	return lifecycle.Agent{Name: a.Name, Type: x.ID + ":" + a.Name, Extension: x.ID, Label: safetext.Strip(x.Label),
		Description: safetext.Strip(a.Description), Tools: stripAll(a.Tools), DisallowedTools: stripAll(a.DisallowedTools),
		Model: safetext.Strip(a.Model), MaxTurns: a.MaxTurns, Skills: stripAll(a.Skills), Color: safetext.Strip(a.Color),
		Path: a.Path, Prompt: a.Prompt(v)}
}

// projectWins: id is the project, which owns a name it shares with
// plugins only (never with AgentDesk's own).
func projectWins(owners []string, id string) bool {
	return id == manifest.ProjectID && !slices.Contains(owners, builtInAgent)
}
