package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// extCLI runs one `agentdesk ext` subcommand through the same Manager the
// Preferences pane uses.
type extCLI struct {
	m *extensions.Manager
	// catalog is the skills catalog (user skills, then enabled
	// extensions), for name conflicts.
	catalog func() skills.Catalog
	in      *bufio.Reader
	out     io.Writer
	errOut  io.Writer

	// commands are the enabled extensions' slash commands, for conflicts.
	commands func() lifecycle.CommandSet
}

// readOnlyExt are the ext subcommands that only show: they go on without
// a log file.
var readOnlyExt = map[string]bool{"list": true, "show": true, "check": true}

func cmdExt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, "agentdesk ext: expected a subcommand: install, list, show, enable, disable, tool, check, update, rollback, uninstall, review, sandbox\n")
		return 2
	}
	ctx, stop := notifyShutdown(context.Background())
	defer stop()
	open := openCore
	if readOnlyExt[args[0]] {
		open = func(ctx context.Context) (*core, error) { return openReadOnlyCore(ctx, stderr) }
	}
	c, err := open(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	defer c.close()
	x := &extCLI{m: c.exts, in: bufio.NewReader(stdin), out: stdout, errOut: stderr,
		catalog:  func() skills.Catalog { return c.newAgent(nil, nil, nil).Catalog("") },
		commands: func() lifecycle.CommandSet { return c.newAgent(nil, nil, nil).Commands() }}
	if err := x.dispatch(ctx, args[0], args[1:]); err != nil {
		var usage usageError
		if errors.As(err, &usage) {
			fmt.Fprintln(stderr, "agentdesk:", safetext.Strip(err.Error()))
			return 2
		}
		return fail(stderr, err)
	}
	return 0
}

// usageError ends a command with exit status 2: the command line must
// say more (e.g. which plugins of a marketplace to install).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func (x *extCLI) dispatch(ctx context.Context, sub string, rest []string) error {
	cmds := map[string]struct {
		valued, bools []string
		run           func(context.Context, cmdArgs) error
	}{
		"install":   {[]string{"ref", "plugin"}, nil, x.install},
		"list":      {nil, []string{"json"}, x.list},
		"show":      {nil, []string{"json"}, x.show},
		"enable":    {[]string{"config", "project"}, []string{"yes"}, x.enable},
		"disable":   {[]string{"project"}, nil, x.disable},
		"tool":      {nil, nil, x.tool},
		"check":     {nil, []string{"json"}, x.check},
		"update":    {[]string{"ref"}, []string{"yes"}, x.update},
		"rollback":  {nil, nil, x.rollback},
		"uninstall": {nil, []string{"yes"}, x.uninstall},
		"review":    {nil, []string{"yes"}, x.review},
		"sandbox":   {nil, []string{"yes"}, x.sandbox},
	}
	cmd, ok := cmds[sub]
	if !ok {
		return fmt.Errorf("unknown ext subcommand %q", sub)
	}
	a, err := parseArgs(rest, cmd.valued, cmd.bools)
	if err != nil {
		return err
	}
	return cmd.run(ctx, a)
}

func (x *extCLI) progress(p extensions.Progress) {
	if !isTerminal(x.errOut) {
		return
	}
	if p.TotalObjects > 0 {
		fmt.Fprintf(x.errOut, "\r%-11s %d/%d objects, %d KiB", p.Phase, p.Objects, p.TotalObjects, p.Bytes>>10)
		return
	}
	fmt.Fprintf(x.errOut, "\r%-11s %d KiB%20s", p.Phase, p.Bytes>>10, "")
}

func (x *extCLI) install(ctx context.Context, a cmdArgs) error {
	url, err := a.one("URL")
	if err != nil {
		return err
	}
	plugins := a.all["plugin"]
	if len(plugins) > 0 {
		return x.installPlugins(ctx, url, a.vals["ref"], plugins)
	}
	return x.installOne(ctx, extensions.Source{URL: url, Ref: a.vals["ref"]})
}

