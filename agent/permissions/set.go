package permissions

import (
	"path/filepath"
	"strings"
)

// Verdict is the rules' answer for one call.
type Verdict struct {
	Behavior Behavior // "" when no rule speaks about the call
	Rule     Rule     // the deciding rule (for allow: the first part's)
}

// Set is the rules in force in one project. It is not safe for
// concurrent use (it keeps the last path it resolved): build one per call
// or guard it.
type Set struct {
	rules []Rule
	paths pathMatcher
}

// NewSet builds the rules for project (canonical) from the sources that
// apply: see Sources.
func NewSet(project, home string, rules []Rule) *Set {
	return &Set{rules: rules, paths: pathMatcher{project: project, home: home}}
}

// Rules are the rules of s, in order.
func (s *Set) Rules() []Rule {
	if s == nil {
		return nil
	}
	return append([]Rule(nil), s.rules...)
}

// Decide answers for one call: deny if any deny rule matches (any part of
// a compound command), else ask if any ask rule does, else allow if
// allow rules match (every part of a compound command), else "".
func (s *Set) Decide(c Call) Verdict {
	if s == nil || len(s.rules) == 0 {
		return Verdict{}
	}
	if c.Tool == "run_command" {
		return s.decideCommand(c.Command)
	}
	for _, b := range []Behavior{Deny, Ask, Allow} {
		if r, ok := s.first(b, c); ok {
			return Verdict{Behavior: b, Rule: r}
		}
	}
	return Verdict{}
}

func (s *Set) first(b Behavior, c Call) (Rule, bool) {
	abs := ""
	if c.Path != "" || !strings.HasPrefix(c.Tool, "mcp__") {
		abs = s.abs(c.Path)
	}
	for _, r := range s.rules {
		if r.Behavior == b && r.covers(c.Tool) && s.specMatches(r, abs) {
			return r, true
		}
	}
	return Rule{}, false
}

func (s *Set) specMatches(r Rule, abs string) bool {
	if r.Spec == "" {
		return true
	}
	if pathTools[r.Tool] {
		return s.paths.match(r.Spec, abs)
	}
	return false // a specifier we cannot test (WebFetch(domain:…) on another tool) never matches
}

func (s *Set) abs(p string) string {
	if p == "" {
		return s.paths.project
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.paths.project, filepath.FromSlash(p))
	}
	return filepath.Clean(p)
}

// decideCommand: a deny or ask rule matching the whole command or any
// part decides; allow needs every part allowed and nothing unreadable.
func (s *Set) decideCommand(cmd string) Verdict {
	cmd = strings.TrimSpace(cmd)
	parts, clean := commandParts(cmd)
	texts := append([]string{cmd}, parts...)
	for _, b := range []Behavior{Deny, Ask} {
		for _, t := range texts {
			if r, ok := s.firstCommand(b, t); ok {
				return Verdict{Behavior: b, Rule: r}
			}
		}
	}
	if !clean || len(parts) == 0 {
		if r, ok := s.firstCommand(Allow, cmd); ok && r.Spec == "" {
			return Verdict{Behavior: Allow, Rule: r} // a bare `Bash` allows everything
		}
		return Verdict{}
	}
	var first Rule
	for i, p := range parts {
		r, ok := s.firstCommand(Allow, p)
		if !ok {
			return Verdict{}
		}
		if i == 0 {
			first = r
		}
	}
	return Verdict{Behavior: Allow, Rule: first}
}

func (s *Set) firstCommand(b Behavior, cmd string) (Rule, bool) {
	for _, r := range s.rules {
		if r.Behavior == b && r.Tool == "Bash" && matchCommand(r.Spec, cmd) {
			return r, true
		}
	}
	return Rule{}, false
}
