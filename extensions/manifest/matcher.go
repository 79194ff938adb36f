package manifest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Matcher decides whether a hook group applies to an event's value
// (SessionStart's source, SubagentStart's agent type).
type Matcher struct {
	names []string       // exact names; with re nil and no names, everything matches
	re    *regexp.Regexp // unanchored, as Claude Code and Codex treat matchers
}

// exactNames is the character set that makes a matcher a plain list of
// names ("startup|resume", "a, b") rather than a regular expression.
var exactNames = regexp.MustCompile(`^[A-Za-z0-9_ ,|-]+$`)

// CompileMatcher parses a matcher: empty or "*" matches everything, a list
// of names separated by '|' or ',' matches those names exactly, anything
// else is an unanchored Go regular expression.
func CompileMatcher(s string) (Matcher, error) {
	text := strings.TrimSpace(s)
	if text == "" || text == "*" {
		return Matcher{}, nil
	}
	if exactNames.MatchString(text) {
		return Matcher{names: splitNames(text)}, nil
	}
	re, err := regexp.Compile(text)
	if err != nil {
		return Matcher{}, fmt.Errorf("matcher %q is not a valid regular expression: %w", s, err)
	}
	return Matcher{re: re}, nil
}

func splitNames(text string) []string {
	var names []string
	for _, name := range strings.FieldsFunc(text, func(r rune) bool { return r == '|' || r == ',' }) {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// Match reports whether the matcher selects value.
func (m Matcher) Match(value string) bool {
	switch {
	case m.re != nil:
		return m.re.MatchString(value)
	case len(m.names) == 0:
		return true
	}
	return slices.Contains(m.names, value)
}