func (x *extCLI) installOne(ctx context.Context, src extensions.Source) error {
	info, err := x.m.InstallFrom(ctx, src, x.progress)
	x.endProgress()
	var mkt *extensions.MarketplaceError
	if errors.As(err, &mkt) {
		x.printMarketplace(mkt)
		return usageError{fmt.Sprintf("%s is a marketplace: name the plugins to install with --plugin NAME (repeatable)", src.URL)}
	}
	if err != nil {
		return err
	}
	x.printInstalled(info)
	return nil
}

// installPlugins installs the picked plugins of a marketplace from one
// download, one line (or block) per plugin as each ends, then a summary
// when there are several; any failure makes the exit status 1.
func (x *extCLI) installPlugins(ctx context.Context, url, ref string, plugins []string) error {
	results, err := x.m.InstallPlugins(ctx, url, ref, plugins, x.progress, func(r extensions.PluginResult) {
		x.endProgress()
		if r.Err != nil {
			if len(plugins) > 1 { // one plugin's failure is the command's error
				fmt.Fprintf(x.out, "failed %s: %s\n", safetext.Strip(r.Plugin), safetext.Strip(r.Err.Error()))
			}
			return
		}
		x.printInstalled(r.Info)
	})
	x.endProgress()
	if err != nil {
		return err
	}
	summary := extensions.InstallSummary(results)
	if len(results) > 1 {
		fmt.Fprintln(x.out, summary)
	}
	for _, r := range results {
		if r.Err != nil {
			if len(results) == 1 {
				return r.Err
			}
			return errors.New(summary)
		}
	}
	return nil
}

func (x *extCLI) printInstalled(info extensions.Info) {
	info = info.ForDisplay()
	fmt.Fprintf(x.out, "installed %s %s at %s (disabled)\n", info.ID, orDash(info.Version), info.Commit)
	for _, sv := range info.MCPServers {
		fmt.Fprintf(x.out, "  mcp server %s: %s — %s\n", sv.Name, sv.Target(), sv.StateText())
	}
	x.printDiagnostics(info)
	fmt.Fprintf(x.out, "review and enable it with: agentdesk ext enable %s\n", info.ID)
}

