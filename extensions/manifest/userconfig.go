package manifest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Option is one value a plugin asks the user for (its manifest's
// "userConfig"): hooks get it as CLAUDE_PLUGIN_OPTION_<KEY> in their
// environment and, unless it is sensitive, as ${user_config.KEY} in their
// commands.
type Option struct {
	Key         string
	Title       string
	Description string
	Type        string // string | number | boolean | directory | file
	Default     string `json:",omitempty"` // as text; "" when none
	HasDefault  bool   `json:",omitempty"`
	Required    bool   `json:",omitempty"`
	// Sensitive values are kept in the OS keyring (or a file only the
	// user can read) and reach hooks only through the environment.
	Sensitive bool `json:",omitempty"`
}

// EnvName is the environment variable a hook reads the option from.
func (o Option) EnvName() string { return "CLAUDE_PLUGIN_OPTION_" + strings.ToUpper(o.Key) }

// optionKey must make a valid environment variable name.
var optionKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

var optionTypes = map[string]bool{"": true, "string": true, "number": true, "boolean": true, "directory": true, "file": true}

type optionSpec struct {
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Type        string          `json:"type"`
	Default     json.RawMessage `json:"default"`
	Required    bool            `json:"required"`
	Sensitive   bool            `json:"sensitive"`
}

// loadUserConfig reads "userConfig" in manifest order; a malformed option
// is noted and left out (hooks needing it then see no value).
func (l *loader) loadUserConfig(raw json.RawMessage) {
	if isNull(raw) {
		return
	}
	members, err := orderedMembers(raw)
	if err != nil {
		l.note(`ignored "userConfig": not an object`)
		return
	}
	for _, m := range members {
		o, problem := parseOption(m.key, m.value)
		if problem != "" {
			l.note("ignored userConfig %q: %s", m.key, problem)
			continue
		}
		l.pkg.UserConfig = append(l.pkg.UserConfig, o)
	}
}

func parseOption(key string, raw json.RawMessage) (Option, string) {
	if !optionKey.MatchString(key) {
		return Option{}, "the key must be letters, digits and '_' (it names an environment variable)"
	}
	var spec optionSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return Option{}, "not an object of title, description, type, default, required, sensitive"
	}
	if !optionTypes[spec.Type] {
		return Option{}, fmt.Sprintf("unknown type %q", spec.Type)
	}
	o := Option{Key: key, Title: spec.Title, Description: truncateForDisplay(spec.Description), Type: spec.Type,
		Required: spec.Required, Sensitive: spec.Sensitive}
	if o.Type == "" {
		o.Type = "string"
	}
	if o.Title == "" {
		o.Title = key
	}
	if !isNull(spec.Default) {
		var s string
		if json.Unmarshal(spec.Default, &s) != nil {
			s = strings.TrimSpace(string(spec.Default)) // numbers and booleans as written
		}
		o.Default, o.HasDefault = s, true
	}
	return o, ""
}

// checkOptionRefs notes ${user_config.KEY} references a hook cannot get:
// undeclared keys, and sensitive ones, which never go into an argv.
func (l *loader) checkOptionRefs(h *Hook) {
	for _, tok := range h.Argv {
		for _, m := range variableRef.FindAllStringSubmatch(tok, -1) {
			key, ok := strings.CutPrefix(refName(m), userConfigPrefix)
			if !ok {
				continue
			}
			switch o, declared := l.option(key); {
			case !declared:
				l.note("%s hook %s: %s is not declared in userConfig; it is passed as written", h.Event, displayCommand(*h), m[0])
			case o.Sensitive:
				l.note("%s hook %s: %s is sensitive and never put in a command; the hook reads it from %s", h.Event, displayCommand(*h), m[0], o.EnvName())
			}
		}
	}
}

func (l *loader) option(key string) (Option, bool) {
	for _, o := range l.pkg.UserConfig {
		if o.Key == key {
			return o, true
		}
	}
	return Option{}, false
}
