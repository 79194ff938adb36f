package ui

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/project"
)

var statusText = map[extensions.Status]string{
	extensions.StatusDisabled:    "Disabled",
	extensions.StatusEnabled:     "Enabled",
	extensions.StatusNeedsReview: "Needs review",
	extensions.StatusError:       "Error",
}

// badgeColors are each status badge's fill and text colours; the theme
// keeps every pair at WCAG AA contrast (TestThemeContrast).
var badgeColors = map[extensions.Status][2]fyne.ThemeColorName{
	extensions.StatusDisabled:    {theme.ColorNameButton, theme.ColorNameForeground},
	extensions.StatusEnabled:     {theme.ColorNameSuccess, theme.ColorNameForegroundOnSuccess},
	extensions.StatusNeedsReview: {theme.ColorNameWarning, theme.ColorNameForegroundOnWarning},
	extensions.StatusError:       {theme.ColorNameError, theme.ColorNameForegroundOnError},
}

// badge is the status pill of a card.
func badge(s extensions.Status) fyne.CanvasObject {
	colors := badgeColors[s]
	bg := canvas.NewRectangle(theme.Color(colors[0]))
	bg.CornerRadius = theme.InputRadiusSize() * 3
	bg.StrokeColor, bg.StrokeWidth = theme.Color(theme.ColorNameInputBorder), 1
	text := canvas.NewText(statusText[s], theme.Color(colors[1]))
	text.TextStyle = fyne.TextStyle{Bold: true}
	text.TextSize = theme.CaptionTextSize() + 1
	return container.NewCenter(container.NewStack(bg, container.New(layout.NewCustomPaddedLayout(3, 3, 10, 10), text)))
}

// card is one extension: identity, status, toggle, actions and details.
func (p *extensionsPane) card(info extensions.Info) fyne.CanvasObject {
	st := p.cardFor(info.ID)
	subtitle := extensions.ShortCommit(info.Commit) + " · " + info.SourceURL
	if info.Version != "" { // many plugins have none: the commit says which
		subtitle = info.Version + " · " + subtitle
	}
	toggle := &widget.Check{Text: "Enabled", Checked: info.Status == extensions.StatusEnabled}
	toggle.OnChanged = func(on bool) { p.onToggle(info, on) }
	if st.busy || info.Status == extensions.StatusError {
		toggle.Disable()
	}
	counts := &widget.Label{Text: countsText(info)}
	top := container.NewHBox(badge(info.Status), toggle, counts)
	if cta := p.callToAction(info); cta != nil {
		top.Add(cta)
	}
	body := container.NewVBox(top)
	if info.Description != "" {
		body.Add(&widget.Label{Text: info.Description, Wrapping: fyne.TextWrapWord})
	}
	if share, ok := p.fit.Shares[info.ID]; ok && info.Status == extensions.StatusEnabled {
		body.Add(newSecondaryLabel(shareText(share, p.fit.Budget), fyne.TextWrapWord))
	}
	if msg := p.cardMessage(info, st); msg != nil {
		body.Add(msg)
	}
	if scope := p.scopeSection(info, st); scope != nil {
		body.Add(scope)
	}
	if servers := p.mcpSection(info, st); servers != nil {
		body.Add(servers)
	}
	if servers := p.lspSection(info, st); servers != nil {
		body.Add(servers)
	}
	if row := p.sandboxRow(info, st); row != nil {
		body.Add(row)
	}
	body.Add(p.actions(info, st))
	body.Add(p.details(info, st))
	return &widget.Card{Title: info.Name, Subtitle: subtitle, Content: body}
}

// countsText is the card's line on what an extension brings.
func countsText(info extensions.Info) string { return strings.Join(info.Contents(), " · ") }

