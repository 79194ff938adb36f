package extensions

import "github.com/agentdesk/agentdesk/extensions/manifest"

// agentsOf lists a package's agents for display.
func agentsOf(pkg *manifest.Package) []Agent {
	out := []Agent{}
	for _, a := range pkg.Agents {
		out = append(out, Agent{Name: a.Name, Path: a.Path, Description: a.Description, Tools: a.Tools,
			Model: a.Model, MaxTurns: a.MaxTurns, Color: a.Color}) // cleaned for display by ForDisplay
	}
	return out
}
