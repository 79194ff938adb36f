package manifest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// defaultMCPFile declares MCP servers by convention, besides the
// manifest's "mcpServers".
const defaultMCPFile = ".mcp.json"

// Transport types of an MCP server declaration.
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http"
	MCPSSE   = "sse"
)

// NameValue is one environment variable or header, in declaration order.
type NameValue struct {
	Name  string
	Value string // as written, variables unexpanded
}

// MCPServer is one MCP server a package declares, validated but with its
// variables not yet expanded. A server that cannot run (a placeholder URL,
// a missing command) keeps its declaration and says why in Inactive: it
// is reported, never a failed install.
type MCPServer struct {
	Name    string // as declared
	Source  string // the file that declared it: .mcp.json or a manifest
	Type    string // MCPStdio, MCPHTTP or MCPSSE
	Command string `json:",omitempty"`
	Args    []string
	Cwd     string      `json:",omitempty"` // as written; "" is the package root
	Env     []NameValue `json:",omitempty"`
	URL     string      `json:",omitempty"`
	Headers []NameValue `json:",omitempty"`
	// OAuth is set when the declaration asks for OAuth sign-in, with the
	// client it names (clientId) and the loopback port registered for it
	// (callbackPort), when it does.
	OAuth             bool   `json:",omitempty"`
	OAuthClientID     string `json:",omitempty"`
	OAuthCallbackPort int    `json:",omitempty"`
	// UserEnv names the variables of the user's own environment that its
	// env and headers read (${VAR}): the only ones it ever gets, shown
	// before it is trusted.
	UserEnv []string `json:",omitempty"`
	// Files are the package files its command and arguments name, for
	// the tamper check.
	Files []string `json:",omitempty"`
	// FileSHA256 are the hex SHA-256 digests of Files, in the same order:
	// part of the trust hash, so an update that changes what the server
	// runs asks again.
	FileSHA256 []string `json:",omitempty"`
	Inactive   string   `json:",omitempty"`
}

// Argv is the command and its arguments, variables unexpanded.
func (s MCPServer) Argv() []string {
	if s.Command == "" {
		return nil
	}
	return append([]string{s.Command}, s.Args...)
}

// toolNameChar is what Claude Code keeps in an MCP tool name; anything
// else becomes '_'.
var toolNameChar = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// MCPToolPrefix is the prefix of the names Claude Code gives a plugin
// server's tools, mcp__plugin_<plugin>_<server>__, so guard-hook matchers
// written for Claude Code match them here too.
// The project's own servers (ProjectID) are mcp__<server>__, as Claude
// Code names a project's .mcp.json servers.
func MCPToolPrefix(plugin, server string) string {
	if plugin == ProjectID {
		return "mcp__" + toolNameChar.ReplaceAllString(server, "_") + "__"
	}
	return "mcp__plugin_" + toolNameChar.ReplaceAllString(plugin, "_") + "_" + toolNameChar.ReplaceAllString(server, "_") + "__"
}

// MCPToolName is the name the model calls a server's tool by.
func MCPToolName(plugin, server, tool string) string {
	return MCPToolPrefix(plugin, server) + toolNameChar.ReplaceAllString(tool, "_")
}

// mcpDecl is one server as JSON declares it: Claude Code's fields, and
// Codex's spelling of headers and tokens.
type mcpDecl struct {
	Type    string          `json:"type"`
	Command string          `json:"command"`
	Args    []string        `json:"args"`
	Env     json.RawMessage `json:"env"`
	Cwd     string          `json:"cwd"`
	URL     string          `json:"url"`
	Headers json.RawMessage `json:"headers"`
	OAuth   json.RawMessage `json:"oauth"`
	// Codex (config.toml's mcp_servers, as JSON).
	HTTPHeaders       json.RawMessage   `json:"http_headers"`
	EnvHTTPHeaders    map[string]string `json:"env_http_headers"`
	BearerTokenEnvVar string            `json:"bearer_token_env_var"`
	EnvVars           []string          `json:"env_vars"`
}

// loadMCPServers reads .mcp.json, then the manifest's "mcpServers" (an
// object of servers, or a path or list of paths to such files) and Codex's
// "mcp_servers". As for hooks, the manifest adds to the default file; a
// server declared twice the same way counts once, and a later different
// declaration of a name replaces the earlier one, noted.
func (l *loader) loadMCPServers(manifestPath string, fields map[string]json.RawMessage) {
	read := map[string]bool{}
	if l.root.exists(defaultMCPFile) {
		l.loadMCPFile(defaultMCPFile)
		read[defaultMCPFile] = true
	}
	for _, key := range []string{"mcpServers", "mcp_servers"} {
		raw := fields[key]
		switch kind(raw) {
		case 0, 'n':
			continue
		case '{':
			l.parseMCPServers(manifestPath, raw)
			continue
		}
		var paths []string
		var one string
		if json.Unmarshal(raw, &one) == nil {
			paths = []string{one}
		} else if json.Unmarshal(raw, &paths) != nil {
			l.note("ignored %q of %s: not an object of servers, a path or a list of paths", key, manifestPath)
			continue
		}
		for _, p := range paths {
			clean, err := cleanRelative(p)
			if err == nil && read[filepath.ToSlash(clean)] {
				continue
			}
			read[filepath.ToSlash(clean)] = true
			l.loadMCPFile(p)
		}
	}
}

