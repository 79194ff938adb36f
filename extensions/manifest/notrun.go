package manifest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// notRun is an executable capability AgentDesk does not run: the manifest
// field that declares it and the folder or file that declares it by
// convention. Each one present must be reported, never look active.
type notRun struct {
	field, convention, what string
	// count counts what the convention file or folder declares.
	count func(r pkgRoot, rel string) []string
}

var notRunCapabilities = []notRun{
	{"apps", "", "app", nil},
}

// reportNotRun notes, with counts and names, every capability the package
// declares that AgentDesk does not run: in the manifest or by folder
// convention. (Dynamic tool registration and servers are out of scope:
// hooks, skills, slash commands and agents are what AgentDesk uses.)
func (l *loader) reportNotRun(fields map[string]json.RawMessage) {
	for _, c := range notRunCapabilities {
		var names []string
		declared := false
		if v, ok := fields[c.field]; ok && !isNull(v) {
			declared = true
			names = append(names, fieldNames(v)...)
		}
		// By convention only what Claude Code would load counts: a
		// commands/ folder of Gemini .toml files declares nothing.
		if c.convention != "" && l.root.exists(c.convention) {
			found := c.count(l.root, c.convention)
			declared = declared || len(found) > 0
			names = append(names, found...)
		}
		if declared {
			l.note("declares %s: not supported, ignored%s", c.field, countText(c.what, c.convention, names))
		}
	}
}

func countText(what, where string, names []string) string {
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) == 0 {
		return ""
	}
	shown := names
	if len(shown) > 5 {
		shown = append(shown[:5:5], "…")
	}
	if where != "" {
		where = ", " + where
	}
	if len(names) != 1 {
		what += "s"
	}
	return fmt.Sprintf(" (%d %s%s: %s)", len(names), what, where, strings.Join(shown, ", "))
}

// fieldNames lists what a manifest field names: an object's keys, a list's
// strings, or one string.
func fieldNames(v json.RawMessage) []string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) == nil {
		return keys(obj)
	}
	var list []string
	if json.Unmarshal(v, &list) == nil {
		return list
	}
	var one string
	if json.Unmarshal(v, &one) == nil && one != "" {
		return []string{one}
	}
	return nil
}

func keys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
