package manifest

import "strings"

// MCPEnv is what a server's variables expand from: the documented
// variables, the userConfig values (sensitive ones only in env and
// headers), and the user's environment, read only for the names the
// server declares (UserEnv).
type MCPEnv struct {
	Vars
	// Sensitive are the sensitive userConfig values by key.
	Sensitive map[string]string
	// LookupEnv reads the user's environment; nil reads nothing.
	LookupEnv func(string) (string, bool)
}

// MCPLaunch is a server's declaration with its variables expanded: what
// runs, or what is connected to.
type MCPLaunch struct {
	Argv    []string
	Cwd     string // "" when the declaration has none
	Env     []string
	URL     string
	Headers map[string]string
	// Unset are the user environment variables it reads that are not set
	// (and have no default): the server may still work without them.
	Unset []string
}

// Expand expands s's variables for a start.
func (s MCPServer) Expand(e MCPEnv) MCPLaunch {
	l := MCPLaunch{Argv: ExpandArgv(s.Argv(), e.Vars), URL: ExpandArgv([]string{s.URL}, e.Vars)[0]}
	if s.Cwd != "" {
		l.Cwd = ExpandArgv([]string{s.Cwd}, e.Vars)[0]
	}
	for _, nv := range s.Env {
		l.Env = append(l.Env, nv.Name+"="+e.expandValue(s, nv.Value, &l.Unset))
	}
	if len(s.Headers) > 0 {
		l.Headers = map[string]string{}
	}
	for _, nv := range s.Headers {
		l.Headers[nv.Name] = e.expandValue(s, nv.Value, &l.Unset)
	}
	return l
}

// expandValue expands an env or header value: documented variables, any
// userConfig value, and the declared user environment variables.
func (e MCPEnv) expandValue(s MCPServer, value string, unset *[]string) string {
	return variableRef.ReplaceAllStringFunc(value, func(ref string) string {
		m := variableRef.FindStringSubmatch(ref)
		name := refName(m)
		v, ok := e.lookup(s, name)
		switch {
		case !ok:
			return ref
		case v == "" && m[2] == "" && !strings.HasPrefix(name, userConfigPrefix) && !e.documented(name):
			*unset = append(*unset, name)
		case v == "":
			return m[2]
		}
		return v
	})
}

func (e MCPEnv) documented(name string) bool {
	_, ok := (Vars{}).lookup(name)
	return ok
}

func (e MCPEnv) lookup(s MCPServer, name string) (string, bool) {
	if key, ok := strings.CutPrefix(name, userConfigPrefix); ok {
		if v, set := e.Sensitive[key]; set {
			return v, true
		}
	}
	if v, ok := e.Vars.lookup(name); ok {
		return v, true
	}
	for _, declared := range s.UserEnv {
		if declared == name {
			if e.LookupEnv == nil {
				return "", true
			}
			v, _ := e.LookupEnv(name)
			return v, true
		}
	}
	return "", false
}
