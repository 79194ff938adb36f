package extensions

import "github.com/agentdesk/agentdesk/extensions/manifest"

// commandsOf lists a package's slash commands for display.
func commandsOf(pkg *manifest.Package) []Command {
	out := []Command{}
	for _, c := range pkg.Commands {
		out = append(out, Command{Name: c.Name, Path: c.Path, Description: c.Description,
			ArgumentHint: c.ArgumentHint, AllowedTools: c.AllowedTools})
	}
	return out
}