// loadMCPFile reads one servers file; a broken one is noted, never fatal.
func (l *loader) loadMCPFile(rel string) {
	real, clean, err := l.root.resolve(rel)
	if err != nil {
		l.note("MCP servers: %v", err)
		return
	}
	data, err := readRegular(real, clean, MaxManifestBytes)
	if err != nil {
		l.note("MCP servers: %v", err)
		return
	}
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		l.note("MCP servers: %s: %v", clean, syntaxError(data, err))
		return
	}
	l.parseMCPServers(clean, whole)
}

// parseMCPServers accepts {"mcpServers": {…}}, Codex's {"mcp_servers":
// {…}} and the bare map of servers.
func (l *loader) parseMCPServers(where string, raw json.RawMessage) {
	members, err := orderedMembers(raw)
	if err != nil {
		l.note("MCP servers: %s: %v", where, err)
		return
	}
	if len(members) == 1 && (members[0].key == "mcpServers" || members[0].key == "mcp_servers") {
		if members, err = orderedMembers(members[0].value); err != nil {
			l.note("MCP servers: %s: %v", where, err)
			return
		}
	}
	for _, m := range members {
		s, ok := l.parseMCPServer(where, m.key, m.value)
		if ok {
			l.addMCPServer(s)
		}
	}
}

func (l *loader) addMCPServer(s MCPServer) {
	for i, old := range l.pkg.MCPServers {
		if old.Name != s.Name {
			continue
		}
		a, _ := json.Marshal(withoutSource(old))
		b, _ := json.Marshal(withoutSource(s))
		if string(a) != string(b) {
			l.note("MCP server %q: %s replaces the declaration in %s", s.Name, s.Source, old.Source)
			l.pkg.MCPServers[i] = s
		}
		return
	}
	l.pkg.MCPServers = append(l.pkg.MCPServers, s)
}

func withoutSource(s MCPServer) MCPServer { s.Source = ""; return s }

// parseMCPServer validates one declaration. Only a declaration that is
// not an object at all is dropped; every other problem makes the server
// inactive with the reason.
func (l *loader) parseMCPServer(where, name string, raw json.RawMessage) (MCPServer, bool) {
	var d mcpDecl
	if err := decodeInto(raw, &d); err != nil {
		l.note("MCP server %q in %s: %v; ignored", name, where, err)
		return MCPServer{}, false
	}
	s := MCPServer{Name: name, Source: where, Command: d.Command, Args: d.Args, Cwd: d.Cwd, URL: strings.TrimSpace(d.URL),
		OAuth: !isNull(d.OAuth) && string(d.OAuth) != "false"}
	var oauth struct {
		ClientID     string `json:"clientId"`
		CallbackPort int    `json:"callbackPort"`
	}
	if json.Unmarshal(d.OAuth, &oauth) == nil && oauth.CallbackPort >= 0 && oauth.CallbackPort < 65536 {
		s.OAuthClientID, s.OAuthCallbackPort = oauth.ClientID, oauth.CallbackPort
	}
	var problems []string
	if strings.TrimSpace(name) == "" || toolNameChar.MatchString(name) {
		l.note("MCP server %q: its tools are named %s… (Claude Code's spelling of the name)", name, MCPToolPrefix(l.pkg.Manifest.Name, name))
	}
	s.Type, problems = mcpType(d)
	env, err := nameValues(d.Env)
	if err != nil {
		problems = append(problems, "env "+err.Error())
	}
	for _, v := range d.EnvVars { // Codex: pass these through from the user's environment
		env = append(env, NameValue{Name: v, Value: "${" + v + "}"})
	}
	s.Env = env
	s.Headers, problems = codexHeaders(d, problems)
	switch s.Type {
	case MCPStdio:
		problems = append(problems, l.checkMCPCommand(&s)...)
	case MCPHTTP, MCPSSE:
		if p := urlProblem(s.URL); p != "" {
			problems = append(problems, p)
		}
	}
	problems = append(problems, l.checkMCPVariables(&s)...)
	if len(problems) > 0 {
		s.Inactive = strings.Join(problems, "; ")
		l.note("MCP server %q (%s): %s; it will not start", name, where, s.Inactive)
	}
	return s, true
}

func mcpType(d mcpDecl) (string, []string) {
	switch strings.ToLower(strings.TrimSpace(d.Type)) {
	case "", "stdio":
		if d.Type == "" && d.Command == "" && d.URL != "" {
			return MCPHTTP, nil
		}
		if d.Command == "" {
			return MCPStdio, []string{"no command to run"}
		}
		return MCPStdio, nil
	case "http", "streamable-http", "streamable_http", "streamablehttp":
		return MCPHTTP, nil
	case "sse":
		return MCPSSE, nil
	}
	return d.Type, []string{fmt.Sprintf("transport %q is not supported (stdio, http and sse are)", d.Type)}
}

