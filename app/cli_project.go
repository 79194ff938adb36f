package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// openProject makes dir the project the extension "project" serves and
// says once on stderr when its settings wait for trust.
func (c *core) openProject(ctx context.Context, dir string, stderr io.Writer) {
	f, err := c.projects.Open(ctx, dir)
	if err != nil {
		fmt.Fprintln(stderr, "agentdesk: warning:", safetext.Strip(err.Error()))
		return
	}
	if f.Waits() {
		fmt.Fprintf(stderr, "agentdesk: this folder's Claude Code settings (%s) %s; nothing of them runs until you trust the folder: agentdesk project trust %s\n",
			f.Summary(), waitWord(f), shellQuote(f.Dir))
	}
}

func waitWord(f project.Folder) string {
	if f.Status == project.StatusChanged {
		return "changed since you trusted them"
	}
	return "are not trusted"
}

func shellQuote(s string) string {
	if strings.ContainsAny(s, " '\"$\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

func cmdProject(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, "agentdesk project: expected a subcommand: show, trust, untrust, review\n")
		return 2
	}
	ctx, stop := notifyShutdown(context.Background())
	defer stop()
	var bools []string
	switch args[0] {
	case "show":
		bools = []string{"json"}
	case "trust", "review":
		bools = []string{"yes"}
	case "untrust":
	default:
		fmt.Fprintf(stderr, "agentdesk: unknown project subcommand %q\n", args[0])
		return 2
	}
	a, err := parseArgs(args[1:], nil, bools)
	if err != nil {
		return fail(stderr, err)
	}
	dir := "."
	switch len(a.pos) {
	case 0:
	case 1:
		dir = a.pos[0]
	default:
		return fail(stderr, errors.New("project: expected at most one folder"))
	}
	open := openCore
	if args[0] == "show" {
		open = func(ctx context.Context) (*core, error) { return openReadOnlyCore(ctx, stderr) }
	}
	c, err := open(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	defer c.close()
	p := projectCLI{c: c, in: bufio.NewReader(stdin), out: stdout}
	switch args[0] {
	case "show":
		err = p.show(ctx, dir, a.bools["json"])
	case "trust":
		err = p.trust(ctx, dir, a.bools["yes"])
	case "review":
		err = p.review(ctx, dir, a.bools["yes"])
	default:
		err = p.untrust(ctx, dir)
	}
	if err != nil {
		return fail(stderr, err)
	}
	return 0
}

type projectCLI struct {
	c   *core
	in  *bufio.Reader
	out io.Writer
}

// projectJSON is `project show --json` (stable, snake_case).
type projectJSON struct {
	Dir          string           `json:"dir"`
	Trusted      bool             `json:"trusted"`
	Status       string           `json:"status"`
	Reason       string           `json:"reason,omitempty"`
	Instructions []string         `json:"instructions"`
	Hooks        []hookJSON       `json:"hooks"`
	MCPServers   []serverJSON     `json:"mcp_servers"`
	Commands     []string         `json:"commands"`
	Agents       []string         `json:"agents"`
	OutputStyles []string         `json:"output_styles"`
	Skills       []string         `json:"skills"`
	Permissions  []permissionJSON `json:"permissions"`
	Env          []string         `json:"env"`
	// EnvWithheld are env names that look like credentials: they never
	// reach commands, hooks or servers.
	EnvWithheld []string `json:"env_withheld,omitempty"`
	// AdditionalDirectories are the folders the file tools may read and
	// change (with approval) beside the project once it is trusted.
	AdditionalDirectories []string `json:"additional_directories"`
	// DefaultMode is shown only: AgentDesk's own approval setting decides.
	DefaultMode string `json:"default_mode,omitempty"`
	// RecentRuns are its hooks\' newest runs, newest first.
	RecentRuns []extensions.Run `json:"recent_runs"`
	// EnabledPlugins are what its settings' enabledPlugins ask for;
	// ProposedExtensions the installed ones not enabled here yet.
	EnabledPlugins     []string      `json:"enabled_plugins"`
	ProposedExtensions []string      `json:"proposed_extensions"`
	Diagnostics        []string      `json:"diagnostics"`
	Changed            *project.Diff `json:"changed,omitempty"`
	// PendingTools are its servers' MCP tools withheld since they changed
	// after their first listing (agentdesk project review).
	PendingTools []extensions.PendingTool `json:"pending_tools"`
}

type hookJSON struct {
	Event    string   `json:"event"`
	Matcher  string   `json:"matcher"`
	Argv     []string `json:"argv"`
	TimeoutS int      `json:"timeout_s"`
	Inactive string   `json:"inactive,omitempty"`
}

type serverJSON struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Argv     []string `json:"argv,omitempty"`
	URL      string   `json:"url,omitempty"`
	EnvNames []string `json:"env_names,omitempty"`
	Tools    string   `json:"tools"` // the prefix of its tools' names
	Inactive string   `json:"inactive,omitempty"`
}