// shareText is an enabled extension's share of the catalog budget, so a
// user sees why a skill or agent of it is not described: "In the
// model's catalog: 3.2 KB of its 13.1 KB · skills and agents: 2 in full,
// 10 with a shortened description, 40 by name only".
func shareText(sh listing.Share, budget int) string {
	var tiers []string
	if sh.Full > 0 {
		tiers = append(tiers, fmt.Sprintf("%d in full", sh.Full))
	}
	if sh.Shortened > 0 {
		tiers = append(tiers, fmt.Sprintf("%d with a shortened description", sh.Shortened))
	}
	if sh.NamesOnly > 0 {
		tiers = append(tiers, fmt.Sprintf("%d by name only", sh.NamesOnly))
	}
	if sh.Hidden > 0 {
		tiers = append(tiers, fmt.Sprintf("%d not listed (tool_search finds them)", sh.Hidden))
	}
	noun := "skills and agents"
	if n := sh.Full + sh.Shortened + sh.NamesOnly + sh.Hidden; n == 1 {
		noun = "skill or agent"
	}
	return fmt.Sprintf("In the model's catalog: %s of its %s · %s: %s", agent.KB(sh.Bytes), agent.KB(budget), noun, strings.Join(tiers, ", "))
}

// enabledText says what an enabled extension adds from the next prompt.
func enabledText(info extensions.Info) string {
	parts := info.Active()
	text := "Enabled."
	switch len(parts) {
	case 0:
	case 1:
		text = "Enabled, active from the next prompt: " + parts[0] + "."
	default:
		text = "Enabled, active from the next prompt: " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + "."
	}
	switch n := len(info.MCPServers); n {
	case 0:
	case 1:
		text += " Its MCP server starts with the next prompt."
	default:
		text += fmt.Sprintf(" Its %d MCP servers start with the next prompt.", n)
	}
	return text
}

// callToAction is the one obvious next step for a card that is not
// running: review and enable.
func (p *extensionsPane) callToAction(info extensions.Info) fyne.CanvasObject {
	switch info.Status {
	case extensions.StatusDisabled, extensions.StatusNeedsReview:
		return &widget.Button{Text: "Review and enable", Importance: widget.HighImportance, OnTapped: func() { p.onToggle(info, true) }}
	}
	return nil
}

// cardMessage is the card's in-place feedback: the last operation's
// result, a review reason, or the last error with its fix.
func (p *extensionsPane) cardMessage(info extensions.Info, st *cardState) fyne.CanvasObject {
	var lines []string
	importance := widget.MediumImportance
	if c := st.check; c != nil {
		switch {
		case c.Available:
			lines = append(lines, updateLine(info, c))
			importance = widget.HighImportance
		case c.Pinned:
			lines = append(lines, "Pinned to commit "+extensions.ShortCommit(c.Current)+": nothing newer comes from a commit.")
		default:
			lines = append(lines, "Up to date.")
		}
	}
	if st.checkErr != "" {
		lines = append(lines, "Could not check for updates: "+st.checkErr)
		importance = widget.DangerImportance
	}
	if st.message != "" {
		lines = append(lines, st.message)
		if st.isError {
			importance = widget.DangerImportance
		}
	}
	if info.ReviewReason != "" {
		lines = append(lines, "Paused: "+info.ReviewReason+".")
		importance = max(importance, widget.WarningImportance)
	}
	if info.LastError != "" {
		lines = append(lines, "Last error: "+info.LastError+fixFor(info.LastError))
		importance = widget.DangerImportance
	}
	if len(info.Lingering) > 0 {
		lines = append(lines, lingeringLine(info.Lingering))
	}
	if len(lines) == 0 {
		return nil
	}
	return &widget.Label{Text: strings.Join(lines, "\n"), Wrapping: fyne.TextWrapWord, Importance: importance}
}

// lingeringLine names the processes the extension's hooks left running.
func lingeringLine(pids []int) string {
	ids := make([]string, len(pids))
	for i, pid := range pids {
		ids[i] = strconv.Itoa(pid)
	}
	what := "a process group"
	if len(pids) > 1 {
		what = strconv.Itoa(len(pids)) + " process groups"
	}
	return fmt.Sprintf("Its hooks left %s running (pid %s); stopped when you disable, update or uninstall it, or quit.",
		what, strings.Join(ids, ", "))
}

