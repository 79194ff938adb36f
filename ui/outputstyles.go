package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
)

// styleLines are an extension's output styles on its card and in the
// trust dialog: the name to choose (EXT:NAME, a project's bare) and what
// choosing it does to the system prompt.
func styleLines(id string, styles []extensions.OutputStyle) []string {
	var out []string
	for _, s := range styles {
		line := extensions.StyleName(id, s.Name)
		if s.Description != "" {
			line += " — " + firstLine(s.Description, 120)
		}
		if s.KeepCodingInstructions {
			line += "\n    added to the coding instructions"
		} else {
			line += "\n    replaces the coding instructions"
		}
		out = append(out, line)
	}
	return out
}

// styleChoice is the "Output style" field of Preferences → Providers:
// Default and the styles the open project's session may use, the
// selected one's description and effect below it.
type styleChoice struct {
	sel   *widget.Select
	about *secondaryLabel
	names map[string]string // option label → style name ("" is Default)
	info  map[string]lifecycle.OutputStyle
}

func newStyleChoice() *styleChoice {
	c := &styleChoice{about: newSecondaryLabel("", fyne.TextWrapWord)}
	c.sel = &widget.Select{Options: []string{agent.DefaultStyle}, OnChanged: c.onChanged}
	return c
}

func (c *styleChoice) widget() fyne.CanvasObject { return container.NewVBox(c.sel, c.about) }

// fill offers styles and selects current (a stored name no longer offered
// stays choosable, marked, so saving the other fields keeps it).
func (c *styleChoice) fill(styles []lifecycle.OutputStyle, current string) {
	c.names = map[string]string{agent.DefaultStyle: ""}
	c.info = map[string]lifecycle.OutputStyle{}
	options := []string{agent.DefaultStyle}
	selected := agent.DefaultStyle
	for _, s := range styles {
		options = append(options, s.Name)
		c.names[s.Name], c.info[s.Name] = s.Name, s
		if s.Name == current {
			selected = s.Name
		}
	}
	if current != "" && selected == agent.DefaultStyle {
		selected = current + " (not offered here: Default applies)"
		options = append(options, selected)
		c.names[selected] = current
	}
	c.sel.Options = options
	c.sel.SetSelected(selected)
}

// chosen is the style name to store.
func (c *styleChoice) chosen() string { return c.names[c.sel.Selected] }

func (c *styleChoice) onChanged(label string) {
	s, ok := c.info[label]
	switch {
	case label == agent.DefaultStyle:
		c.about.SetText("AgentDesk's own: the coding instructions, short answers.")
	case !ok:
		c.about.SetText("Its extension is disabled or uninstalled, or it is another project's.")
	case s.KeepCodingInstructions:
		c.about.SetText(styleAbout(s, "Added to the coding instructions."))
	default:
		c.about.SetText(styleAbout(s, "Replaces the coding instructions (tools, approvals and safety rules stay)."))
	}
}

func styleAbout(s lifecycle.OutputStyle, effect string) string {
	text := "From " + s.Label + ". " + effect
	if s.Description != "" {
		text = firstLine(s.Description, 200) + "\n" + text
	}
	return text
}