type permissionJSON struct {
	Behavior string `json:"behavior"`
	Rule     string `json:"rule"`
	Source   string `json:"source"`
	Applies  bool   `json:"applies"`
}

func (p projectCLI) show(ctx context.Context, dir string, asJSON bool) error {
	f, err := p.c.projects.Folder(ctx, dir)
	if err != nil {
		return err
	}
	v := p.describe(f)
	v.EnabledPlugins, v.ProposedExtensions = project.EnabledPlugins(f.Dir), []string{}
	if v.EnabledPlugins == nil {
		v.EnabledPlugins = []string{}
	}
	if prop, err := p.c.projects.Propose(ctx, f); err == nil {
		for _, x := range prop.Extensions {
			v.ProposedExtensions = append(v.ProposedExtensions, x.ID)
		}
	}
	if !asJSON {
		defer p.printProposal(ctx, f)
	}
	v.PendingTools = []extensions.PendingTool{}
	if p.c.exts != nil {
		if runs, err := p.c.exts.ProjectHookRuns(ctx, f.Dir); err == nil && runs != nil {
			v.RecentRuns = runs
		}
		if pending, err := p.c.exts.PendingTools(ctx, extensions.PinOwner(manifest.ProjectID, f.Dir)); err == nil && pending != nil {
			v.PendingTools = (extensions.Info{PendingTools: pending}).ForDisplay().PendingTools
		}
	}
	if asJSON {
		enc := json.NewEncoder(p.out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	p.print(v)
	return nil
}

func (p projectCLI) describe(f project.Folder) projectJSON {
	v := projectJSON{Dir: f.Dir, Trusted: f.Runs(), Status: string(f.Status), Reason: f.Reason,
		Instructions: []string{}, Hooks: []hookJSON{}, MCPServers: []serverJSON{}, Commands: []string{}, Agents: []string{}, OutputStyles: []string{},
		Skills: []string{}, Permissions: []permissionJSON{}, Env: f.Settings.EnvNames(), Diagnostics: append(f.Pkg.Diagnostics, f.Settings.Diagnostics...)}
	for _, name := range []string{"CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", "AGENTS.md"} {
		if fileExists(f.Dir, name) {
			v.Instructions = append(v.Instructions, name)
		}
	}
	for _, h := range f.Pkg.Hooks {
		v.Hooks = append(v.Hooks, hookJSON{Event: h.Event, Matcher: h.Matcher, Argv: h.Argv, TimeoutS: h.Timeout, Inactive: h.Inactive})
	}
	for _, s := range f.Pkg.MCPServers {
		sj := serverJSON{Name: s.Name, Type: s.Type, Argv: s.Argv(), URL: s.URL, Tools: manifest.MCPToolPrefix(manifest.ProjectID, s.Name) + "*", Inactive: s.Inactive}
		for _, e := range s.Env {
			sj.EnvNames = append(sj.EnvNames, e.Name)
		}
		v.MCPServers = append(v.MCPServers, sj)
	}
	for _, c := range f.Pkg.Commands {
		v.Commands = append(v.Commands, "/"+c.Name)
	}
	for _, a := range f.Pkg.Agents {
		v.Agents = append(v.Agents, a.Name)
	}
	for _, st := range f.Pkg.OutputStyles {
		v.OutputStyles = append(v.OutputStyles, st.Name)
	}
	for _, s := range f.Pkg.Skills {
		v.Skills = append(v.Skills, s.Name)
	}
	for _, r := range f.Settings.Rules {
		v.Permissions = append(v.Permissions, permissionJSON{Behavior: string(r.Behavior), Rule: r.Text, Source: string(r.Source),
			Applies: r.Behavior == "deny" || f.Runs()})
	}
	if d := f.Diff(); f.Status == project.StatusChanged && !d.Empty() {
		v.Changed = &d
	}
	if v.Env == nil {
		v.Env = []string{}
	}
	_, v.EnvWithheld = f.Settings.Environ()
	home, _ := os.UserHomeDir()
	v.AdditionalDirectories = f.Settings.Directories(f.Dir, home)
	if v.AdditionalDirectories == nil {
		v.AdditionalDirectories = []string{}
	}
	v.DefaultMode = f.Settings.DefaultMode
	v.RecentRuns = []extensions.Run{}
	if v.Diagnostics == nil {
		v.Diagnostics = []string{}
	}
	return v
}

func (p projectCLI) print(v projectJSON) {
	w := p.out
	fmt.Fprintf(w, "%s: %s\n", safetext.Strip(v.Dir), v.Status)
	if v.Reason != "" {
		fmt.Fprintf(w, "  waits for trust: %s\n", safetext.Strip(v.Reason))
	}
	list := func(label string, items []string) {
		if len(items) > 0 {
			fmt.Fprintf(w, "%s: %s\n", label, safetext.Strip(strings.Join(items, ", ")))
		}
	}
	list("instructions (always read)", v.Instructions)
	for _, h := range v.Hooks {
		line := fmt.Sprintf("hook %s", h.Event)
		if h.Matcher != "" {
			line += " [" + h.Matcher + "]"
		}
		line += ": " + strings.Join(h.Argv, " ")
		if h.Inactive != "" {
			line += " (inactive: " + h.Inactive + ")"
		}
		fmt.Fprintln(w, safetext.Strip(line))
	}
	for _, s := range v.MCPServers {
		what := s.URL
		if len(s.Argv) > 0 {
			what = strings.Join(s.Argv, " ")
		}
		line := fmt.Sprintf("MCP server %s: %s %s (tools %s)", s.Name, s.Type, what, s.Tools)
		if len(s.EnvNames) > 0 {
			line += ", env " + strings.Join(s.EnvNames, " ")
		}
		if s.Inactive != "" {
			line += " (inactive: " + s.Inactive + ")"
		}
		fmt.Fprintln(w, safetext.Strip(line))
	}
	list("commands", v.Commands)
	list("agents", v.Agents)
	list("output styles", v.OutputStyles)
	list("skills", v.Skills)
	for _, r := range v.Permissions {
		state := "applies"
		if !r.Applies {
			state = "waits for trust"
		}
		fmt.Fprintf(w, "%s %s (%s, %s)\n", r.Behavior, safetext.Strip(r.Rule), r.Source, state)
	}
	list("env", v.Env)
	list("env withheld (names of credentials: they never reach commands, hooks or servers)", v.EnvWithheld)
	list("additional directories (the file tools may read and change them, with approval)", v.AdditionalDirectories)
	if v.DefaultMode != "" {
		fmt.Fprintf(w, "defaultMode %s: shown only; your approval setting in AgentDesk decides\n", safetext.Strip(v.DefaultMode))
	}
	for _, r := range v.RecentRuns {
		line := fmt.Sprintf("ran %s %s: exit %d, %d ms", r.Time.Format("Jan 2 15:04:05"), r.Event, r.Exit, r.DurationMS)
		if r.Error != "" {
			line += ", " + r.Error
		}
		fmt.Fprintln(w, safetext.Strip(line))
	}
	if n := len(v.PendingTools); n > 0 {
		fmt.Fprintf(w, "%d MCP tools of its servers changed since they were first listed and are withheld: agentdesk project review %s\n", n, shellQuote(safetext.Strip(v.Dir)))
	}
	for _, d := range v.Diagnostics {
		fmt.Fprintln(w, "note:", safetext.Strip(d))
	}
}

func (p projectCLI) trust(ctx context.Context, dir string, yes bool) error {
	f, err := p.c.projects.Folder(ctx, dir)
	if err != nil {
		return err
	}
	if f.Status == project.StatusTrusted {
		fmt.Fprintf(p.out, "%s is already trusted\n", safetext.Strip(f.Dir))
		return nil
	}
	if !f.Declares() {
		fmt.Fprintf(p.out, "%s has no Claude Code settings that wait for trust\n", safetext.Strip(f.Dir))
		return nil
	}
	fmt.Fprintf(p.out, "Trusting %s lets its own settings run: %s. These commands run local code with your account's permissions:\n", safetext.Strip(f.Dir), f.Summary())
	p.print(p.describe(f))
	if d := f.Diff(); f.Trusted != nil && !d.Empty() {
		fmt.Fprint(p.out, safetext.Strip(d.Text()))
	}
	if !yes {
		fmt.Fprint(p.out, "Trust this folder? [y/N] ")
		answer, _ := p.in.ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return errors.New("not trusted")
		}
	}
	if err := p.c.projects.Trust(ctx, f); err != nil {
		return err
	}
	fmt.Fprintf(p.out, "trusted %s\n", safetext.Strip(f.Dir))
	if f, err = p.c.projects.Folder(ctx, f.Dir); err == nil {
		p.printProposal(ctx, f)
	}
	return nil
}

// printProposal says which plugins the folder's enabledPlugins ask for
// and how to enable them here; nothing is enabled without that command.
func (p projectCLI) printProposal(ctx context.Context, f project.Folder) {
	prop, err := p.c.projects.Propose(ctx, f)
	if err != nil || prop.Empty() {
		return
	}
	if len(prop.Extensions) > 0 {
		fmt.Fprintf(p.out, "This project asks for plugins %s. Enable them in this project:\n", safetext.Strip(strings.Join(prop.Names(), ", ")))
		for _, x := range prop.Extensions {
			fmt.Fprintf(p.out, "  agentdesk ext enable %s --project %s\n", safetext.Strip(x.ID), shellQuote(f.Dir))
		}
	}
	if len(prop.Missing) > 0 {
		fmt.Fprintf(p.out, "It also asks for plugins that are not installed: %s\n", safetext.Strip(strings.Join(prop.Missing, ", ")))
	}
}

// review prints the MCP tools of the folder's own servers withheld since
// they changed after the first listing (or appeared), as a diff, and
// accepts them: with --yes at once, otherwise when the user says so.
// Folder trust covers what runs (argv, URLs); these pins, kept per
// folder, cover what the servers tell the model.
func (p projectCLI) review(ctx context.Context, dir string, yes bool) error {
	f, err := p.c.projects.Folder(ctx, dir)
	if err != nil {
		return err
	}
	owner := extensions.PinOwner(manifest.ProjectID, f.Dir)
	pending, err := p.c.exts.PendingTools(ctx, owner)
	if err != nil {
		return err
	}
	where := safetext.Strip(f.Dir)
	if len(pending) == 0 {
		fmt.Fprintf(p.out, "%s: no MCP tools wait for review\n", where)
		return nil
	}
	fmt.Fprintf(p.out, "%s: %d MCP tools of its servers changed since they were first listed; they are withheld from the model until you accept them:\n",
		where, len(pending))
	for _, t := range (extensions.Info{PendingTools: pending}).ForDisplay().PendingTools {
		fmt.Fprint(p.out, t.DiffText())
	}
	if !yes {
		fmt.Fprint(p.out, "Accept these tools? [y/N] ")
		answer, _ := p.in.ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return errors.New("not accepted: the tools stay withheld")
		}
	}
	n, err := p.c.exts.AcceptTools(ctx, owner, pending)
	if err != nil {
		return err
	}
	fmt.Fprintf(p.out, "accepted %d tools of %s; they are offered from the next prompt on\n", n, where)
	if n < len(pending) {
		fmt.Fprintf(p.out, "%d changed again meanwhile and still wait: run agentdesk project review %s again\n", len(pending)-n, shellQuote(where))
	}
	return nil
}

func (p projectCLI) untrust(ctx context.Context, dir string) error {
	if err := p.c.projects.Untrust(ctx, dir); err != nil {
		return err
	}
	fmt.Fprintf(p.out, "untrusted %s: its hooks, MCP servers and allow rules wait for trust again\n", safetext.Strip(dir))
	return nil
}

func fileExists(dir, rel string) bool {
	info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil && info.Mode().IsRegular()
}
