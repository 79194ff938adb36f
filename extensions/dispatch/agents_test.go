package dispatch

import (
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// Two extensions define "reviewer": both are offered namespaced, in
// installation order, and the conflict is reported once; a unique name
// stays short. Bodies get their extension's variables.
func TestAgentSetNamespacesConflicts(t *testing.T) {
	a := extensions.Active{ID: "alpha", Label: "Alpha", Dir: "/store/alpha", Pkg: &manifest.Package{Agents: []manifest.Agent{
		{Name: "reviewer", Description: "A reviews\x1b[31m", Body: "A at ${CLAUDE_PLUGIN_ROOT} in ${CLAUDE_PROJECT_DIR}"},
		{Name: "planner", Description: "plans", Tools: []string{"Read"}}}}}
	b := extensions.Active{ID: "beta", Label: "Beta", Dir: "/store/beta", Pkg: &manifest.Package{Agents: []manifest.Agent{
		{Name: "reviewer", Description: "B reviews", Body: "B"}}}}
	set := agentSet([]extensions.Active{a, b}, "/proj")
	var names, types []string
	for _, ag := range set.Agents {
		names, types = append(names, ag.Name), append(types, ag.Type)
	}
	if !slices.Equal(names, []string{"alpha:reviewer", "planner", "beta:reviewer"}) ||
		!slices.Equal(types, []string{"alpha:reviewer", "alpha:planner", "beta:reviewer"}) {
		t.Fatalf("names %q, types %q", names, types)
	}
	if want := []lifecycle.AgentConflict{{Name: "reviewer", Sources: []string{"alpha", "beta"}}}; !slices.EqualFunc(set.Conflicts, want, func(x, y lifecycle.AgentConflict) bool {
		return x.Name == y.Name && slices.Equal(x.Sources, y.Sources)
	}) {
		t.Errorf("conflicts %+v", set.Conflicts)
	}
	first := set.Agents[0]
	if first.Prompt != "A at /store/alpha in /proj" || first.Description != "A reviews" || first.Tools != nil {
		t.Errorf("first agent %+v", first)
	}
	if !slices.Equal(set.Agents[1].Tools, []string{"Read"}) {
		t.Errorf("planner tools %q", set.Agents[1].Tools)
	}
}

// An extension's agent named like the built-in general-purpose one is
// offered namespaced, with the conflict, so both stay reachable and the
// name is listed once.
func TestAgentNamedGeneralPurposeIsNamespaced(t *testing.T) {
	x := extensions.Active{ID: "gp", Label: "GP", Dir: "/store/gp", Pkg: &manifest.Package{Agents: []manifest.Agent{
		{Name: "general-purpose", Description: "mine"}}}}
	set := agentSet([]extensions.Active{x}, "/proj")
	if len(set.Agents) != 1 || set.Agents[0].Name != "gp:general-purpose" {
		t.Fatalf("agents %+v", set.Agents)
	}
	if len(set.Conflicts) != 1 || !slices.Equal(set.Conflicts[0].Sources, []string{"built-in", "gp"}) {
		t.Errorf("conflicts %+v", set.Conflicts)
	}
}
