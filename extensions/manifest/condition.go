package manifest

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"
)

// A hook handler's "if" narrows a tool event's hook to some calls, in
// Claude Code's permission-rule syntax: "Bash(git commit *)",
// "Bash(git push:*)", "Edit(src/**)", "Read(./.env)", or a bare tool name.
// Claude Code tests each simple command of a compound command line, so
// "ls && git push" matches "Bash(git push *)"; AgentDesk does the same.

// ifEvents are the events whose input has a tool call to test.
var ifEvents = map[string]bool{EventPreToolUse: true, EventPostToolUse: true}

// conditionRule is "Tool" or "Tool(pattern)".
var conditionRule = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(?:\((.*)\))?$`)

// Condition is a compiled "if". The zero Condition matches every call.
type Condition struct {
	tool    string // Claude Code's or AgentDesk's tool name
	pattern string // "" = any call of the tool
}

// CompileCondition parses an "if" rule.
func CompileCondition(s string) (Condition, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Condition{}, nil
	}
	m := conditionRule.FindStringSubmatch(s)
	if m == nil {
		return Condition{}, fmt.Errorf("condition %q is not a permission rule such as Bash(git push *) or Edit(src/**)", s)
	}
	c := Condition{tool: m[1], pattern: strings.TrimSpace(m[2])}
	if c.pattern != "" && !c.isCommand() {
		if _, err := doublestar.Match(strings.TrimPrefix(c.pattern, "./"), ""); err != nil {
			return Condition{}, fmt.Errorf("condition %q: bad path pattern: %w", s, err)
		}
	}
	return c, nil
}

func (c Condition) isCommand() bool { return c.tool == "Bash" || c.tool == "run_command" }

// Match tests a tool call: tool and claudeTool are its names, input its
// tool_input (Claude Code's field names), project the project folder.
func (c Condition) Match(tool, claudeTool string, input json.RawMessage, project string) bool {
	if c.tool == "" {
		return true
	}
	if c.tool != tool && c.tool != claudeTool {
		return false
	}
	if c.pattern == "" {
		return true
	}
	var in struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Path     string `json:"path"`
	}
	json.Unmarshal(input, &in)
	if c.isCommand() {
		return c.matchCommand(in.Command)
	}
	p := in.FilePath
	if p == "" {
		p = in.Path
	}
	return c.matchPath(p, project)
}

// matchCommand tests each simple command of a command line, without its
// leading variable assignments. A line that does not parse is tested whole.
func (c Condition) matchCommand(line string) bool {
	simple := simpleCommands(line)
	if simple == nil {
		simple = []string{strings.TrimSpace(line)}
	}
	for _, cmd := range simple {
		if commandMatches(c.pattern, cmd) {
			return true
		}
	}
	return false
}

// commandMatches is Claude Code's rule for one command: "prefix:*" is a
// prefix at a word boundary, "*" matches any text, anything else is exact.
func commandMatches(pattern, cmd string) bool {
	if prefix, ok := strings.CutSuffix(pattern, ":*"); ok {
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	// "git push *" also matches a bare "git push", as in Claude Code.
	if base, ok := strings.CutSuffix(pattern, " *"); ok && !strings.Contains(base, "*") && cmd == base {
		return true
	}
	parts := strings.Split(pattern, "*")
	re := "^"
	for i, part := range parts {
		if i > 0 {
			re += "(?s:.*)"
		}
		re += regexp.QuoteMeta(part)
	}
	ok, _ := regexp.MatchString(re+"$", cmd)
	return ok
}

// simpleCommands splits a command line into its simple commands' text.
func simpleCommands(line string) []string {
	file, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil
	}
	var out []string
	printer := syntax.NewPrinter()
	syntax.Walk(file, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		var words []string
		for _, w := range call.Args {
			var b strings.Builder
			printer.Print(&b, w)
			words = append(words, b.String())
		}
		out = append(out, strings.Join(words, " "))
		return true
	})
	return out
}

// matchPath tests a file path as Claude Code's file rules do: "//abs"
// is absolute, "~/x" under the home folder (not known here: never),
// "/x" and "./x" and "x" relative to the project; "**" spans folders.
func (c Condition) matchPath(p, project string) bool {
	if p == "" {
		return false
	}
	pattern := c.pattern
	switch {
	case strings.HasPrefix(pattern, "//"):
		pattern = pattern[1:]
		p = filepath.ToSlash(p)
	case strings.HasPrefix(pattern, "~/"):
		return false
	default:
		rel, err := filepath.Rel(project, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return false
		}
		p = filepath.ToSlash(rel)
		pattern = strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/")
		if !strings.Contains(pattern, "/") {
			pattern = "**/" + pattern // a bare name matches at any depth, as in .gitignore
		}
	}
	ok, _ := doublestar.Match(path.Clean(pattern), p)
	return ok
}
