package ui

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Preferences sections, in the order of the list on the left.
const (
	sectionProviders  = "Providers"
	sectionApprovals  = "Approvals"
	sectionExtensions = "Agent Extensions"
	sectionSkills     = "Skills"
	sectionAgents     = "Agents"
	sectionAdvanced   = "Advanced"
)

var sections = []string{sectionProviders, sectionApprovals, sectionExtensions, sectionSkills, sectionAgents, sectionAdvanced}

// Sections lists the Preferences sections by name.
func Sections() []string { return slices.Clone(sections) }

// SectionNamed finds a section by name, ignoring case; a single word of it
// is enough ("extensions" is Agent Extensions).
func SectionNamed(name string) (string, bool) {
	name = strings.TrimSpace(name)
	for _, s := range sections {
		if strings.EqualFold(s, name) {
			return s, true
		}
	}
	for _, s := range sections {
		for _, word := range strings.Fields(s) {
			if strings.EqualFold(word, name) {
				return s, true
			}
		}
	}
	return "", false
}

// prefsPane is one section's content.
type prefsPane interface {
	buildUI() fyne.CanvasObject
	// shown is called each time the section is selected, to reload it.
	shown()
}

// prefsWindow is the Preferences window: a section list on the left, the
// selected section on the right.
type prefsWindow struct {
	u       *UI
	win     fyne.Window
	list    *widget.List
	content *fyne.Container
	panes   map[string]prefsPane
	objects map[string]fyne.CanvasObject
	ext     *extensionsPane
}

func newPrefsWindow(u *UI) *prefsWindow {
	p := &prefsWindow{u: u, panes: map[string]prefsPane{}, objects: map[string]fyne.CanvasObject{}}
	p.ext = newExtensionsPane(u)
	p.panes[sectionProviders] = newProvidersPane(u)
	p.panes[sectionApprovals] = newApprovalsPane(u)
	p.panes[sectionExtensions] = p.ext
	p.panes[sectionSkills] = newSkillsPane(u)
	p.panes[sectionAgents] = newAgentsPane(u)
	p.panes[sectionAdvanced] = newAdvancedPane(u)
	p.win = u.d.App.NewWindow("Preferences")
	p.win.Resize(fyne.NewSize(980, 680))
	p.win.SetContent(p.buildUI())
	p.win.SetCloseIntercept(p.win.Hide)
	closeKeys(p.win, p.win.Hide)
	return p
}

func (p *prefsWindow) buildUI() fyne.CanvasObject {
	p.content = container.NewStack()
	p.list = &widget.List{
		Length:     func() int { return len(sections) },
		CreateItem: func() fyne.CanvasObject { return widget.NewLabel("Agent Extensions") },
		UpdateItem: func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(sections[id]) },
		OnSelected: func(id widget.ListItemID) { p.showSection(sections[id]) },
	}
	split := container.NewHSplit(p.list, p.content)
	split.Offset = 0.2
	return split
}

func (p *prefsWindow) showSection(section string) {
	pane, ok := p.panes[section]
	if !ok {
		return
	}
	obj, built := p.objects[section]
	if !built {
		obj = pane.buildUI()
		p.objects[section] = obj
	}
	p.content.Objects = []fyne.CanvasObject{obj}
	p.content.Refresh()
	pane.shown()
}

// show opens the window on a section (by SectionNamed); an unknown name
// keeps the current section, or the first one.
func (p *prefsWindow) show(section string) {
	name, ok := SectionNamed(section)
	if !ok && p.content.Objects == nil {
		name, ok = sections[0], true
	}
	if ok {
		p.list.Select(slices.Index(sections, name))
	}
	p.win.Show()
	p.win.RequestFocus()
}

// close stops the pane's work. The window itself goes with the app: the
// main window is the master, and after the run loop has ended a window
// may no longer be touched (GLFW is terminated).
func (p *prefsWindow) close() {
	p.ext.close()
}
