package extensions

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// Status is what an extension is doing now.
type Status string

const (
	StatusDisabled    Status = "disabled"
	StatusEnabled     Status = "enabled"
	StatusNeedsReview Status = "needs_review"
	StatusError       Status = "error"
)

// recentRuns is how many hook runs Show reports.
const recentRuns = 10

// Info is one extension as the pane, `ext list` and `ext show` present
// it. The JSON field names are a stable interface.
type Info struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Version      string `json:"version"`
	Description  string `json:"description"`
	SourceURL    string `json:"source_url"`
	RequestedRef string `json:"requested_ref"`
	// Plugin is the marketplace entry installed (SourceURL is then the
	// marketplace), PluginSource where that entry points.
	Plugin         string `json:"plugin,omitempty"`
	PluginSource   string `json:"plugin_source,omitempty"`
	Commit         string `json:"commit"`
	PreviousCommit string `json:"previous_commit"`
	Enabled        bool   `json:"enabled"`
	// EnabledProjects are the canonical folders an enabled extension is
	// active in; empty: everywhere (ScopeText).
	EnabledProjects []string      `json:"enabled_projects"`
	Status          Status        `json:"status"`
	Hooks           []Hook        `json:"hooks"`
	Skills          []Skill       `json:"skills"`
	Commands        []Command     `json:"commands"`
	Agents          []Agent       `json:"agents"`
	OutputStyles    []OutputStyle `json:"output_styles"`
	MCPServers      []MCPServer   `json:"mcp_servers"`
	// PendingTools are the MCP tools withheld since they changed (or
	// appeared) after the user trusted the extension, until reviewed.
	PendingTools []PendingTool `json:"pending_tools"`
	LSPServers   []LSPServer   `json:"lsp_servers"`
	// Unconfined: its hooks and servers run without the sandbox, as the
	// user chose for what they trust of it now (Manager.SetUnconfined).
	Unconfined   bool     `json:"unconfined"`
	Diagnostics  []string `json:"diagnostics"`
	LastError    string   `json:"last_error"`
	ReviewReason string   `json:"review_reason,omitempty"`
	RecentRuns   []Run    `json:"recent_runs,omitempty"`
	// Options are the settings the plugin asks for (userConfig), sensitive
	// values masked.
	Options     []OptionValue `json:"options,omitempty"`
	Homepage    string        `json:"homepage,omitempty"`
	Author      string        `json:"author,omitempty"`
	License     string        `json:"license,omitempty"`
	InstalledAt time.Time     `json:"installed_at"`
	UpdatedAt   time.Time     `json:"updated_at"`
	Dir         string        `json:"dir"`
	DataDir     string        `json:"data_dir"`
	// Lingering are the process groups (by leader pid) that its hooks
	// left running in this AgentDesk process; they end when it is
	// disabled, uninstalled or updated, or the app quits. The dispatcher
	// fills it in (dispatch.Dispatcher.AddState), like MCP servers' state.
	Lingering []int `json:"lingering_pids,omitempty"`

	pkg *manifest.Package
}

// Hook is one declared hook command.
type Hook struct {
	Event    string   `json:"event"`
	Matcher  string   `json:"matcher"`
	If       string   `json:"if,omitempty"` // a tool event's condition, e.g. Bash(git push *)
	Argv     []string `json:"argv"`
	TimeoutS int      `json:"timeout_s"`
	// EffectiveS is the timeout that applies (the default for 0, capped at
	// 60 s); set in the trust prompt.
	EffectiveS int    `json:"effective_timeout_s,omitempty"`
	Inactive   string `json:"inactive,omitempty"`
	LastError  string `json:"last_error,omitempty"`
	// As the manifest wrote them; never run (see manifest.Hook).
	CommandWindows string `json:"command_windows,omitempty"`
	Shell          string `json:"shell,omitempty"`
	Key            string `json:"-"`
}

// NotUsedText tells, for the details, that the hook also declares a
// Windows command, which AgentDesk records without running; "" when not.
// (A "shell": "powershell" hook is inactive instead, with its reason.)
func (h Hook) NotUsedText() string {
	if h.CommandWindows == "" {
		return ""
	}
	return "Windows command declared, not used: this argv runs on every system"
}

// Skill is one skill the extension contributes.
type Skill struct {
	Name        string `json:"name"`
	Path        string `json:"path"`
	Description string `json:"description,omitempty"`
}

// Command is one slash command the extension contributes: /EXT:NAME, and
// /NAME when no other command or host command has that name.
type Command struct {
	Name         string   `json:"name"`
	Path         string   `json:"path"`
	Description  string   `json:"description,omitempty"`
	ArgumentHint string   `json:"argument_hint,omitempty"`
	AllowedTools []string `json:"allowed_tools,omitempty"` // shown only: approvals are never skipped
}

