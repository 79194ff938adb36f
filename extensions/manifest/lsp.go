package manifest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// defaultLSPFile declares LSP servers by convention, besides the
// manifest's "lspServers" (a strict:false marketplace entry is written as
// the manifest, so its "lspServers" is read the same way).
const defaultLSPFile = ".lsp.json"

// LSPStdio is the one transport AgentDesk runs; a "socket" server is
// reported, not started.
const LSPStdio = "stdio"

// LSPServer is one language server a package declares, validated, its
// variables not yet expanded (they expand as an MCP server's do). A
// server that cannot run keeps its declaration with the reason in
// Inactive.
type LSPServer struct {
	Name      string
	Source    string // the file that declared it: .lsp.json or a manifest
	Command   string
	Args      []string
	Transport string      // LSPStdio, or what was declared
	Env       []NameValue `json:",omitempty"`
	// ExtensionToLanguage maps a file extension (".go") to its LSP
	// language id ("go"): the files the server covers.
	ExtensionToLanguage []NameValue
	// InitializationOptions is sent with initialize; Settings by
	// workspace/didChangeConfiguration and in answers to
	// workspace/configuration. Both as declared (JSON), or empty.
	InitializationOptions json.RawMessage `json:",omitempty"`
	Settings              json.RawMessage `json:",omitempty"`
	// WorkspaceFolder is the declared workspace folder, variables
	// unexpanded; "" is the project.
	WorkspaceFolder string `json:",omitempty"`
	// StartupTimeoutMS and ShutdownTimeoutMS are the declared bounds in
	// milliseconds (Claude Code's unit); 0 uses the host's default.
	StartupTimeoutMS  int  `json:",omitempty"`
	ShutdownTimeoutMS int  `json:",omitempty"`
	RestartOnCrash    bool `json:",omitempty"`
	MaxRestarts       int  `json:",omitempty"`
	// UserEnv, Files and FileSHA256 are as for MCPServer.
	UserEnv    []string `json:",omitempty"`
	Files      []string `json:",omitempty"`
	FileSHA256 []string `json:",omitempty"`
	Inactive   string   `json:",omitempty"`
}

// Argv is the command and its arguments, variables unexpanded.
func (s LSPServer) Argv() []string {
	if s.Command == "" {
		return nil
	}
	return append([]string{s.Command}, s.Args...)
}

// Language is the language id the server gives a file, and whether it
// covers the file at all (by extension, case-insensitively, longest
// match first so ".d.ts" wins over ".ts").
func (s LSPServer) Language(path string) (string, bool) {
	base := strings.ToLower(filepath.Base(path))
	best, lang := -1, ""
	for _, nv := range s.ExtensionToLanguage {
		ext := strings.ToLower(nv.Name)
		if ext == "" {
			continue
		}
		if !strings.HasPrefix(ext, ".") {
			ext = "." + ext
		}
		if strings.HasSuffix(base, ext) && len(ext) > best {
			best, lang = len(ext), nv.Value
		}
	}
	return lang, best >= 0
}

// AsMCP is the server as a stdio MCP declaration: what its command,
// arguments and environment expand like (MCPServer.Expand).
func (s LSPServer) AsMCP() MCPServer {
	return MCPServer{Name: s.Name, Source: s.Source, Type: MCPStdio, Command: s.Command, Args: s.Args, Env: s.Env,
		UserEnv: s.UserEnv, Files: s.Files, FileSHA256: s.FileSHA256, Inactive: s.Inactive}
}

// lspDecl is one server as Claude Code's .lsp.json declares it.
type lspDecl struct {
	Command               string          `json:"command"`
	Args                  []string        `json:"args"`
	Transport             string          `json:"transport"`
	Env                   json.RawMessage `json:"env"`
	ExtensionToLanguage   json.RawMessage `json:"extensionToLanguage"`
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	Settings              json.RawMessage `json:"settings"`
	WorkspaceFolder       string          `json:"workspaceFolder"`
	StartupTimeout        *float64        `json:"startupTimeout"`
	ShutdownTimeout       *float64        `json:"shutdownTimeout"`
	RestartOnCrash        *bool           `json:"restartOnCrash"`
	MaxRestarts           *float64        `json:"maxRestarts"`
}

// loadLSPServers reads .lsp.json, then the manifest's "lspServers" (an
// object of servers, or a path or list of paths to such files), the way
// MCP servers are read.
func (l *loader) loadLSPServers(manifestPath string, fields map[string]json.RawMessage) {
	read := map[string]bool{}
	if l.root.exists(defaultLSPFile) {
		l.loadLSPFile(defaultLSPFile)
		read[defaultLSPFile] = true
	}
	raw := fields["lspServers"]
	switch kind(raw) {
	case 0, 'n':
		return
	case '{':
		l.parseLSPServers(manifestPath, raw)
		return
	}
	var paths []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		paths = []string{one}
	} else if json.Unmarshal(raw, &paths) != nil {
		l.note(`ignored "lspServers" of %s: not an object of servers, a path or a list of paths`, manifestPath)
		return
	}
	for _, p := range paths {
		clean, err := cleanRelative(p)
		if err == nil && read[filepath.ToSlash(clean)] {
			continue
		}
		read[filepath.ToSlash(clean)] = true
		l.loadLSPFile(p)
	}
}

