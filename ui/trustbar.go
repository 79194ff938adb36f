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
	"github.com/agentdesk/agentdesk/extensions/project"
)

// trustBar sits above the composer while the open folder has Claude Code
// settings that wait for folder trust (never trusted, or changed since).
type trustBar struct {
	u      *UI
	box    *fyne.Container
	text   *widget.Label
	folder project.Folder
	checks int // checks answered, for tests
}

func newTrustBar(u *UI) *trustBar {
	b := &trustBar{u: u, text: &widget.Label{Wrapping: fyne.TextWrapWord}}
	review := &widget.Button{Text: "Review and trust…", Icon: theme.WarningIcon(), OnTapped: b.onReview}
	b.box = container.NewBorder(nil, nil, nil, review, b.text)
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
	background(b.u, func(ctx context.Context) (project.Folder, error) {
		return b.u.d.Projects.Open(ctx, dir)
	}, func(f project.Folder, err error) {
		b.checks++
		if err != nil || !f.Waits() {
			b.box.Hide()
			return
		}
		b.show(f)
	})
}

func (b *trustBar) show(f project.Folder) {
	b.folder = f
	what := "This folder has Claude Code settings: "
	if f.Status == project.StatusChanged {
		what = "This folder's Claude Code settings changed since you trusted them: "
	}
	b.text.SetText(what + f.Summary() + ". Nothing of it runs until you trust the folder.")
	b.box.Show()
}

func (b *trustBar) onReview() { reviewAndTrust(b.u, b.u.main, b.folder, func() { b.box.Hide() }) }

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