// Agent is one subagent type the extension contributes (ext show --json,
// the card). Tools are as written, in Claude Code's names.
type Agent struct {
	Name        string   `json:"name"`
	Path        string   `json:"path"`
	Description string   `json:"description"`
	Tools       []string `json:"tools,omitempty"` // absent: every tool a child may have
	Model       string   `json:"model,omitempty"`
	MaxTurns    int      `json:"max_turns,omitempty"`
	Color       string   `json:"color,omitempty"`
}

// Run is one recorded hook run.
type Run struct {
	Time       time.Time `json:"time"`
	Event      string    `json:"event"`
	Argv       []string  `json:"argv"`
	DurationMS int64     `json:"duration_ms"`
	Exit       int       `json:"exit"`
	BytesOut   int64     `json:"bytes_out"`
	Error      string    `json:"error,omitempty"`
}

// HasHooks reports whether enabling needs the trust confirmation.
func (i Info) HasHooks() bool { return i.pkg != nil && needsTrust(i.pkg) }

// Contents counts what the extension brings, for a card or a terminal
// line: its hooks always (what trust is about), then its MCP servers,
// skills, commands, agents and output styles when it has any ("3 hooks",
// "6 skills").
func (i Info) Contents() []string {
	return append([]string{counted(len(i.Hooks), "hook")}, i.counts(false, true)...)
}

// Active counts what enabling the extension turns on from the next
// prompt, only what it has ("2 hooks", "3 agents"); its MCP servers are
// not counted: they start on their own.
func (i Info) Active() []string { return i.counts(true, false) }

func (i Info) counts(hooks, mcp bool) []string {
	var out []string
	for _, c := range []struct {
		n    int
		what string
		show bool
	}{{len(i.Hooks), "hook", hooks}, {len(i.MCPServers), "MCP server", mcp}, {len(i.LSPServers), "LSP server", mcp}, {len(i.Skills), "skill", true},
		{len(i.Commands), "command", true}, {len(i.Agents), "agent", true}, {len(i.OutputStyles), "output style", true}} {
		if c.show && c.n > 0 {
			out = append(out, counted(c.n, c.what))
		}
	}
	return out
}

func counted(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// HasPrevious reports whether Rollback has somewhere to go.
func (i Info) HasPrevious() bool { return i.PreviousCommit != "" }

func statusOf(e storage.Extension, pkg *manifest.Package, hooksHash string, loadErr error) Status {
	switch {
	case loadErr != nil:
		return StatusError
	case e.ReviewReason != "":
		return StatusNeedsReview
	case !e.Enabled:
		return StatusDisabled
	case needsTrust(pkg) && e.TrustedHash != hooksHash:
		return StatusNeedsReview
	}
	return StatusEnabled
}

// load reads an extension's active version and renders its Info.
func (m *Manager) load(ctx context.Context, e storage.Extension, withRuns bool) Info {
	dir := m.store.versionDir(e.ID, e.ActiveCommit)
	info := Info{ID: e.ID, Name: e.ID, SourceURL: e.SourceURL, RequestedRef: e.RequestedRef, Commit: e.ActiveCommit,
		Plugin: e.Plugin, PluginSource: pluginSourceText(e.PluginSource),
		PreviousCommit: e.PreviousCommit, Enabled: e.Enabled, EnabledProjects: append([]string{}, e.Projects...), LastError: e.LastError, ReviewReason: e.ReviewReason,
		InstalledAt: e.InstalledAt, UpdatedAt: e.UpdatedAt, Dir: dir, DataDir: m.store.dataDir(e.ID),
		Hooks: []Hook{}, Skills: []Skill{}, Commands: []Command{}, Agents: []Agent{}, OutputStyles: []OutputStyle{}, MCPServers: []MCPServer{}, PendingTools: []PendingTool{}, LSPServers: []LSPServer{}, Diagnostics: []string{}}
	pkg, hash, err := m.version(ctx, e.ID, e.ActiveCommit)
	if err == nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			err = statErr
		}
	}
	info.Status = statusOf(e, pkg, hash, err)
	if err != nil {
		info.LastError = "the installed files are missing or unreadable (" + err.Error() + "): uninstall and install it again"
		return info
	}
	info.fill(pkg)
	if err := m.store.checkWritable(e.ID); err != nil {
		info.Diagnostics = append(info.Diagnostics, err.Error())
	}
	info.Options = m.optionValues(ctx, e.ID, pkg)
	info.Unconfined = info.Status == StatusEnabled && m.unconfined(ctx, e)
	if _, _, missing := m.hookOptions(ctx, e.ID, pkg); len(missing) > 0 && info.Status == StatusEnabled {
		info.Status, info.LastError = StatusError, missingOptionsText(e.ID, missing)
	}
	m.addHookState(ctx, &info, withRuns)
	m.addSignIns(&info)
	m.addToolSwitches(ctx, &info)
	info.PendingTools, _ = m.PendingTools(ctx, e.ID)
	if info.PendingTools == nil {
		info.PendingTools = []PendingTool{}
	}
	return info
}