// fixFor suggests the action that fixes a hook error.
func fixFor(msg string) string {
	switch {
	case strings.Contains(msg, "not found on the hook PATH"):
		return " Install the program, or set the PATH for hooks in Preferences → Advanced."
	case strings.Contains(msg, "timed out"), strings.Contains(msg, "timeout"):
		return " Raise the hook timeout in Preferences → Advanced if the hook is just slow."
	}
	return ""
}

func (p *extensionsPane) actions(info extensions.Info, st *cardState) fyne.CanvasObject {
	update := &widget.Button{Text: "Update", Icon: theme.ViewRefreshIcon(), OnTapped: func() { p.onUpdate(info) }}
	if st.check != nil && st.check.Available {
		update.Importance = widget.HighImportance
	}
	rollback := &widget.Button{Text: "Rollback", Icon: theme.HistoryIcon(), OnTapped: func() { p.onRollback(info) }}
	uninstall := &widget.Button{Text: "Uninstall", Icon: theme.DeleteIcon(), Importance: widget.DangerImportance, OnTapped: func() { p.onUninstall(info) }}
	copyURL := &widget.Button{Text: "Copy URL", Icon: theme.ContentCopyIcon(), Importance: widget.LowImportance,
		OnTapped: func() { p.u.d.App.Clipboard().SetContent(info.SourceURL) }}
	settings := &widget.Button{Text: "Settings…", Icon: theme.SettingsIcon(), OnTapped: func() { p.onSettings(info) }}
	if len(info.Options) == 0 {
		settings.Hide()
	}
	if !info.HasPrevious() {
		rollback.Hide()
	}
	if st.busy {
		update.Disable()
		rollback.Disable()
		uninstall.Disable()
	}
	return container.NewHBox(update, rollback, settings, uninstall, layoutSpacer(), copyURL)
}

// details is the expander: hooks, skills, diagnostics and recent runs.
func (p *extensionsPane) details(info extensions.Info, st *cardState) fyne.CanvasObject {
	arrow := "▸ Details"
	if st.open {
		arrow = "▾ Details"
	}
	btn := &widget.Button{Text: arrow, Alignment: widget.ButtonAlignLeading, Importance: widget.LowImportance,
		OnTapped: func() { st.open = !st.open; p.render() }}
	if !st.open {
		return btn
	}
	return container.NewVBox(btn, p.detailBody(info))
}

func (p *extensionsPane) detailBody(info extensions.Info) fyne.CanvasObject {
	box := container.NewVBox()
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		box.Add(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		box.Add(monoBlock(strings.Join(lines, "\n")))
	}
	section("Hooks", hookLines(info.Hooks))
	section("MCP servers", mcpLines(info.MCPServers))
	section("LSP servers", lspLines(info.LSPServers))
	section("Skills", p.skillLines(info))
	section("Slash commands", p.commandLines(info))
	section("Agents", agentLines(info.Agents))
	section("Output styles (Preferences → Providers, or /output-style)", styleLines(info.ID, info.OutputStyles))
	section("Diagnostics", info.Diagnostics)
	section("Recent hook runs", runLines(info.RecentRuns))
	box.Add(newSecondaryLabel("Folder: "+info.Dir+"\nData: "+info.DataDir, fyne.TextWrapBreak))
	return box
}

func hookLines(hooks []extensions.Hook) []string {
	var out []string
	for _, h := range hooks {
		line := fmt.Sprintf("%s [%s] %s (timeout %s)", h.Event, h.MatcherText(), h.ArgvText(), h.TimeoutText())
		if h.Inactive != "" {
			line += "\n    inactive: " + h.Inactive
		}
		if note := h.NotUsedText(); note != "" {
			line += "\n    " + note
		}
		if h.LastError != "" {
			line += "\n    last error: " + h.LastError
		}
		out = append(out, line)
	}
	return out
}

func (p *extensionsPane) skillLines(info extensions.Info) []string {
	var out []string
	for _, s := range info.Skills {
		line := s.Name + " — " + firstLine(s.Description, 100)
		if winner, ok := p.skills[s.Name]; ok && winner != "extension "+info.ID {
			line += "  [conflict: " + winner + " wins]"
		}
		out = append(out, line)
	}
	return out
}

