package extensions

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// MCP server states, as the card and `ext show --json` name them; the
// server host (extensions/servers) reports the live ones.
const (
	MCPNotStarted  = "not_started"
	MCPStarting    = "starting"
	MCPReady       = "ready"
	MCPFailed      = "failed"
	MCPNeedsSignIn = "needs_sign_in"
	MCPInactive    = "inactive" // the declaration cannot run (placeholder URL, missing file…)
)

// MCPServer is one declared MCP server as the pane, the trust prompt and
// `ext show --json` present it. What it runs or reaches is shown with its
// variables unexpanded; Env and Headers are names only (values may be
// secrets), UserEnv the variables of the user's environment it reads.
type MCPServer struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Source  string   `json:"source"`
	Argv    []string `json:"argv,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	URL     string   `json:"url,omitempty"`
	Env     []string `json:"env,omitempty"`
	Headers []string `json:"headers,omitempty"`
	UserEnv []string `json:"user_env,omitempty"`
	// Withheld are the UserEnv names AgentDesk reads its own secrets
	// from (AGENTDESK_*, the provider's key variable): they reach the
	// server empty.
	Withheld []string `json:"withheld,omitempty"`
	OAuth    bool     `json:"oauth,omitempty"`
	SignedIn bool     `json:"signed_in,omitempty"` // an OAuth sign-in is kept for it
	Inactive string   `json:"inactive,omitempty"`
	// State: not_started, starting, ready, failed, needs_sign_in or
	// inactive; Tools are the tool names of a ready server.
	State  string   `json:"state"`
	Tools  []string `json:"tools,omitempty"`
	Error  string   `json:"error,omitempty"`
	Stderr string   `json:"stderr,omitempty"`
	Pid    int      `json:"pid,omitempty"`
	// ToolPrefix is how the model sees its tools named when another
	// enabled server's Claude Code names are spelled alike (SameNameAs,
	// "victim_srv › x"): both then get a short suffix. Empty otherwise.
	ToolPrefix string   `json:"tool_prefix,omitempty"`
	SameNameAs []string `json:"same_name_as,omitempty"`
	// KnownTools are the tool names it listed since it was trusted (its
	// pins), so a card can switch them while it is not running; ToolsOff
	// are those the user switched off (never offered to the model).
	KnownTools []string `json:"known_tools,omitempty"`
	ToolsOff   []string `json:"tools_off,omitempty"`
}

// CollisionText says why the server's tools carry a suffix; "" when
// they do not.
func (s MCPServer) CollisionText() string {
	if len(s.SameNameAs) == 0 {
		return ""
	}
	return fmt.Sprintf("its tool names are spelled like those of %s; to keep them apart its tools are named %s…",
		strings.Join(s.SameNameAs, ", "), s.ToolPrefix)
}

// Target is what the server runs (argv) or reaches (URL), for one line.
func (s MCPServer) Target() string {
	if s.Type == manifest.MCPStdio {
		return Hook{Argv: s.Argv}.ArgvText()
	}
	if s.URL == "" {
		return s.Type + " (no URL)"
	}
	return s.Type + " " + s.URL
}

// EnvText lists the environment names it receives and the user variables
// it reads, for the trust prompt.
func (s MCPServer) EnvText() string {
	var parts []string
	if s.Cwd != "" {
		parts = append(parts, "runs in "+cwdText(s.Cwd))
	}
	if len(s.Env) > 0 {
		parts = append(parts, "env "+strings.Join(s.Env, ", "))
	}
	if len(s.Headers) > 0 {
		parts = append(parts, "headers "+strings.Join(s.Headers, ", "))
	}
	var reads, creds []string
	for _, name := range s.UserEnv {
		switch {
		case slices.Contains(s.Withheld, name):
		case secretName(name):
			creds = append(creds, name)
		default:
			reads = append(reads, name)
		}
	}
	if len(reads) > 0 {
		parts = append(parts, "reads "+strings.Join(reads, ", ")+" from your environment")
	}
	for _, name := range creds {
		parts = append(parts, "gives this server your "+name+" credential")
	}
	if len(s.Withheld) > 0 {
		parts = append(parts, "asks for "+strings.Join(s.Withheld, ", ")+", AgentDesk's own credential: never given, it gets an empty value")
	}
	if s.OAuth {
		parts = append(parts, "OAuth sign-in")
	}
	return strings.Join(parts, "; ")
}

// StateText is the state for people: "ready, 3 tools".
func (s MCPServer) StateText() string {
	switch s.State {
	case MCPReady:
		return "ready, " + strconv.Itoa(len(s.Tools)) + " tools"
	case MCPNotStarted:
		return "not started (starts with the first prompt)"
	case MCPNeedsSignIn:
		return "needs sign-in"
	case MCPInactive:
		return "will not start: " + s.Inactive
	case MCPFailed:
		return "failed: " + s.Error
	}
	return strings.ReplaceAll(s.State, "_", " ")
}

// AppSecretVar reports whether AgentDesk reads its own secrets from the
// environment variable name (AGENTDESK_API_KEY and the rest of
// AGENTDESK_*): no manifest variable of that name ever expands to its
// value. The provider's key variable is added by the host's config.
func AppSecretVar(name string) bool {
	return strings.HasPrefix(strings.ToUpper(name), "AGENTDESK_")
}

func mcpServerInfo(s manifest.MCPServer) MCPServer {
	out := MCPServer{Name: s.Name, Type: s.Type, Source: s.Source, Argv: s.Argv(), Cwd: s.Cwd, URL: s.URL,
		UserEnv: s.UserEnv, OAuth: s.OAuth, Inactive: s.Inactive, State: MCPNotStarted}
	for _, name := range s.UserEnv {
		if AppSecretVar(name) {
			out.Withheld = append(out.Withheld, name)
		}
	}
	for _, nv := range s.Env {
		out.Env = append(out.Env, nv.Name)
	}
	for _, nv := range s.Headers {
		out.Headers = append(out.Headers, nv.Name)
	}
	if s.Inactive != "" {
		out.State = MCPInactive
	}
	return out
}

// addSignIns marks the remote servers whose sign-in is kept. What each
// server is doing now (its state, tools, stderr) is the server host's to
// tell: extensions/servers fills it in for the views that show it.
func (m *Manager) addSignIns(info *Info) {
	for i, s := range info.MCPServers {
		info.MCPServers[i].SignedIn = s.Type != manifest.MCPStdio && m.MCPCredentials(info.ID, s.Name) != nil
	}
}