// printMarketplace lists a marketplace's plugins, as the pane does.
func (x *extCLI) printMarketplace(e *extensions.MarketplaceError) {
	w := tabwriter.NewWriter(x.out, 2, 4, 2, ' ', 0)
	fmt.Fprintf(w, "PLUGIN\tVERSION\tDESCRIPTION\n")
	for _, p := range e.Marketplace.Plugins {
		desc := p.Description
		if p.Unsupported != "" {
			desc = "(cannot be installed: " + p.Unsupported + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", safetext.Strip(p.Name), orDash(safetext.Strip(p.Version)), firstLine(safetext.Strip(desc)))
	}
	w.Flush()
}

func (x *extCLI) list(ctx context.Context, a cmdArgs) error {
	infos, err := x.m.List(ctx)
	if err != nil {
		return err
	}
	if a.bools["json"] {
		return writeJSON(x.out, infos)
	}
	if len(infos) == 0 {
		fmt.Fprintln(x.out, "no extensions installed (agentdesk ext install URL)")
		return nil
	}
	w := tabwriter.NewWriter(x.out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tVERSION\tSTATUS\tENABLED IN\tCOMMIT\tHOOKS\tSKILLS")
	for _, i := range infos {
		i = i.ForDisplay()
		scope := "-"
		if i.Enabled {
			scope = i.ScopeText()
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", i.ID, i.Name, orDash(i.Version), i.Status, scope, extensions.ShortCommit(i.Commit), len(i.Hooks), len(i.Skills))
	}
	return w.Flush()
}

func (x *extCLI) show(ctx context.Context, a cmdArgs) error {
	id, err := a.one("extension id")
	if err != nil {
		return err
	}
	info, err := x.m.Show(ctx, id)
	if err != nil {
		return err
	}
	info.Diagnostics = append(info.Diagnostics, skillConflicts(info, x.catalog())...)
	info.Diagnostics = append(info.Diagnostics, commandConflicts(info, x.commands())...)
	if a.bools["json"] {
		return writeJSON(x.out, info)
	}
	x.printInfo(info.ForDisplay())
	return nil
}

// skillConflicts notes, as the pane marks them, the skills of info that
// another source with the same name shadows (user skills first, then
// extensions in installation order).
func skillConflicts(info extensions.Info, cat skills.Catalog) []string {
	var notes []string
	self := "extension " + info.ID
	for _, c := range cat.Conflicts {
		if c.Winner.Source == self {
			continue
		}
		for _, s := range info.Skills {
			if s.Name == c.Name {
				notes = append(notes, fmt.Sprintf("skill %q conflicts with %s, which wins", s.Name, c.Winner.Source))
			}
		}
	}
	return notes
}

func (x *extCLI) printInfo(i extensions.Info) {
	fmt.Fprintf(x.out, "%s (%s) %s\n", i.Name, i.ID, orDash(i.Version))
	fmt.Fprintf(x.out, "  status:   %s\n", i.Status)
	if i.Enabled {
		fmt.Fprintf(x.out, "  enabled in: %s\n", i.ScopeText())
	}
	fmt.Fprintf(x.out, "  source:   %s", i.SourceURL)
	if i.RequestedRef != "" {
		fmt.Fprintf(x.out, " @ %s", i.RequestedRef)
	}
	fmt.Fprintf(x.out, "\n  commit:   %s\n", i.Commit)
	if i.PreviousCommit != "" {
		fmt.Fprintf(x.out, "  previous: %s (agentdesk ext rollback %s)\n", i.PreviousCommit, i.ID)
	}
	if i.Plugin != "" {
		fmt.Fprintf(x.out, "  plugin:   %s of that marketplace, from %s\n", i.Plugin, i.PluginSource)
	}
	if i.Unconfined {
		fmt.Fprintf(x.out, "  sandbox:  runs unconfined, as you chose (agentdesk ext sandbox %s on)\n", i.ID)
	}
	if i.Description != "" {
		fmt.Fprintf(x.out, "  %s\n", i.Description)
	}
	for _, h := range i.Hooks {
		fmt.Fprintf(x.out, "  hook %s [%s] %s (timeout %s)%s\n", h.Event, h.MatcherText(), h.ArgvText(), h.TimeoutText(), inactiveText(h.Inactive))
		if note := h.NotUsedText(); note != "" {
			fmt.Fprintf(x.out, "       %s\n", note)
		}
	}
	for _, s := range i.Skills {
		fmt.Fprintf(x.out, "  skill %s — %s\n", s.Name, s.Description)
	}
	x.printCommands(i)
	x.printAgents(i)
	x.printStyles(i)
	for _, sv := range i.MCPServers {
		fmt.Fprintf(x.out, "  mcp server %s: %s — %s\n", sv.Name, sv.Target(), sv.StateText())
		if len(sv.Tools) > 0 {
			fmt.Fprintf(x.out, "       tools: %s\n", strings.Join(sv.Tools, ", "))
		}
		if c := sv.CollisionText(); c != "" {
			fmt.Fprintf(x.out, "       %s\n", c)
		}
		if len(sv.ToolsOff) > 0 {
			fmt.Fprintf(x.out, "       switched off (never offered): %s\n", strings.Join(sv.ToolsOff, ", "))
		}
	}
	if n := len(i.PendingTools); n > 0 {
		fmt.Fprintf(x.out, "  %d MCP tools changed since you trusted it and are withheld: agentdesk ext review %s\n", n, i.ID)
	}
	for _, sv := range i.LSPServers {
		fmt.Fprintf(x.out, "  lsp server %s: %s — %s\n", sv.Name, sv.Target(), sv.StateText())
	}
	for _, o := range i.Options {
		fmt.Fprintf(x.out, "  setting %s (%s) = %s\n", o.Key, o.Title, optionText(o))
	}
	x.printDiagnostics(i)
	if i.ReviewReason != "" {
		fmt.Fprintf(x.out, "  needs review: %s\n", i.ReviewReason)
	}
	if i.LastError != "" {
		fmt.Fprintf(x.out, "  last error: %s\n", i.LastError)
	}
	for _, r := range i.RecentRuns {
		fmt.Fprintf(x.out, "  run %s %s %dms exit %d %s\n", r.Time.Format("2006-01-02 15:04:05"), r.Event, r.DurationMS, r.Exit, r.Error)
	}
}

func (x *extCLI) printDiagnostics(i extensions.Info) {
	for _, d := range i.Diagnostics {
		fmt.Fprintf(x.out, "  note: %s\n", d)
	}
}

func (x *extCLI) enable(ctx context.Context, a cmdArgs) error {
	id, err := a.one("extension id")
	if err != nil {
		return err
	}
	t, err := x.m.TrustPrompt(ctx, id)
	if err != nil {
		return err
	}
	t = t.ForDisplay() // its Hash still names the hooks as they are
	if t.NeedsConfirmation() {
		x.printTrust(t)
		if !a.bools["yes"] && !x.confirm("Trust and enable "+t.Name+"?") {
			return errors.New("not enabled: the hook commands and MCP servers were not confirmed")
		}
	} else {
		x.printTrustCommands(t)
		x.printTrustAgents(t)
		x.printTrustStyles(t)
	}
	if err := x.setOptions(ctx, id, a.all["config"], !a.bools["yes"]); err != nil {
		return err
	}
	info, err := x.enableIn(ctx, id, t.Hash, a.vals["project"])
	if err != nil {
		return err
	}
	fmt.Fprintf(x.out, "enabled %s (%s) in: %s\n", info.ID, strings.Join(info.Contents(), ", "), info.ScopeText())
	if info.Status == extensions.StatusError {
		fmt.Fprintf(x.out, "but inactive: %s\n", info.ForDisplay().LastError)
	}
	return nil
}

// setOptions stores --config KEY=VALUE values and, when ask is set, asks
// on the terminal for each setting still without a value (Enter keeps the
// default). --yes never waits: defaults apply, and a required value left
// unset keeps the extension inactive, as the last line says.
func (x *extCLI) setOptions(ctx context.Context, id string, pairs []string, ask bool) error {
	values := map[string]string{}
	for _, kv := range pairs {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return usageError{fmt.Sprintf("--config %q: expected KEY=VALUE", kv)}
		}
		values[key] = value
	}
	opts, where, err := x.m.Options(ctx, id)
	if err != nil {
		return err
	}
	for _, o := range opts {
		if _, given := values[o.Key]; given || o.Set || !ask {
			continue
		}
		if v := x.askOption(o, where); v != "" {
			values[o.Key] = v
		}
	}
	if len(values) == 0 {
		return nil
	}
	return x.m.SetOptions(ctx, id, values)
}

func (x *extCLI) askOption(o extensions.OptionValue, where string) string {
	o.Title, o.Description, o.Default = safetext.Strip(o.Title), safetext.Strip(o.Description), safetext.Strip(o.Default)
	fmt.Fprintf(x.errOut, "%s", o.Title)
	if o.Description != "" {
		fmt.Fprintf(x.errOut, " (%s)", o.Description)
	}
	switch {
	case o.Sensitive:
		fmt.Fprintf(x.errOut, " [kept in %s]", where)
	case o.HasDefault:
		fmt.Fprintf(x.errOut, " [%s]", o.Default)
	}
	fmt.Fprint(x.errOut, ": ")
	line, _ := x.in.ReadString('\n')
	return strings.TrimSpace(line)
}

func (x *extCLI) printTrust(t extensions.Trust) {
	t = t.ForDisplay()
	if t.Reason != "" {
		fmt.Fprintf(x.out, "%s needs review: %s\n", t.Name, t.Reason)
	}
	if len(t.Hooks) > 0 {
		fmt.Fprintf(x.out, "%s will run these commands:\n", t.Name)
	}
	for _, h := range t.Hooks {
		fmt.Fprintf(x.out, "  %s [%s] %s (timeout %s)\n", h.Event, h.MatcherText(), h.ArgvText(), h.TimeoutText())
	}
	x.printTrustServers(t)
	fmt.Fprintf(x.out, "  where ${CLAUDE_PLUGIN_ROOT} is %s\n  and ${CLAUDE_PLUGIN_DATA} is %s\n", t.PluginRoot, t.PluginData)
	if len(t.NotRun) > 0 {
		fmt.Fprintln(x.out, "Declared but not run (not part of what you trust):")
		for _, h := range t.NotRun {
			fmt.Fprintf(x.out, "  %s [%s] %s: %s\n", h.Event, h.MatcherText(), h.ArgvText(), h.Inactive)
		}
	}
	x.printTrustCommands(t)
	x.printTrustAgents(t)
	x.printTrustStyles(t)
	if t.Diff != nil && !t.Diff.Empty() {
		fmt.Fprintln(x.out, "Changed since you last trusted it:")
		for _, line := range extensions.DiffLines(*t.Diff) {
			fmt.Fprintf(x.out, "  %s\n", safetext.Visible(line))
		}
	}
	fmt.Fprintln(x.out, t.Warning)
}

// printTrustServers lists the MCP servers that start once enabled (with
// a session's first prompt, never now) and those that cannot.
func (x *extCLI) printTrustServers(t extensions.Trust) {
	if len(t.MCPServers) > 0 {
		fmt.Fprintf(x.out, "%s will start these MCP servers (with a session's first prompt; each tool call asks you):\n", t.Name)
	}
	for _, sv := range t.MCPServers {
		fmt.Fprintf(x.out, "  %s: %s\n", sv.Name, sv.Target())
		if env := sv.EnvText(); env != "" {
			fmt.Fprintf(x.out, "       %s\n", env)
		}
	}
	for _, sv := range t.NotRunServers {
		fmt.Fprintf(x.out, "  MCP server %s will not start: %s\n", sv.Name, sv.Inactive)
	}
	if len(t.LSPServers) > 0 {
		fmt.Fprintf(x.out, "%s will start these LSP servers (with the first file they cover; they may write the project):\n", t.Name)
	}
	for _, sv := range t.LSPServers {
		fmt.Fprintf(x.out, "  %s: %s\n", sv.Name, sv.Target())
		fmt.Fprintf(x.out, "       %s\n", sv.CoversText())
	}
	for _, sv := range t.NotRunLSP {
		fmt.Fprintf(x.out, "  LSP server %s will not start: %s\n", sv.Name, sv.Inactive)
	}
}

func (x *extCLI) confirm(question string) bool {
	fmt.Fprintf(x.errOut, "%s [y/N] ", question)
	line, _ := x.in.ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

func (x *extCLI) disable(ctx context.Context, a cmdArgs) error {
	id, err := a.one("extension id")
	if err != nil {
		return err
	}
	if dir := a.vals["project"]; dir != "" {
		key, err := project.Canonical(dir)
		if err != nil {
			return fmt.Errorf("project folder: %w", err)
		}
		info, err := x.m.DisableIn(ctx, id, key)
		if err != nil {
			return err
		}
		if !info.Enabled {
			fmt.Fprintf(x.out, "disabled %s: %s was the last project it was enabled in\n", id, key)
			return nil
		}
		fmt.Fprintf(x.out, "disabled %s in %s; still enabled in: %s\n", id, key, info.ScopeText())
		return nil
	}
	if _, err := x.m.Disable(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(x.out, "disabled %s\n", id)
	return nil
}

// enableIn enables id everywhere, or only in dir (its canonical folder,
// as sessions record it) when one is given.
func (x *extCLI) enableIn(ctx context.Context, id, hash, dir string) (extensions.Info, error) {
	if dir == "" {
		return x.m.Enable(ctx, id, hash)
	}
	key, err := project.Canonical(dir)
	if err != nil {
		return extensions.Info{}, fmt.Errorf("project folder: %w", err)
	}
	return x.m.EnableIn(ctx, id, hash, key)
}

// tool switches one MCP tool: ext tool ID SERVER TOOL on|off.
func (x *extCLI) tool(ctx context.Context, a cmdArgs) error {
	if len(a.pos) != 4 || (a.pos[3] != "on" && a.pos[3] != "off") {
		return usageError{"usage: agentdesk ext tool ID SERVER TOOL on|off"}
	}
	id, server, tool, off := a.pos[0], a.pos[1], a.pos[2], a.pos[3] == "off"
	if err := x.m.SetToolOff(ctx, id, server, tool, off); err != nil {
		return err
	}
	if off {
		fmt.Fprintf(x.out, "switched off %s › %s › %s: it is not offered to the model from the next prompt, and a call to it is refused\n", id, server, tool)
		return nil
	}
	fmt.Fprintf(x.out, "switched on %s › %s › %s\n", id, server, tool)
	return nil
}

// checkRow is one line of `ext check`.
type checkRow struct {
	extensions.UpdateCheck
	Error string `json:"error,omitempty"`
}

// check asks the remotes of the given (or all) extensions for newer
// commits without installing anything.
func (x *extCLI) check(ctx context.Context, a cmdArgs) error {
	ids := a.pos
	if len(ids) == 0 {
		infos, err := x.m.List(ctx)
		if err != nil {
			return err
		}
		for _, i := range infos {
			ids = append(ids, i.ID)
		}
	}
	var rows []checkRow
	failed := 0
	for _, id := range ids {
		c, err := x.m.CheckUpdate(ctx, id)
		row := checkRow{UpdateCheck: c}
		if err != nil {
			row.ID, row.Error = id, err.Error()
			failed++
		}
		rows = append(rows, row)
	}
	if a.bools["json"] {
		if err := writeJSON(x.out, rows); err != nil {
			return err
		}
	} else if err := x.printChecks(rows); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, len(rows))
	}
	return nil
}

func (x *extCLI) printChecks(rows []checkRow) error {
	if len(rows) == 0 {
		fmt.Fprintln(x.out, "no extensions installed (agentdesk ext install URL)")
		return nil
	}
	w := tabwriter.NewWriter(x.out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tREF\tACTIVE\tLATEST\tSTATE")
	for _, r := range rows {
		ref := r.Ref
		if ref == "" {
			ref = "(default branch)"
		}
		state := "up to date"
		switch {
		case r.Error != "":
			state, ref = "check failed: "+r.Error, "-"
		case r.Pinned:
			state = "pinned to a commit (agentdesk ext update " + r.ID + " --ref REF moves it)"
		case r.Available:
			state = "update available (agentdesk ext update " + r.ID + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", r.ID, safetext.Strip(ref), orDash(extensions.ShortCommit(r.Current)), orDash(extensions.ShortCommit(r.Latest)), safetext.Strip(state))
	}
	return w.Flush()
}

func (x *extCLI) update(ctx context.Context, a cmdArgs) error {
	id, err := a.one("extension id")
	if err != nil {
		return err
	}
	res, err := x.m.Update(ctx, id, a.vals["ref"], x.progress)
	x.endProgress()
	if err != nil {
		return err
	}
	if res.UpToDate {
		fmt.Fprintf(x.out, "%s is already up to date (%s)\n", id, extensions.ShortCommit(res.NewCommit))
		return nil
	}
	fmt.Fprintf(x.out, "updated %s %s → %s (%s → %s)\n", id, extensions.ShortCommit(res.OldCommit), extensions.ShortCommit(res.NewCommit), orDash(safetext.Strip(res.OldVersion)), orDash(safetext.Strip(res.Info.Version)))
	for _, line := range extensions.DiffLines(res.Hooks) {
		fmt.Fprintf(x.out, "  %s\n", safetext.Visible(line))
	}
	if res.SkillsDiff != "" {
		fmt.Fprintf(x.out, "  %s\n", res.SkillsDiff)
	}
	if res.Info.Status != extensions.StatusNeedsReview {
		return nil
	}
	fmt.Fprintf(x.out, "%s changed its hook commands and is paused until you review them.\n", id)
	if !a.bools["yes"] {
		fmt.Fprintf(x.out, "review and re-enable it with: agentdesk ext enable %s\n", id)
		return nil
	}
	return x.enable(ctx, cmdArgs{pos: []string{id}, bools: map[string]bool{"yes": true}})
}

func (x *extCLI) rollback(ctx context.Context, a cmdArgs) error {
	id, err := a.one("extension id")
	if err != nil {
		return err
	}
	info, err := x.m.Rollback(ctx, id)
	if err != nil {
		return err
	}
	info = info.ForDisplay()
	fmt.Fprintf(x.out, "rolled back %s to %s (%s); status %s\n", id, extensions.ShortCommit(info.Commit), orDash(info.Version), info.Status)
	return nil
}

func (x *extCLI) uninstall(ctx context.Context, a cmdArgs) error {
	id, err := a.one("extension id")
	if err != nil {
		return err
	}
	info, err := x.m.Show(ctx, id)
	if err != nil {
		return err
	}
	info = info.ForDisplay()
	if !a.bools["yes"] {
		fmt.Fprintf(x.out, "This deletes %s: its package (%s) and its data folder (%s).\n", info.Name, info.Dir, info.DataDir)
		if !x.confirm("Uninstall " + info.Name + "?") {
			return errors.New("not uninstalled")
		}
	}
	if err := x.m.Uninstall(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(x.out, "uninstalled %s\n", id)
	return nil
}

// review prints the MCP tools withheld since they changed after trust
// (or appeared), as a diff, and accepts them: with --yes at once,
// otherwise when the user says so. Declining keeps them withheld.
func (x *extCLI) review(ctx context.Context, a cmdArgs) error {
	id, err := a.one("extension id")
	if err != nil {
		return err
	}
	if id == manifest.ProjectID { // its servers are pinned per folder
		return errors.New("a folder's own MCP servers are reviewed per folder: agentdesk project review [DIR] [--yes]")
	}
	info, err := x.m.Show(ctx, id)
	if err != nil {
		return err
	}
	pending := info.PendingTools
	if len(pending) == 0 {
		fmt.Fprintf(x.out, "%s: no MCP tools wait for review\n", id)
		return nil
	}
	fmt.Fprintf(x.out, "%s: %d MCP tools changed since you trusted it; they are withheld from the model until you accept them:\n",
		safetext.Strip(id), len(pending))
	for _, t := range info.ForDisplay().PendingTools {
		fmt.Fprint(x.out, t.DiffText())
	}
	if !a.bools["yes"] && !x.confirm("Accept these tools?") {
		return errors.New("not accepted: the tools stay withheld")
	}
	n, err := x.m.AcceptTools(ctx, id, pending)
	if err != nil {
		return err
	}
	fmt.Fprintf(x.out, "accepted %d tools of %s; they are offered from the next prompt on\n", n, safetext.Strip(id))
	if n < len(pending) {
		fmt.Fprintf(x.out, "%d changed again meanwhile and still wait: run agentdesk ext review %s again\n", len(pending)-n, safetext.Strip(id))
	}
	return nil
}

// sandbox confines an extension's hooks and servers again (on) or, after
// asking, lets them run with the user's full access (off): the card's
// "Run unconfined…".
func (x *extCLI) sandbox(ctx context.Context, a cmdArgs) error {
	if len(a.pos) != 2 || (a.pos[1] != "on" && a.pos[1] != "off") {
		return usageError{"usage: agentdesk ext sandbox ID on|off [--yes]"}
	}
	id, on := a.pos[0], a.pos[1] == "on"
	if !on {
		fmt.Fprintf(x.errOut, "%s's hooks, MCP servers and LSP servers will run with your full access: they can read your SSH keys, "+
			"cloud credentials and browser profiles, AgentDesk's database, and write anywhere in your home folder, "+
			"until you run `agentdesk ext sandbox %s on` or an update changes what it runs.\n", safetext.Strip(id), safetext.Strip(id))
		if !a.bools["yes"] && !x.confirm("Run it unconfined?") {
			return errors.New("not changed: it stays confined")
		}
	}
	if _, err := x.m.SetUnconfined(ctx, id, !on); err != nil {
		return err
	}
	if on {
		fmt.Fprintf(x.out, "%s is confined again\n", safetext.Strip(id))
	} else {
		fmt.Fprintf(x.out, "%s runs unconfined from its next hook or server start\n", safetext.Strip(id))
	}
	return nil
}

func (x *extCLI) endProgress() {
	if isTerminal(x.errOut) {
		fmt.Fprint(x.errOut, "\r\033[K")
	}
}

// isTerminal: progress lines are drawn only for a person watching.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// writeJSON writes v indented, with what could drive a terminal escaped
// (the data read back is the same).
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(safetext.JSON(b), '\n'))
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func inactiveText(reason string) string {
	if reason == "" {
		return ""
	}
	return " — inactive: " + reason
}

// optionText shows a setting's value; a sensitive one only as set or not.
func optionText(o extensions.OptionValue) string {
	switch {
	case o.Sensitive && o.Set:
		return "(sensitive, set)"
	case !o.Set && o.Required:
		return "(not set, required)"
	case !o.Set:
		return "(not set)"
	}
	return o.Value
}
