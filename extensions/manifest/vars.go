package manifest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Vars are the values of the variables a hook argv may reference.
type Vars struct {
	PluginRoot string // the active version's folder
	PluginData string // the extension's data folder, kept across updates
	ProjectDir string // the canonical project root
	// Options are the userConfig values an argv may name as
	// ${user_config.KEY}: never the sensitive ones.
	Options map[string]string
}

// userConfigPrefix starts a ${user_config.KEY} reference.
const userConfigPrefix = "user_config."

var (
	pluginRootVars = []string{"CLAUDE_PLUGIN_ROOT", "PLUGIN_ROOT", "AGENTDESK_PLUGIN_ROOT"}
	pluginDataVars = []string{"CLAUDE_PLUGIN_DATA", "PLUGIN_DATA", "AGENTDESK_PLUGIN_DATA"}
)

const projectDirVar = "CLAUDE_PROJECT_DIR"

// variableRef matches ${NAME}, ${NAME:-default} and $NAME; group 1 or 3
// is the name, group 2 the default.
var variableRef = regexp.MustCompile(`\$\{((?:user_config\.)?[A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{[^}]*\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

func refName(match []string) string { return match[1] + match[3] }

func (v Vars) lookup(name string) (string, bool) {
	if key, ok := strings.CutPrefix(name, userConfigPrefix); ok {
		value, set := v.Options[key]
		return value, set
	}
	switch {
	case slices.Contains(pluginRootVars, name):
		return v.PluginRoot, true
	case slices.Contains(pluginDataVars, name):
		return v.PluginData, true
	case name == projectDirVar:
		return v.ProjectDir, true
	}
	return "", false
}

// ExpandArgv replaces the documented variables inside each token
// (${NAME:-default} gives default when the value is empty) and leaves
// every other $-reference exactly as written. Values are inserted
// literally, never expanded again.
func ExpandArgv(argv []string, v Vars) []string {
	out := make([]string, len(argv))
	for i, tok := range argv {
		out[i] = variableRef.ReplaceAllStringFunc(tok, func(ref string) string {
			m := variableRef.FindStringSubmatch(ref)
			value, ok := v.lookup(refName(m))
			switch {
			case !ok:
				return ref
			case value == "": // ${NAME:-default}; a set value wins
				return m[2]
			}
			return value
		})
	}
	return out
}

// unknownVariables lists, once each and in order, the $-references in argv
// that ExpandArgv will leave as written.
func unknownVariables(argv []string) []string {
	var unknown []string
	for _, tok := range argv {
		for _, m := range variableRef.FindAllStringSubmatch(tok, -1) {
			name := refName(m)
			if _, known := (Vars{}).lookup(name); known || strings.HasPrefix(name, userConfigPrefix) {
				continue // user_config references are checked against the declarations
			}
			if !slices.Contains(unknown, m[0]) {
				unknown = append(unknown, m[0])
			}
		}
	}
	return unknown
}

// packagePath reports the package-relative path a token names when it
// starts with a plugin-root variable ("${CLAUDE_PLUGIN_ROOT}/hooks/x.js"
// names "hooks/x.js"; the bare variable names the root itself, ".").
func packagePath(tok string) (rel string, ok bool, err error) {
	loc := variableRef.FindStringSubmatchIndex(tok)
	if loc == nil || loc[0] != 0 {
		return "", false, nil
	}
	m := variableRef.FindStringSubmatch(tok)
	if !slices.Contains(pluginRootVars, refName(m)) {
		return "", false, nil
	}
	rest := tok[loc[1]:]
	switch {
	case rest == "":
		return ".", true, nil
	case rest[0] != '/':
		return "", false, fmt.Errorf("command token %s: the plugin root variable must be followed by '/'", tok)
	}
	rel = strings.TrimLeft(rest, "/")
	if rel == "" {
		rel = "."
	}
	return rel, true, nil
}