func (l *loader) loadLSPFile(rel string) {
	real, clean, err := l.root.resolve(rel)
	if err != nil {
		l.note("LSP servers: %v", err)
		return
	}
	data, err := readRegular(real, clean, MaxManifestBytes)
	if err != nil {
		l.note("LSP servers: %v", err)
		return
	}
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		l.note("LSP servers: %s: %v", clean, syntaxError(data, err))
		return
	}
	l.parseLSPServers(clean, whole)
}

// parseLSPServers accepts {"lspServers": {…}} and the bare map.
func (l *loader) parseLSPServers(where string, raw json.RawMessage) {
	members, err := orderedMembers(raw)
	if err != nil {
		l.note("LSP servers: %s: %v", where, err)
		return
	}
	if len(members) == 1 && members[0].key == "lspServers" {
		if members, err = orderedMembers(members[0].value); err != nil {
			l.note("LSP servers: %s: %v", where, err)
			return
		}
	}
	for _, m := range members {
		if s, ok := l.parseLSPServer(where, m.key, m.value); ok {
			l.addLSPServer(s)
		}
	}
}

func (l *loader) addLSPServer(s LSPServer) {
	for i, old := range l.pkg.LSPServers {
		if old.Name != s.Name {
			continue
		}
		o, n := old, s
		o.Source, n.Source = "", ""
		a, _ := json.Marshal(o)
		b, _ := json.Marshal(n)
		if string(a) != string(b) {
			l.note("LSP server %q: %s replaces the declaration in %s", s.Name, s.Source, old.Source)
			l.pkg.LSPServers[i] = s
		}
		return
	}
	l.pkg.LSPServers = append(l.pkg.LSPServers, s)
}

// parseLSPServer validates one declaration: only one that is not an
// object is dropped; any other problem makes it inactive with the reason.
func (l *loader) parseLSPServer(where, name string, raw json.RawMessage) (LSPServer, bool) {
	var d lspDecl
	if err := decodeInto(raw, &d); err != nil {
		l.note("LSP server %q in %s: %v; ignored", name, where, err)
		return LSPServer{}, false
	}
	s := LSPServer{Name: name, Source: where, Command: d.Command, Args: d.Args, WorkspaceFolder: d.WorkspaceFolder,
		Transport: strings.ToLower(strings.TrimSpace(d.Transport))}
	if !isNull(d.InitializationOptions) {
		s.InitializationOptions = d.InitializationOptions
	}
	if !isNull(d.Settings) {
		s.Settings = d.Settings
	}
	var problems []string
	if s.Transport == "" {
		s.Transport = LSPStdio
	}
	if s.Transport != LSPStdio {
		problems = append(problems, fmt.Sprintf("transport %q is not supported (stdio is)", d.Transport))
	}
	if strings.TrimSpace(d.Command) == "" {
		problems = append(problems, "no command to run")
	}
	langs, err := nameValues(d.ExtensionToLanguage)
	switch {
	case err != nil:
		problems = append(problems, "extensionToLanguage "+err.Error())
	case len(langs) == 0:
		problems = append(problems, "no extensionToLanguage: it covers no file")
	}
	s.ExtensionToLanguage = langs
	if s.Env, err = nameValues(d.Env); err != nil {
		problems = append(problems, "env "+err.Error())
	}
	ms := func(v *float64, field string) int {
		if v == nil {
			return 0
		}
		if *v < 0 || *v > 24*3600*1000 {
			l.note("LSP server %q: %s %v ignored (milliseconds, 0 to one day)", name, field, *v)
			return 0
		}
		return int(*v)
	}
	s.StartupTimeoutMS, s.ShutdownTimeoutMS = ms(d.StartupTimeout, "startupTimeout"), ms(d.ShutdownTimeout, "shutdownTimeout")
	if d.RestartOnCrash != nil {
		s.RestartOnCrash = *d.RestartOnCrash
	}
	if d.MaxRestarts != nil && *d.MaxRestarts >= 0 && *d.MaxRestarts <= 1000 {
		s.MaxRestarts = int(*d.MaxRestarts)
	}
	if len(problems) == 0 || s.Command != "" {
		m := s.AsMCP()
		if s.Command != "" {
			problems = append(problems, l.checkMCPCommand(&m)...)
		}
		problems = append(problems, l.checkMCPVariables(&m)...)
		s.Command, s.Args, s.Files, s.UserEnv = m.Command, m.Args, m.Files, m.UserEnv
	}
	if len(problems) > 0 {
		s.Inactive = strings.Join(slices.Compact(problems), "; ")
		l.note("LSP server %q (%s): %s; it will not start", name, where, s.Inactive)
	}
	return s, true
}
