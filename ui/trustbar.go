package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// trustBar sits above the composer while the open folder has Claude Code
// settings that wait for folder trust (never trusted, or changed since),
// and once nothing waits, while its enabledPlugins ask for installed
// extensions that are not enabled in it.
type trustBar struct {
	u        *UI
	box      *fyne.Container
	text     *widget.Label
	folder   project.Folder
	proposal project.Proposal
	checks   int // checks answered, for tests

	review, enableHere, notNow *widget.Button
	dismissed                  map[string]bool // folders whose proposal was put off ("Not now")
}

func newTrustBar(u *UI) *trustBar {
	b := &trustBar{u: u, text: &widget.Label{Wrapping: fyne.TextWrapWord}, dismissed: map[string]bool{}}
	b.review = &widget.Button{Text: "Review and trust…", Icon: theme.WarningIcon(), OnTapped: b.onReview}
	b.enableHere = &widget.Button{Text: "Enable in this project", Importance: widget.HighImportance, OnTapped: b.onEnableHere}
	b.notNow = &widget.Button{Text: "Not now", Importance: widget.LowImportance, OnTapped: b.onNotNow}
	b.box = container.NewBorder(nil, nil, nil, container.NewHBox(b.review, b.enableHere, b.notNow), b.text)
	b.box.Hide()
	return b
}

func (b *trustBar) object() fyne.CanvasObject { return b.box }

// check opens dir in the project registry (the extension "project" then
// serves it) and shows the bar when its settings wait for trust.
func (b *trustBar) check(dir string) {
	if b.u.d.Projects == nil {
		return
	}
	type opened struct {
		f    project.Folder
		prop project.Proposal
	}
	background(b.u, func(ctx context.Context) (opened, error) {
		f, err := b.u.d.Projects.Open(ctx, dir)
		if err != nil {
			return opened{}, err
		}
		prop, _ := b.u.d.Projects.Propose(ctx, f) // a failed read proposes nothing
		return opened{f, prop}, nil
	}, func(o opened, err error) {
		b.checks++
		switch {
		case err != nil:
			b.box.Hide()
		case o.f.Waits():
			b.show(o.f)
		case len(o.prop.Extensions) > 0 && !b.dismissed[o.f.Dir]:
			b.showProposal(o.f, o.prop)
		default:
			b.box.Hide()
		}
	})
}

func (b *trustBar) show(f project.Folder) {
	b.folder = f
	what := "This folder has Claude Code settings: "
	if f.Status == project.StatusChanged {
		what = "This folder's Claude Code settings changed since you trusted them: "
	}
	b.text.SetText(what + f.Summary() + ". Nothing of it runs until you trust the folder.")
	b.review.Show()
	b.enableHere.Hide()
	b.notNow.Hide()
	b.box.Show()
}

// onReview trusts the folder after review; the bar then offers what its
// enabledPlugins ask for, if anything.
func (b *trustBar) onReview() {
	reviewAndTrust(b.u, b.u.main, b.folder, func() { b.box.Hide(); b.check(b.folder.Dir) })
}

// reviewAndTrust shows what folder f runs, with the diff since it was
// trusted, over win, and trusts it on Trust; done runs on the UI
// goroutine after. The trust bar and the project's card in Agent
// Extensions open it.
func reviewAndTrust(u *UI, win fyne.Window, f project.Folder, done func()) {
	body := &widget.Label{Text: reviewText(f), Wrapping: fyne.TextWrapWord, TextStyle: fyne.TextStyle{Monospace: true}}
	intro := &widget.Label{Wrapping: fyne.TextWrapWord,
		Text: "Trusting " + tildePath(f.Dir) + " lets its own settings run: these commands run local code with your account's permissions."}
	content := container.NewBorder(intro, nil, nil, nil, container.NewVScroll(body))
	d := dialog.NewCustomConfirm("Trust this folder?", "Trust", "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		background(u, func(ctx context.Context) (struct{}, error) {
			return struct{}{}, u.d.Projects.Trust(ctx, f)
		}, func(_ struct{}, err error) {
			if err != nil {
				dialog.ShowError(err, win)
				return
			}
			done()
		})
	}, win)
	d.Resize(fyne.NewSize(720, 520))
	d.Show()
}

