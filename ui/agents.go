package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
)

// agentsPane lists the subagent types the model may delegate to in the
// current project, each with its source, and every name conflict.
type agentsPane struct {
	u    *UI
	list *widget.Label
}

func newAgentsPane(u *UI) *agentsPane { return &agentsPane{u: u} }

func (a *agentsPane) buildUI() fyne.CanvasObject {
	a.list = &widget.Label{Wrapping: fyne.TextWrapWord}
	intro := newSecondaryLabel("Agents come from enabled extensions (their agents/ folder). The model delegates to one with the task tool: "+
		"it runs with a fresh context, its own instructions and tools, and asks for approval like the conversation does.", fyne.TextWrapWord)
	return container.NewBorder(container.NewVBox(widget.NewLabelWithStyle("Agents", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), intro),
		nil, nil, nil, container.NewVScroll(a.list))
}

func (a *agentsPane) shown() {
	project := a.u.chat.project.Path
	background(a.u, func(ctx context.Context) (lifecycle.AgentSet, error) {
		return a.u.d.Agent.Subagents(project), nil
	}, func(set lifecycle.AgentSet, _ error) {
		a.list.SetText(safetext.Strip(agentSetText(set))) // names and descriptions are the packages'

	})
}

// agentSetText is the Agents section: one entry per agent, with its
// source, tools and model as the agent file gives them.
func agentSetText(set lifecycle.AgentSet) string {
	if len(set.Agents) == 0 {
		return "No agents: no enabled extension has an agents/ folder. Without agents the model is not offered the task tool."
	}
	var b strings.Builder
	for _, ag := range set.Agents {
		source := "built in"
		if ag.Extension != "" {
			source = "extension " + ag.Label
		}
		fmt.Fprintf(&b, "%s  [%s]\n    %s\n", ag.Name, source, firstLine(ag.Description, 200))
		if ag.Tools != nil {
			fmt.Fprintf(&b, "    tools: %s\n", agent.ToolsText(ag.Tools))
		}
		if ag.Model != "" {
			fmt.Fprintf(&b, "    model: %s\n", ag.Model)
		}
		b.WriteString("\n")
	}
	for _, c := range set.Conflicts {
		fmt.Fprintf(&b, "conflict: %q is defined by %s; each is offered as EXTENSION:%s\n", c.Name, strings.Join(c.Sources, " and "), c.Name)
	}
	return b.String()
}

// agentLines lists an extension's agents for its card.
func agentLines(agents []extensions.Agent) []string {
	var out []string
	for _, a := range agents {
		line := a.Name + " — " + firstLine(a.Description, 120)
		if a.Tools != nil {
			line += "\n    tools: " + agent.ToolsText(a.Tools)
		}
		if a.Model != "" {
			line += "\n    model: " + a.Model
		}
		out = append(out, line)
	}
	return out
}