func runLines(runs []extensions.Run) []string {
	var out []string
	for _, r := range runs {
		line := fmt.Sprintf("%s  %-16s %5d ms  exit %d", r.Time.Format("Jan 2 15:04:05"), r.Event, r.DurationMS, r.Exit)
		if r.Error != "" {
			line += "  " + firstLine(r.Error, 100)
		}
		out = append(out, line)
	}
	return out
}

// run performs an operation on one card off the UI goroutine.
func (p *extensionsPane) run(id string, op func(context.Context) (string, error)) {
	st := p.cardFor(id)
	st.busy, st.message, st.isError = true, "Working…", false
	p.render()
	background(p.u, func(ctx context.Context) (string, error) { return op(ctx) }, func(msg string, err error) {
		st.busy = false
		st.message, st.isError = msg, false
		if err != nil {
			st.message, st.isError = sentence(err), true
		}
		p.reload()
	})
}

func (p *extensionsPane) onToggle(info extensions.Info, on bool) {
	if !on {
		p.run(info.ID, func(ctx context.Context) (string, error) {
			_, err := p.u.d.Extensions.Disable(ctx, info.ID)
			return "Disabled: its hooks and MCP servers were stopped and its context, tools and skills leave the next request.", err
		})
		return
	}
	// The toggle shows the status, never a wish: it stays off beside the
	// Disabled badge until the extension is enabled.
	p.render()
	background(p.u, func(ctx context.Context) (extensions.Trust, error) {
		return p.u.d.Extensions.TrustPrompt(ctx, info.ID)
	}, func(t extensions.Trust, err error) {
		if err != nil {
			p.cardFor(info.ID).message, p.cardFor(info.ID).isError = sentence(err), true
			p.render()
			return
		}
		if !t.NeedsConfirmation() {
			p.enable(info.ID, t.Hash, nil, "")
			return
		}
		p.showTrust(t, p.optionsOf(t.ID), "")
	})
}

// enable enables id everywhere, or only in the folder dir when one is
// given.
func (p *extensionsPane) enable(id, hash string, options map[string]string, dir string) {
	p.run(id, func(ctx context.Context) (string, error) {
		if len(options) > 0 {
			if err := p.u.d.Extensions.SetOptions(ctx, id, options); err != nil {
				return "", err
			}
		}
		var info extensions.Info
		var err error
		if dir == "" {
			info, err = p.u.d.Extensions.Enable(ctx, id, hash)
		} else if dir, err = project.Canonical(dir); err == nil {
			info, err = p.u.d.Extensions.EnableIn(ctx, id, hash, dir)
		}
		if err == nil && info.Status == extensions.StatusError {
			return "", fmt.Errorf("enabled, but %s", info.LastError)
		}
		return enabledText(info), err
	})
}