// reviewText lists what will run: each hook's argv, each MCP server's
// command or URL with its env names, the allow and ask rules, and what
// changed since the folder was trusted.
func reviewText(f project.Folder) string {
	var w strings.Builder
	line := func(format string, args ...any) { w.WriteString(safetext.Strip(fmt.Sprintf(format, args...)) + "\n") }
	if len(f.Pkg.Hooks) > 0 {
		line("Hooks")
	}
	for _, h := range f.Pkg.Hooks {
		m := ""
		if h.Matcher != "" {
			m = " [" + h.Matcher + "]"
		}
		state := ""
		if h.Inactive != "" {
			state = "   (will not run: " + h.Inactive + ")"
		}
		line("  %s%s: %s%s", h.Event, m, strings.Join(h.Argv, " "), state)
	}
	if len(f.Pkg.MCPServers) > 0 {
		line("MCP servers")
	}
	for _, s := range f.Pkg.MCPServers {
		what := s.URL
		if argv := s.Argv(); len(argv) > 0 {
			what = strings.Join(argv, " ")
		}
		var env []string
		for _, e := range s.Env {
			env = append(env, e.Name)
		}
		extra := ""
		if len(env) > 0 {
			extra = "   env: " + strings.Join(env, ", ")
		}
		line("  %s (%s): %s%s", s.Name, s.Type, what, extra)
	}
	if len(f.Snapshot.Rules) > 0 {
		line("Permission rules")
	}
	for _, r := range f.Snapshot.Rules {
		line("  %s", r)
	}
	kept, withheld := f.Settings.Environ()
	for _, e := range kept {
		name, _, _ := strings.Cut(e, "=")
		line("Environment: %s", name)
	}
	if len(withheld) > 0 {
		line("Environment never given (names of credentials): %s", strings.Join(withheld, ", "))
	}
	if len(f.Snapshot.Dirs) > 0 {
		line("Additional directories (the file tools may read and change them, with approval): %s", strings.Join(f.Snapshot.Dirs, ", "))
	}
	if f.Settings.DefaultMode != "" {
		line("defaultMode %s: shown only, your approval setting decides", f.Settings.DefaultMode)
	}
	var also []string
	for _, c := range f.Pkg.Commands {
		also = append(also, "/"+c.Name)
	}
	for _, a := range f.Pkg.Agents {
		also = append(also, "agent "+a.Name)
	}
	for _, s := range f.Pkg.Skills {
		also = append(also, "skill "+s.Name)
	}
	if len(also) > 0 {
		line("Also: %s", strings.Join(also, ", "))
	}
	if d := f.Diff(); f.Trusted != nil && !d.Empty() {
		w.WriteString("\n")
		w.WriteString(safetext.Strip(d.Text()))
	}
	return w.String()
}

// proposalText is the bar's line for a folder whose enabledPlugins ask
// for installed extensions not enabled in it.
func proposalText(p project.Proposal) string {
	return "This project asks for plugins " + safetext.Strip(strings.Join(p.Names(), ", ")) +
		" (its .claude/settings.json enabledPlugins). Nothing is enabled until you say so."
}

// showProposal offers to enable in this folder what its settings ask for.
func (b *trustBar) showProposal(f project.Folder, p project.Proposal) {
	b.folder, b.proposal = f, p
	b.text.SetText(proposalText(p))
	b.review.Hide()
	b.enableHere.Show()
	b.notNow.Show()
	b.box.Show()
}

// onNotNow hides the proposal until the folder is opened again.
func (b *trustBar) onNotNow() {
	b.dismissed[b.folder.Dir] = true
	b.box.Hide()
}

// onEnableHere enables the proposed extensions in this folder: one
// enabled elsewhere is added to it, one that needs no trust prompt is
// enabled here, and the first that does opens its trust dialog (in
// Preferences → Agent Extensions) with "Only in this project" checked;
// the bar then offers what is left.
func (b *trustBar) onEnableHere() {
	f, prop := b.folder, b.proposal
	b.box.Hide()
	type result struct {
		review *extensions.Trust
		opts   []extensions.OptionValue
	}
	background(b.u, func(ctx context.Context) (result, error) {
		var out result
		for _, x := range prop.Extensions {
			if x.Enabled && x.Status == extensions.StatusEnabled {
				if _, err := b.u.d.Extensions.AddProject(ctx, x.ID, f.Dir); err != nil {
					return out, err
				}
				continue
			}
			t, err := b.u.d.Extensions.TrustPrompt(ctx, x.ID)
			if err != nil {
				return out, err
			}
			if t.NeedsConfirmation() || len(x.Options) > 0 {
				if out.review == nil {
					out.review, out.opts = &t, x.Options
				}
				continue
			}
			if _, err := b.u.d.Extensions.EnableIn(ctx, x.ID, t.Hash, f.Dir); err != nil {
				return out, err
			}
		}
		return out, nil
	}, func(r result, err error) {
		if err != nil {
			b.text.SetText("Could not enable the plugins this project asks for: " + sentence(err))
			b.box.Show()
			return
		}
		if r.review != nil {
			b.u.ShowPreferences(sectionExtensions)
			b.u.prefs.ext.showTrust(*r.review, r.opts, f.Dir)
		}
		b.check(f.Dir)
	})
}
