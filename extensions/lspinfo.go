package extensions

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// LSP server states, as the host reports them.
const (
	LSPNotStarted = "not_started"
	LSPInactive   = "inactive"
)

// LSPServer is one language server as views show it: what it runs, the
// files it covers, and (filled by the host that runs it) its state.
type LSPServer struct {
	Name      string   `json:"name"`
	Source    string   `json:"source"`
	Transport string   `json:"transport"`
	Argv      []string `json:"argv,omitempty"`
	// Extensions are the file extensions it covers, with their language:
	// ".go=go".
	Extensions      []string `json:"extensions,omitempty"`
	Env             []string `json:"env,omitempty"`
	UserEnv         []string `json:"user_env,omitempty"`
	WorkspaceFolder string   `json:"workspace_folder,omitempty"`
	Inactive        string   `json:"inactive,omitempty"`
	State           string   `json:"state"`
	Restarts        int      `json:"restarts,omitempty"`
	Pid             int      `json:"pid,omitempty"`
	// Busy is the work a ready server reports under way ("Loading
	// packages"): it is indexing.
	Busy   string `json:"busy,omitempty"`
	Error  string `json:"error,omitempty"`
	Stderr string `json:"stderr,omitempty"`
}

func lspServerInfo(s manifest.LSPServer) LSPServer {
	out := LSPServer{Name: s.Name, Source: s.Source, Transport: s.Transport, Argv: s.Argv(), UserEnv: s.UserEnv,
		WorkspaceFolder: s.WorkspaceFolder, Inactive: s.Inactive, State: LSPNotStarted}
	for _, nv := range s.ExtensionToLanguage {
		out.Extensions = append(out.Extensions, nv.Name+"="+nv.Value)
	}
	for _, nv := range s.Env {
		out.Env = append(out.Env, nv.Name)
	}
	if s.Inactive != "" {
		out.State = LSPInactive
	}
	return out
}

// Target is the program and arguments, for one line.
func (s LSPServer) Target() string { return Hook{Argv: s.Argv}.ArgvText() }

// CoversText names the files it covers and the environment it gets, for
// the trust prompt.
func (s LSPServer) CoversText() string {
	parts := []string{"files " + strings.Join(s.Extensions, ", ")}
	if len(s.Env) > 0 {
		parts = append(parts, "env "+strings.Join(s.Env, ", "))
	}
	if len(s.UserEnv) > 0 {
		parts = append(parts, "reads your "+strings.Join(s.UserEnv, ", "))
	}
	return strings.Join(parts, "; ")
}

// StateText is the state in words.
func (s LSPServer) StateText() string {
	switch s.State {
	case LSPInactive:
		return "will not start: " + s.Inactive
	case LSPNotStarted, "":
		return "not started (starts with the first covered file)"
	case MCPReady:
		text := "ready"
		if s.Pid > 0 {
			text += fmt.Sprintf(" (pid %d)", s.Pid)
		}
		if s.Busy != "" {
			text += ", indexing: " + s.Busy
		}
		return text
	case MCPFailed:
		if s.Error != "" {
			return "failed: " + s.Error
		}
	}
	return strings.ReplaceAll(s.State, "_", " ")
}

// runnableLSP are the language servers that would start once enabled.
func runnableLSP(pkg *manifest.Package) []manifest.LSPServer {
	var out []manifest.LSPServer
	for _, s := range pkg.LSPServers {
		if s.Inactive == "" {
			out = append(out, s)
		}
	}
	return out
}

func safeLSPServers(servers []LSPServer) []LSPServer {
	out := make([]LSPServer, len(servers))
	for k, sv := range servers {
		sv.Name, sv.Source, sv.Inactive, sv.Error, sv.Stderr = safetext.Strip(sv.Name), safetext.Strip(sv.Source),
			safetext.Strip(sv.Inactive), safetext.Strip(sv.Error), safetext.Strip(sv.Stderr)
		sv.Argv, sv.Extensions = mapStrings(sv.Argv, safetext.Visible), mapStrings(sv.Extensions, safetext.Visible)
		sv.Env, sv.UserEnv = mapStrings(sv.Env, safetext.Visible), mapStrings(sv.UserEnv, safetext.Visible)
		sv.WorkspaceFolder = safetext.Visible(sv.WorkspaceFolder)
		sv.Transport, sv.State, sv.Busy = safetext.Strip(sv.Transport), safetext.Strip(sv.State), safetext.Strip(sv.Busy)
		out[k] = sv
	}
	return out
}