// codexHeaders merges Claude Code's headers with Codex's http_headers,
// env_http_headers and bearer_token_env_var (as ${VAR} references).
func codexHeaders(d mcpDecl, problems []string) ([]NameValue, []string) {
	headers, err := nameValues(d.Headers)
	if err != nil {
		problems = append(problems, "headers "+err.Error())
	}
	more, err := nameValues(d.HTTPHeaders)
	if err != nil {
		problems = append(problems, "http_headers "+err.Error())
	}
	headers = append(headers, more...)
	for _, name := range sortedNames(d.EnvHTTPHeaders) {
		headers = setHeader(headers, name, "${"+d.EnvHTTPHeaders[name]+"}")
	}
	if v := strings.TrimSpace(d.BearerTokenEnvVar); v != "" {
		headers = setHeader(headers, "Authorization", "Bearer ${"+v+"}")
	}
	return headers, problems
}

func setHeader(h []NameValue, name, value string) []NameValue {
	h = slices.DeleteFunc(h, func(nv NameValue) bool { return strings.EqualFold(nv.Name, name) })
	return append(h, NameValue{Name: name, Value: value})
}

func sortedNames(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// nameValues reads an object of strings in declaration order (numbers
// and booleans as written).
func nameValues(raw json.RawMessage) ([]NameValue, error) {
	if isNull(raw) {
		return nil, nil
	}
	members, err := orderedMembers(raw)
	if err != nil {
		return nil, fmt.Errorf("must be an object of strings")
	}
	out := make([]NameValue, 0, len(members))
	for _, m := range members {
		var s string
		if json.Unmarshal(m.value, &s) != nil {
			s = strings.TrimSpace(string(m.value))
		}
		out = append(out, NameValue{Name: m.key, Value: s})
	}
	return out, nil
}

// urlProblem checks a remote server's URL as far as it is known before
// variables are expanded: present, https (or http on loopback).
func urlProblem(raw string) string {
	if raw == "" {
		return `no URL (the plugin ships "url": "" as a placeholder)`
	}
	probe := variableRef.ReplaceAllString(raw, "x")
	u, err := url.Parse(probe)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("URL %q is not a valid URL", raw)
	}
	switch {
	case u.Scheme == "https":
		return ""
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return ""
	}
	return fmt.Sprintf("URL %q: only https (or http to this computer) is allowed", raw)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkMCPCommand validates a stdio server's program and the package
// files its arguments name.
func (l *loader) checkMCPCommand(s *MCPServer) []string {
	base, err := l.cwdBase(s.Cwd)
	if err != nil {
		return []string{err.Error()}
	}
	if argv := s.Argv(); len(argv) > 0 {
		if err := l.anchorScripts(argv, base); err != nil {
			return []string{err.Error()}
		}
		s.Command, s.Args = argv[0], argv[1:]
	}
	var problems []string
	for i, tok := range s.Argv() {
		rel, ok, err := l.packagePath(tok)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if !ok {
			continue
		}
		real, clean, err := l.root.resolve(rel)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", tok, err))
			continue
		}
		if !isRegularFile(real) {
			if i == 0 {
				problems = append(problems, clean+" is not a program (not a file)")
			}
			continue
		}
		s.Files = append(s.Files, clean)
		if i == 0 {
			if p := executableProblem(real); p != "" {
				problems = append(problems, clean+" is not executable on this system ("+p+")")
			}
		}
	}
	s.Files = append(s.Files, l.projectFiles(s.Argv())...)
	slices.Sort(s.Files)
	s.Files = slices.Compact(s.Files)
	return problems
}

// checkMCPVariables notes what each variable reference will be: the
// documented ones are set by AgentDesk; in env and headers any other
// ${VAR} comes from the user's environment (recorded in UserEnv); in the
// command, arguments, cwd and URL an unknown one is passed as written,
// and a sensitive user_config value is never put there.
func (l *loader) checkMCPVariables(s *MCPServer) []string {
	var problems []string
	argvLike := append(s.Argv(), s.Cwd, s.URL)
	for _, tok := range argvLike {
		for _, m := range variableRef.FindAllStringSubmatch(tok, -1) {
			name := refName(m)
			if key, ok := strings.CutPrefix(name, userConfigPrefix); ok {
				if o, declared := l.option(key); declared && o.Sensitive {
					problems = append(problems, fmt.Sprintf("%s is sensitive and never put in a command or URL", m[0]))
				}
				continue
			}
			if _, known := (Vars{}).lookup(name); !known {
				l.note("MCP server %q: %s in its command, arguments or URL is not a variable AgentDesk sets; it is passed as written (only env and headers read your environment)", s.Name, m[0])
			}
		}
	}
	for _, nv := range append(slices.Clone(s.Env), s.Headers...) {
		for _, m := range variableRef.FindAllStringSubmatch(nv.Value, -1) {
			name := refName(m)
			if name == "" || strings.HasPrefix(name, userConfigPrefix) {
				continue
			}
			if _, known := (Vars{}).lookup(name); !known && !slices.Contains(s.UserEnv, name) {
				s.UserEnv = append(s.UserEnv, name)
			}
		}
	}
	return problems
}
