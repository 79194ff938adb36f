package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/skills"
)

// skillsPane lists the skills the agent sees in the current project, each
// with its source, and every conflict with how it was resolved.
type skillsPane struct {
	u    *UI
	list *widget.Label
}

func newSkillsPane(u *UI) *skillsPane { return &skillsPane{u: u} }

func (s *skillsPane) buildUI() fyne.CanvasObject {
	s.list = &widget.Label{Wrapping: fyne.TextWrapWord}
	intro := newSecondaryLabel("Skills come from ~/.agents/skills, the project's .agents/skills, and enabled extensions, in that order: when two share a name, the first wins.",
		fyne.TextWrapWord)
	return container.NewBorder(container.NewVBox(widget.NewLabelWithStyle("Skills", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), intro),
		nil, nil, nil, container.NewVScroll(s.list))
}

func (s *skillsPane) shown() {
	project := s.u.chat.project.Path
	background(s.u, func(ctx context.Context) (skills.Catalog, error) {
		return s.u.d.Agent.Catalog(project), nil
	}, func(c skills.Catalog, _ error) {
		s.list.SetText(catalogText(c, project))
	})
}

func catalogText(c skills.Catalog, project string) string {
	var b strings.Builder
	if project == "" {
		b.WriteString("(no project open: project skills are not shown)\n\n")
	}
	if len(c.Skills) == 0 {
		b.WriteString("No skills found.")
	}
	for _, sk := range c.Skills {
		fmt.Fprintf(&b, "%s  [%s]\n    %s\n    %s\n\n", sk.Name, sk.Source, sk.Description, sk.File())
	}
	for _, cf := range c.Conflicts {
		var losers []string
		for _, l := range cf.Losers {
			losers = append(losers, l.Source)
		}
		fmt.Fprintf(&b, "conflict: %q is defined by %s (used) and %s (ignored)\n", cf.Name, cf.Winner.Source, strings.Join(losers, ", "))
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}