func (i *Info) fill(pkg *manifest.Package) {
	i.pkg = pkg
	mf := pkg.Manifest
	i.Name, i.Version, i.Description = displayName(mf), mf.Version, mf.Description
	if mf.ShortDescription != "" && i.Description == "" {
		i.Description = mf.ShortDescription
	}
	i.Homepage, i.Author, i.License = mf.Homepage, mf.Author.Name, mf.License
	for _, h := range pkg.Hooks {
		i.Hooks = append(i.Hooks, Hook{Event: h.Event, Matcher: h.Matcher, If: h.If, Argv: h.Argv, TimeoutS: h.Timeout, Inactive: h.Inactive,
			CommandWindows: h.CommandWindows, Shell: h.Shell, Key: h.Key()})
	}
	for _, s := range pkg.Skills {
		i.Skills = append(i.Skills, Skill{Name: s.Name, Path: s.Dir, Description: s.Description})
	}
	i.Commands = append(i.Commands, commandsOf(pkg)...)
	i.Agents = append(i.Agents, agentsOf(pkg)...)
	i.OutputStyles = append(i.OutputStyles, stylesOf(pkg)...)
	for _, s := range pkg.MCPServers {
		i.MCPServers = append(i.MCPServers, mcpServerInfo(s))
	}
	for _, s := range pkg.LSPServers {
		i.LSPServers = append(i.LSPServers, lspServerInfo(s))
	}
	i.Diagnostics = append(i.Diagnostics, pkg.Diagnostics...)
}

func (m *Manager) addHookState(ctx context.Context, info *Info, withRuns bool) {
	m.runs.flush()
	errs, err := m.db.HookErrors(ctx, info.ID)
	if err == nil {
		for i := range info.Hooks {
			info.Hooks[i].LastError = errs[info.Hooks[i].Key]
			if info.LastError == "" {
				info.LastError = errs[info.Hooks[i].Key]
			}
		}
	}
	if !withRuns {
		return
	}
	runs, err := m.db.HookRuns(ctx, info.ID, recentRuns)
	if err != nil {
		return
	}
	info.RecentRuns = runsOf(runs)
}

// ProjectHookRuns are the newest runs of the project folder dir's own
// hooks (dir canonical, as project trust keeps it), newest first.
func (m *Manager) ProjectHookRuns(ctx context.Context, dir string) ([]Run, error) {
	m.runs.flush()
	runs, err := m.db.ProjectHookRuns(ctx, dir, recentRuns)
	if err != nil {
		return nil, err
	}
	return runsOf(runs), nil
}

func runsOf(runs []storage.HookRun) []Run {
	var out []Run
	for _, r := range runs {
		out = append(out, Run{Time: r.StartedAt, Event: r.Event, Argv: r.Argv,
			DurationMS: r.Duration.Milliseconds(), Exit: r.ExitCode, BytesOut: r.BytesOut, Error: r.Error})
	}
	return out
}

// ArgvText shows the argv unambiguously: arguments with spaces or quotes
// are quoted.
func (h Hook) ArgvText() string {
	parts := make([]string, len(h.Argv))
	for i, a := range h.Argv {
		if a == "" || strings.ContainsAny(a, " \t\"'\\") {
			a = strconv.Quote(a)
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

// MatcherText is the matcher as shown: "all" when it matches everything.
func (h Hook) MatcherText() string {
	m := h.Matcher
	if m == "" || m == "*" {
		m = "all"
	}
	if h.If != "" {
		m += " if " + h.If
	}
	return m
}

// TimeoutText is the timeout as shown: the one that applies where it is
// known, with where it comes from.
func (h Hook) TimeoutText() string {
	switch {
	case h.EffectiveS == 0 && h.TimeoutS == 0:
		return "default"
	case h.EffectiveS == 0:
		return strconv.Itoa(h.TimeoutS) + "s"
	case h.TimeoutS == 0:
		return strconv.Itoa(h.EffectiveS) + "s, the default"
	case h.TimeoutS > h.EffectiveS:
		return fmt.Sprintf("%ds; it asks for %ds, the most is %ds", h.EffectiveS, h.TimeoutS, h.EffectiveS)
	}
	return strconv.Itoa(h.EffectiveS) + "s"
}

// ShortCommit abbreviates a commit for display.
func ShortCommit(c string) string { return short(c) }

// pluginSourceText shows a recorded marketplace source.
func pluginSourceText(record string) string {
	if src, ok := decodeSource(record); ok {
		return src.String()
	}
	return ""
}