// showTrust is the trust dialog: the warning, the exact argv per event,
// and after an update the diff, with Enable / Cancel, the settings opts
// it asks for, and, with a project open, "Only in this project" (checked
// when only is that project: the project's enabledPlugins asked).
func (p *extensionsPane) showTrust(t extensions.Trust, opts []extensions.OptionValue, only string) {
	t = t.ForDisplay()
	content := container.NewVBox(&widget.Label{Text: t.Warning, Wrapping: fyne.TextWrapWord, TextStyle: fyne.TextStyle{Bold: true}})
	if t.Reason != "" {
		content.Add(&widget.Label{Text: "Why again: " + t.Reason + ".", Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance})
	}
	// section is a bold title over its lines in a monospaced block.
	section := func(title string, lines []string) {
		content.Add(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		content.Add(monoBlock(strings.Join(lines, "\n")))
	}
	if t.Diff != nil && !t.Diff.Empty() {
		content.Add(widget.NewLabelWithStyle("What changed since you last trusted it", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		content.Add(monoBlock(safetext.Visible(strings.Join(extensions.DiffLines(*t.Diff), "\n"))))
	}
	if len(t.Hooks) > 0 {
		section("Commands that will run", trustLines(t.Hooks))
	}
	if len(t.MCPServers) > 0 {
		section("MCP servers that start with a session's first prompt (every tool call asks you)", trustServerLines(t.MCPServers))
	}
	if len(t.NotRunServers) > 0 {
		section("MCP servers that will not start", trustServerLines(t.NotRunServers))
	}
	if len(t.LSPServers) > 0 {
		section("LSP servers that start with the first file they cover (they may write the project)", trustLSPLines(t.LSPServers))
	}
	if len(t.NotRunLSP) > 0 {
		section("LSP servers that will not start", trustLSPLines(t.NotRunLSP))
	}
	if len(t.NotRun) > 0 {
		section("Declared but not run (not part of what you trust)", notRunLines(t.NotRun))
	}
	if len(t.Commands) > 0 {
		section("Slash commands it adds (their text goes to the model when you type them; nothing in them runs)", commandLines(t.ID, t.Commands, nil))
	}
	if len(t.Agents) > 0 {
		section("Agents it adds (the model may hand them tasks; their edits and commands ask you as usual)", agentLines(t.Agents))
	}
	if len(t.OutputStyles) > 0 {
		section("Output styles it adds (one joins the system prompt only when you choose it)", styleLines(t.ID, t.OutputStyles))
	}
	content.Add(newSecondaryLabel("${CLAUDE_PLUGIN_ROOT} is "+t.PluginRoot+"\n${CLAUDE_PLUGIN_DATA} is "+t.PluginData+
		"\nHooks and MCP servers run without a shell, with a minimal environment and no API keys: hooks in the project folder, servers in the extension's folder.",
		fyne.TextWrapBreak))
	values := func() map[string]string { return nil }
	if len(opts) > 0 {
		var form *widget.Form
		form, values = optionsForm(opts)
		content.Add(widget.NewLabelWithStyle("Settings it asks for (sensitive ones go only to its hooks' environment)", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		content.Add(form)
	}
	target := cmp.Or(only, p.here)
	here := &widget.Check{Text: "Only in this project (" + tildePath(target) + ")", Checked: only != ""}
	if target != "" {
		content.Add(here)
	}
	d := dialog.NewCustomConfirm("Enable "+t.Name+"?", "Enable", "Cancel", container.NewVScroll(content), func(ok bool) {
		if ok {
			where := ""
			if here.Checked {
				where = target
			}
			p.enable(t.ID, t.Hash, values(), where)
			return
		}
		p.render() // the toggle goes back off
	}, p.window())
	d.Resize(fyne.NewSize(760, 520))
	dialogKeys(p.window(), d, d.Dismiss) // trusting commands takes a click
	d.Show()
	if p.onTrust != nil {
		p.onTrust(d)
	}
}

// optionsOf is the settings of an extension on a card.
func (p *extensionsPane) optionsOf(id string) []extensions.OptionValue {
	for _, info := range p.infos {
		if info.ID == id {
			return info.Options
		}
	}
	return nil
}

// notRunLines are the hooks that will not run, each with why.
func notRunLines(hooks []extensions.Hook) []string {
	var out []string
	for _, h := range hooks {
		out = append(out, fmt.Sprintf("%s  [%s]  %s\n    not run: %s", h.Event, h.MatcherText(), h.ArgvText(), h.Inactive))
	}
	return out
}

func trustLines(hooks []extensions.Hook) []string {
	var out []string
	for _, h := range hooks {
		out = append(out, fmt.Sprintf("%s  [%s]  timeout %s\n    %s", h.Event, h.MatcherText(), h.TimeoutText(), h.ArgvText()))
	}
	return out
}

func (p *extensionsPane) onUpdate(info extensions.Info) {
	st := p.cardFor(info.ID)
	st.check, st.checkErr = nil, "" // the update answers it
	progress := func(pr extensions.Progress) {
		p.u.d.Do(func() {
			if st.busy {
				st.message = "Updating: " + string(pr.Phase) + "…"
				p.render()
			}
		})
	}
	p.run(info.ID, func(ctx context.Context) (string, error) {
		res, err := p.u.d.Extensions.Update(ctx, info.ID, "", progress)
		if err != nil {
			return "", fmt.Errorf("update failed, %s is still active: %w", extensions.ShortCommit(info.Commit), err)
		}
		return updateSummary(res), nil
	})
}

// updateLine offers an update found by a check. A check reads refs only,
// so the new commit's subject and date are not known before Update
// fetches it: the line says which ref it comes from and since when the
// installed commit has been in use.
func updateLine(info extensions.Info, c *extensions.UpdateCheck) string {
	ref := "the default branch"
	if c.Ref != "" {
		ref = c.Ref
	}
	since := info.UpdatedAt
	if since.IsZero() {
		since = info.InstalledAt
	}
	current := extensions.ShortCommit(c.Current)
	if !since.IsZero() {
		current += " (in use since " + since.Local().Format("2 Jan 2006") + ")"
	}
	return fmt.Sprintf("Update available: %s → %s, the newest commit on %s. Update installs it and shows what changed; nothing changes until you do.",
		current, extensions.ShortCommit(c.Latest), ref)
}

func updateSummary(res extensions.UpdateResult) string {
	if res.UpToDate {
		return "Already up to date (" + extensions.ShortCommit(res.NewCommit) + ")."
	}
	lines := []string{fmt.Sprintf("Updated %s → %s (version %s → %s).", extensions.ShortCommit(res.OldCommit), extensions.ShortCommit(res.NewCommit),
		orDash(safetext.Strip(res.OldVersion)), orDash(safetext.Strip(res.Info.Version)))}
	if diff := extensions.DiffLines(res.Hooks); len(diff) > 0 {
		lines = append(lines, "Hooks: "+safetext.Visible(strings.Join(diff, "; ")))
	} else {
		lines = append(lines, "Hooks unchanged.")
	}
	if res.SkillsDiff != "" {
		lines = append(lines, "Skills: "+res.SkillsDiff+".")
	}
	if res.Info.Status == extensions.StatusNeedsReview {
		lines = append(lines, "Its hook commands changed: it stays paused until you review them.")
	}
	return strings.Join(lines, "\n")
}

func (p *extensionsPane) onRollback(info extensions.Info) {
	msg := fmt.Sprintf("Go back from %s to the previous version %s? The current version is kept, so you can switch back.",
		extensions.ShortCommit(info.Commit), extensions.ShortCommit(info.PreviousCommit))
	d := dialog.NewConfirm("Roll back "+info.Name+"?", msg, func(ok bool) {
		if !ok {
			return
		}
		p.run(info.ID, func(ctx context.Context) (string, error) {
			after, err := p.u.d.Extensions.Rollback(ctx, info.ID)
			return fmt.Sprintf("Rolled back to %s (%s).", extensions.ShortCommit(after.Commit), orDash(safetext.Strip(after.Version))), err
		})
	}, p.window())
	d.SetConfirmText("Roll back")
	d.SetConfirmImportance(widget.DangerImportance)
	dialogKeys(p.window(), d, d.Dismiss)
	d.Show()
}

func (p *extensionsPane) onUninstall(info extensions.Info) {
	msg := fmt.Sprintf("This deletes %s:\n• its package: %s\n• its data folder: %s\nand its settings and hook history. Nothing else is touched.", info.Name, info.Dir, info.DataDir)
	d := dialog.NewConfirm("Uninstall "+info.Name+"?", msg, func(ok bool) {
		if !ok {
			return
		}
		p.run(info.ID, func(ctx context.Context) (string, error) {
			return "", p.u.d.Extensions.Uninstall(ctx, info.ID)
		})
		delete(p.state, info.ID)
	}, p.window())
	d.SetConfirmText("Uninstall")
	d.SetConfirmImportance(widget.DangerImportance)
	dialogKeys(p.window(), d, d.Dismiss) // the safe choice is to keep it
	d.Show()
}

func (p *extensionsPane) window() fyne.Window {
	if p.u.prefs != nil {
		return p.u.prefs.win
	}
	return p.u.main
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
