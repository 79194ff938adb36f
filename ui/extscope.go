package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/project"
)

const (
	scopeEverywhere = "Everywhere"
	scopeHere       = "Only this project"
	scopeChosen     = "Only these projects"
	scopeAdd        = "add" // the Add this project button, not a choice
)

// scopeSection is where an enabled extension is active: "Enabled in:
// everywhere", or its projects, each with Remove, and the choice between
// Everywhere and Only this project (the window's open folder). Changing
// it asks for no trust: it changes where, not what, runs.
func (p *extensionsPane) scopeSection(info extensions.Info, st *cardState) fyne.CanvasObject {
	if !info.Enabled || info.Status == extensions.StatusNeedsReview {
		return nil
	}
	title := "Enabled in: everywhere"
	if n := len(info.EnabledProjects); n > 0 {
		title = fmt.Sprintf("Enabled in: only these projects (%d)", n)
	}
	box := container.NewVBox(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	choice := widget.NewRadioGroup(p.scopeOptions(info), nil)
	choice.Required = true
	choice.Selected = p.scopeSelected(info)
	choice.OnChanged = func(picked string) { p.onScope(info, picked) }
	if st.busy {
		choice.Disable()
	}
	box.Add(choice)
	for _, dir := range info.EnabledProjects {
		box.Add(p.projectRow(info, dir, st))
	}
	if len(info.EnabledProjects) > 0 && p.here != "" && !info.EnabledIn(p.here) {
		add := &widget.Button{Text: "Add this project (" + tildePath(p.here) + ")", Icon: theme.ContentAddIcon(), Importance: widget.LowImportance,
			OnTapped: func() { p.onScope(info, scopeAdd) }}
		if st.busy {
			add.Disable()
		}
		box.Add(container.NewHBox(add))
	}
	note := "In other projects it is as if disabled: no hooks, skills, commands, agents, styles or servers."
	if len(info.EnabledProjects) == 0 {
		note = "Active in every project."
	}
	if p.here != "" && !slices.Contains(info.EnabledProjects, p.here) {
		note += " This project is " + tildePath(p.here) + "."
	}
	box.Add(newSecondaryLabel(note, fyne.TextWrapWord))
	return box
}

// scopeOptions are the choices: Everywhere, Only this project when a
// folder is open, and the list as it is when it names other projects.
func (p *extensionsPane) scopeOptions(info extensions.Info) []string {
	opts := []string{scopeEverywhere}
	if p.here != "" {
		opts = append(opts, scopeHere)
	}
	if sel := p.scopeSelected(info); sel == scopeChosen {
		opts = append(opts, scopeChosen)
	}
	return opts
}

// scopeSelected is the choice that says where info is enabled now.
func (p *extensionsPane) scopeSelected(info extensions.Info) string {
	switch {
	case len(info.EnabledProjects) == 0:
		return scopeEverywhere
	case p.here != "" && slices.Equal(info.EnabledProjects, []string{p.here}):
		return scopeHere
	}
	return scopeChosen
}

// projectRow is one project an extension is enabled in, with Remove.
func (p *extensionsPane) projectRow(info extensions.Info, dir string, st *cardState) fyne.CanvasObject {
	label := tildePath(dir)
	if dir == p.here {
		label += "  (this project)"
	}
	remove := &widget.Button{Text: "Remove", Icon: theme.ContentRemoveIcon(), Importance: widget.LowImportance, OnTapped: func() {
		p.run(info.ID, func(ctx context.Context) (string, error) {
			after, err := p.u.d.Extensions.DisableIn(ctx, info.ID, dir)
			if err == nil && !after.Enabled {
				return "Disabled: " + tildePath(dir) + " was the last project it was enabled in.", nil
			}
			return "No longer enabled in " + tildePath(dir) + "; its hooks and servers stopped there.", err
		})
	}}
	if st.busy {
		remove.Disable()
	}
	return container.NewBorder(nil, nil, nil, remove, &widget.Label{Text: label, Truncation: fyne.TextTruncateEllipsis})
}

// onScope applies a choice of the scope section.
func (p *extensionsPane) onScope(info extensions.Info, picked string) {
	if picked == "" || picked == p.scopeSelected(info) || picked == scopeChosen {
		return
	}
	here := p.here
	p.run(info.ID, func(ctx context.Context) (string, error) {
		if picked == scopeEverywhere {
			_, err := p.u.d.Extensions.EnableEverywhere(ctx, info.ID)
			return "Enabled everywhere: active in every project from the next prompt.", err
		}
		dir, err := project.Canonical(here)
		if err != nil {
			return "", fmt.Errorf("this project's folder: %w", err)
		}
		if picked == scopeHere && len(info.EnabledProjects) > 0 {
			// Only this one: the others come off first.
			if _, err := p.u.d.Extensions.AddProject(ctx, info.ID, dir); err != nil {
				return "", err
			}
			for _, other := range info.EnabledProjects {
				if other != dir {
					if _, err := p.u.d.Extensions.DisableIn(ctx, info.ID, other); err != nil {
						return "", err
					}
				}
			}
			return "Enabled only in " + tildePath(dir) + ".", nil
		}
		_, err = p.u.d.Extensions.AddProject(ctx, info.ID, dir)
		return "Enabled in " + tildePath(dir) + " from the next prompt; elsewhere it is as if disabled.", err
	})
}

// serverTools are the tool names a server is known to have: listed since
// trust (pinned), listed now, or switched off.
func serverTools(sv extensions.MCPServer) []string {
	var names []string
	for _, t := range sv.Tools {
		name, _, _ := strings.Cut(t, " (left out: ")
		names = append(names, name)
	}
	names = append(append(names, sv.KnownTools...), sv.ToolsOff...)
	slices.Sort(names)
	return slices.Compact(names)
}

// toolSwitches is one switch per tool of a server, folded: a tool
// switched off is never offered to the model, and a call to it is
// refused. nil when no tool is known yet (the server never listed any).
func (p *extensionsPane) toolSwitches(id string, sv extensions.MCPServer, st *cardState) fyne.CanvasObject {
	names := serverTools(sv)
	if len(names) == 0 {
		return nil
	}
	grid := container.NewGridWithColumns(3)
	for _, name := range names {
		check := &widget.Check{Text: name, Checked: !slices.Contains(sv.ToolsOff, name)}
		check.OnChanged = func(on bool) { p.onToolSwitch(id, sv.Name, name, on) }
		if st.busy {
			check.Disable()
		}
		grid.Add(check)
	}
	title := fmt.Sprintf("Tools of %s: %d, all on", sv.Name, len(names))
	if n := len(sv.ToolsOff); n > 0 {
		title = fmt.Sprintf("Tools of %s: %d, %d switched off", sv.Name, len(names), n)
	}
	open := st.toolsOpen[sv.Name]
	arrow := "▸ "
	if open {
		arrow = "▾ "
	}
	btn := &widget.Button{Text: arrow + title, Alignment: widget.ButtonAlignLeading, Importance: widget.LowImportance,
		OnTapped: func() { st.openTools(sv.Name, !open); p.render() }}
	if !open {
		return btn
	}
	return container.NewVBox(btn, grid)
}

func (p *extensionsPane) onToolSwitch(id, server, tool string, on bool) {
	p.run(id, func(ctx context.Context) (string, error) {
		if err := p.u.d.Extensions.SetToolOff(ctx, id, server, tool, !on); err != nil {
			return "", err
		}
		if on {
			return fmt.Sprintf("Tool %s › %s is on: offered from the next prompt.", server, tool), nil
		}
		return fmt.Sprintf("Tool %s › %s is off: not offered to the model from the next prompt, and a call to it is refused.", server, tool), nil
	})
}
