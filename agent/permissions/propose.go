package permissions

import (
	"path/filepath"
	"regexp"
	"strings"
)

// subcommand is a word that names what a command does (test, run, build),
// not an argument (a flag, a path, a value).
var subcommand = regexp.MustCompile(`^[a-z][a-z0-9_:-]*$`)

// Propose is the allow rule offered by "Always allow in this project" for
// a call, in Claude Code's syntax: Bash(first words:*) for a simple
// command (the program and its subcommand, npm run's script too), the
// edited file's folder as Edit(folder/**), an MCP tool by name. It
// proposes nothing for a compound command (a rule covers one command;
// every part would need its own), a file outside the project, or another
// tool; the user edits the proposal before it is saved.
func Propose(project string, c Call) (string, bool) {
	switch {
	case c.Tool == "run_command":
		return proposeCommand(c.Command)
	case c.Tool == "edit_file" || c.Tool == "write_file":
		return proposeFolder(project, c.Path)
	case strings.HasPrefix(c.Tool, "mcp__"):
		return c.Tool, validToolName(c.Tool)
	}
	return "", false
}

func proposeCommand(cmd string) (string, bool) {
	if strings.ContainsAny(cmd, ";&|<>$`()\n\\\"'*?[]{}#") {
		return "", false // compound, redirected, quoted or expanded: no one prefix covers it
	}
	words := strings.Fields(cmd)
	if len(words) == 0 || strings.Contains(words[0], "=") {
		return "", false
	}
	keep := 1
	for keep < len(words) && keep < 2 && subcommand.MatchString(words[keep]) {
		keep++
	}
	if keep == 2 && len(words) > 2 && (words[1] == "run" || words[1] == "exec") && subcommand.MatchString(words[2]) {
		keep = 3 // npm run test, pnpm exec vitest
	}
	return "Bash(" + strings.Join(words[:keep], " ") + ":*)", true
}

func proposeFolder(project, path string) (string, bool) {
	if path == "" {
		return "", false
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(project, abs)
	}
	rel, err := filepath.Rel(project, filepath.Dir(filepath.Clean(abs)))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || strings.ContainsAny(rel, "*?[]{}()\\") {
		return "", false
	}
	if rel == "." {
		return "Edit(./**)", true
	}
	return "Edit(" + filepath.ToSlash(rel) + "/**)", true
}
