package dispatch

import (
	"testing"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// The project's own commands and agents win a name they share with a
// plugin (Claude Code's order), the conflict still reported; a
// subfolder command /fe:comp is the project's, not extension "fe"'s.
func TestProjectWinsSameNameConflicts(t *testing.T) {
	mk := func(id string, cmds []string, agents []string) extensions.Active {
		p := &manifest.Package{}
		for _, c := range cmds {
			p.Commands = append(p.Commands, manifest.Command{Name: c, Body: id + "-" + c})
		}
		for _, a := range agents {
			p.Agents = append(p.Agents, manifest.Agent{Name: a, Description: "d", Body: id + "-" + a})
		}
		return extensions.Active{ID: id, Label: id, Pkg: p}
	}
	xs := []extensions.Active{mk(manifest.ProjectID, []string{"review", "fe:comp", "help"}, []string{"tester"}),
		mk("plug", []string{"review"}, []string{"tester"})}
	set := commandSet(xs, []string{"help"})
	names := map[string]string{}
	for _, c := range set.Commands {
		names[c.Name] = c.Extension
	}
	if names["review"] != manifest.ProjectID || names["plug:review"] != "plug" || names["fe:comp"] != manifest.ProjectID {
		t.Errorf("commands %v", names)
	}
	if _, ok := names["help"]; ok {
		t.Error("a host command's name stays the host's")
	}
	if len(set.Conflicts) != 2 {
		t.Errorf("conflicts %+v", set.Conflicts)
	}
	for name, want := range map[string]string{"review": "project-review", "fe:comp": "project-fe:comp", "plug:review": "plug-review"} {
		x, c, err := findCommand(xs, name)
		if err != nil || c.Body != want {
			t.Errorf("/%s: %s %q %v", name, x.ID, c.Body, err)
		}
	}
	agents := agentSet(xs, "/p")
	got := map[string]string{}
	for _, a := range agents.Agents {
		got[a.Name] = a.Extension
	}
	if got["tester"] != manifest.ProjectID || got["plug:tester"] != "plug" || len(agents.Conflicts) != 1 {
		t.Errorf("agents %v conflicts %+v", got, agents.Conflicts)
	}
}
