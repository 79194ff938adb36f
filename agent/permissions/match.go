package permissions

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Call is one tool call as the rules see it.
type Call struct {
	Tool    string // AgentDesk's tool name (run_command, read_file, mcp__srv__tool)
	Command string // run_command's command
	Path    string // a file tool's path, as the model wrote it ("" = the project root)
}

// CallOf reads what the rules need from a call's arguments.
func CallOf(tool string, args json.RawMessage) Call {
	var a struct {
		Command string `json:"command"`
		Path    string `json:"path"`
	}
	_ = json.Unmarshal(args, &a) // invalid arguments never reach approval
	return Call{Tool: tool, Command: a.Command, Path: a.Path}
}

// claudeNames maps AgentDesk's tools to Claude Code's (as agent/tools/claude.go).
var claudeNames = map[string]string{
	"run_command": "Bash", "write_file": "Write", "edit_file": "Edit", "read_file": "Read",
	"glob": "Glob", "grep": "Grep", "list_dir": "LS", "task": "Task",
}

// ruleTools lists which rule tool names cover one of our tools: Claude
// Code's Edit rules cover every tool that edits files, its Read rules
// every tool that reads them.
var ruleTools = map[string][]string{
	"run_command": {"Bash"},
	"write_file":  {"Write", "Edit"},
	"edit_file":   {"Edit"},
	"read_file":   {"Read"},
	"glob":        {"Glob", "Read"},
	"grep":        {"Grep", "Read"},
	"list_dir":    {"LS", "Read"},
	"task":        {"Task", "Agent"},
}

// pathTools are the rule tools whose specifier is a path pattern.
var pathTools = map[string]bool{"Read": true, "Edit": true, "Write": true, "Glob": true, "Grep": true, "LS": true, "NotebookEdit": true}

// covers reports whether r speaks about tool at all (its specifier aside).
func (r Rule) covers(tool string) bool {
	if strings.HasPrefix(tool, "mcp__") {
		return mcpCovers(r.Tool, tool)
	}
	for _, t := range ruleTools[tool] {
		if r.Tool == t {
			return true
		}
	}
	return r.Tool == tool
}

// mcpCovers: `mcp__srv` (or `mcp__srv__*`) covers every tool of srv;
// `mcp__srv__tool` that one tool; a trailing `*` is a prefix.
func mcpCovers(rule, tool string) bool {
	if !strings.HasPrefix(rule, "mcp__") {
		return false
	}
	if prefix, ok := strings.CutSuffix(rule, "*"); ok {
		return strings.HasPrefix(tool, prefix)
	}
	return tool == rule || strings.HasPrefix(tool, rule+"__") && strings.Count(rule, "__") == 1
}

// matchCommand matches one simple command against a Bash specifier:
// `prefix:*` is the command or the command followed by more words; a
// `*` anywhere matches any text (a lone trailing ` *` also matches the
// bare command, so `Bash(ls *)` matches `ls` and `ls -la`, never
// `lsof`); anything else is the exact command.
func matchCommand(spec, cmd string) bool {
	if spec == "" {
		return true
	}
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		prefix = strings.TrimSpace(prefix)
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	if !strings.Contains(spec, "*") {
		return cmd == spec
	}
	if bare, ok := strings.CutSuffix(spec, " *"); ok && !strings.Contains(bare, "*") && cmd == bare {
		return true
	}
	return wildcard(spec, cmd)
}

// wildcard matches s against pattern, where only `*` is special and
// matches any run of characters.
func wildcard(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// pathMatcher resolves path specifiers the way Claude Code's Read and
// Edit rules do (gitignore style): `//abs` from the filesystem root,
// `~/x` from the home folder, `/x` and `./x` and `x` from the project
// root. A pattern without a slash (other than a trailing one) matches at
// any depth, as in .gitignore; a matching folder covers everything in it.
type pathMatcher struct {
	project, home string
	// the last relTo answer (a Set is used by one call at a time)
	lastBase, lastAbs, lastRel string
	lastOK                     bool
}

func (m *pathMatcher) match(spec, abs string) bool {
	if spec == "" {
		return true
	}
	base, pattern := m.project, spec
	switch {
	case strings.HasPrefix(spec, "//"):
		base, pattern = "/", spec[2:]
	case strings.HasPrefix(spec, "~/"):
		if m.home == "" {
			return false
		}
		base, pattern = m.home, spec[2:]
	case strings.HasPrefix(spec, "/"):
		pattern = spec[1:]
	case strings.HasPrefix(spec, "./"):
		pattern = spec[2:]
	}
	rel, ok := m.relTo(base, abs)
	if !ok {
		return false
	}
	pattern = strings.TrimSuffix(pattern, "/")
	if !strings.Contains(pattern, "/") && !strings.HasPrefix(spec, "/") {
		pattern = "**/" + pattern
	}
	for p := rel; ; p = parentOf(p) {
		if ok, _ := doublestar.Match(pattern, p); ok {
			return true
		}
		if p == "." || p == "" {
			return false
		}
	}
}

func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "."
	}
	return p[:i]
}

// relTo is abs relative to base with forward slashes; ok is false
// outside base. The last answer is kept: one call tests many rules
// against the same path and base.
func (m *pathMatcher) relTo(base, abs string) (string, bool) {
	if m.lastBase == base && m.lastAbs == abs {
		return m.lastRel, m.lastOK
	}
	rel, err := filepath.Rel(base, abs)
	ok := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	m.lastBase, m.lastAbs, m.lastRel, m.lastOK = base, abs, filepath.ToSlash(rel), ok
	return m.lastRel, ok
}
