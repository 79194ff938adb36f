package ui

import (
	"context"
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/safetext"
)

// The header's two menus: recent projects under the project button, the
// server's models under the model button (as in LM Studio's model
// picker).

// maxRecentProjects bounds the project menu.
const maxRecentProjects = 10

// listModelsTimeout bounds asking the server for its models; a local
// server answers in milliseconds, a cloud API in well under a second.
const listModelsTimeout = 5 * time.Second

// recentProject is one entry of the project menu.
type recentProject struct {
	project agent.Project
	missing bool // the folder is gone
}

// onProjectMenu shows the recent projects and Open Folder…; with none
// known yet it goes straight to the folder dialog.
func (c *chatView) onProjectMenu() {
	background(c.u, func(ctx context.Context) ([]recentProject, error) {
		projects, err := c.u.d.Agent.Projects(ctx)
		if err != nil {
			return nil, err
		}
		var out []recentProject
		for _, p := range projects {
			if len(out) == maxRecentProjects {
				break
			}
			_, statErr := os.Stat(p.Path)
			out = append(out, recentProject{project: p, missing: statErr != nil})
		}
		return out, nil
	}, func(recent []recentProject, err error) {
		if err != nil || len(recent) == 0 {
			c.onOpenFolder()
			return
		}
		var items []*fyne.MenuItem
		for _, r := range recent {
			label := tildePath(r.project.Path)
			if r.missing {
				label += " (folder not found)"
			}
			p := r.project
			item := fyne.NewMenuItem(label, func() {
				if p.ID != c.project.ID {
					c.setProject(p)
				}
			})
			item.Checked = p.ID == c.project.ID
			item.Disabled = r.missing
			items = append(items, item)
		}
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Open Folder…", c.onOpenFolder))
		c.showMenu(fyne.NewMenu("Projects", items...), c.projectBtn)
	})
}

// modelChoice is what the model menu offers.
type modelChoice struct {
	current string
	models  []string
	err     error
}

// onModelMenu lists the models the configured server serves; picking one
// saves it as the provider's model for the next turn.
func (c *chatView) onModelMenu() {
	c.setNote("asking the model server for its models…")
	background(c.u, func(ctx context.Context) (modelChoice, error) {
		ctx, cancel := context.WithTimeout(ctx, listModelsTimeout)
		defer cancel()
		choice := modelChoice{current: c.u.d.Model()}
		choice.models, choice.err = c.u.d.ListModels(ctx)
		return choice, nil
	}, func(choice modelChoice, _ error) {
		c.setNote("") // a failure to list is shown in the menu itself
		c.showMenu(modelMenu(choice, c.pickModel, func() { c.u.ShowPreferences(sectionProviders) }), c.modelBtn)
	})
}

// modelMenu builds the model menu: the served models (the current one
// checked, and listed even when the server does not name it), or why none
// could be listed, then the way to the provider settings.
func modelMenu(choice modelChoice, pick func(string), settings func()) *fyne.Menu {
	var items []*fyne.MenuItem
	if choice.err != nil {
		item := fyne.NewMenuItem("Could not list models: "+firstLine(safetext.Strip(choice.err.Error()), 100), nil)
		item.Disabled = true
		items = append(items, item)
	}
	models := choice.models
	found := false
	for _, m := range models {
		found = found || m == choice.current
	}
	if !found && choice.current != "" {
		models = append([]string{choice.current}, models...)
	}
	for _, m := range models {
		item := fyne.NewMenuItem(safetext.Strip(m), func() { pick(m) })
		item.Checked = m == choice.current
		items = append(items, item)
	}
	items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Provider settings…", settings))
	return fyne.NewMenu("Models", items...)
}

// pickModel saves the chosen model; the next turn uses it.
func (c *chatView) pickModel(model string) {
	background(c.u, func(ctx context.Context) (string, error) {
		if err := c.u.d.Agent.Settings().SetModel(ctx, model); err != nil {
			return "", err
		}
		return c.u.d.Model(), nil
	}, func(effective string, err error) {
		if err != nil {
			c.setNote("Model not changed: " + safetext.Strip(err.Error()))
			return
		}
		c.updateModel()
		if effective != model {
			c.setNote(fmt.Sprintf("Saved %s, but %s is used: AGENTDESK_MODEL overrides the saved model", model, effective))
			return
		}
		c.setNote("The next turn uses " + model + ".")
	})
}

// showMenu pops a menu up under the button that opened it.
func (c *chatView) showMenu(menu *fyne.Menu, under fyne.CanvasObject) {
	c.menu = menu
	widget.ShowPopUpMenuAtRelativePosition(menu, c.u.main.Canvas(), fyne.NewPos(0, under.Size().Height), under)
}
