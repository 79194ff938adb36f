package ui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
)

// sidebarRow is one row of the sessions sidebar: a day heading, or the
// session at index in chatView.sessions.
type sidebarRow struct {
	heading string
	index   int
}

func (c *chatView) buildSidebar() fyne.CanvasObject {
	newBtn := &widget.Button{Text: "New", Icon: theme.ContentAddIcon(), OnTapped: c.onNewSession}
	c.sessionList = &widget.List{
		Length: func() int { return len(c.rows) },
		CreateItem: func() fyne.CanvasObject {
			return &widget.Label{Truncation: fyne.TextTruncateEllipsis}
		},
		UpdateItem: func(id widget.ListItemID, o fyne.CanvasObject) {
			l, r := o.(*widget.Label), c.rows[id]
			if r.heading != "" {
				l.Text, l.TextStyle, l.Importance = r.heading, fyne.TextStyle{Bold: true}, widget.MediumImportance
			} else {
				l.Text, l.TextStyle, l.Importance = c.sessions[r.index].Title, fyne.TextStyle{}, widget.MediumImportance
			}
			l.Refresh()
		},
		OnSelected: func(id widget.ListItemID) {
			if id < 0 || id >= len(c.rows) {
				return
			}
			if c.rows[id].heading != "" { // headings are not choices: keep the open session selected
				c.sessionList.Unselect(id)
				if c.selected >= 0 {
					c.sessionList.Select(c.rowOf(c.selected))
				}
				return
			}
			c.onSelectSession(c.rows[id].index)
		},
	}
	c.renameBtn = &widget.Button{Icon: theme.DocumentCreateIcon(), Importance: widget.LowImportance, OnTapped: c.onRename}
	c.deleteBtn = &widget.Button{Icon: theme.DeleteIcon(), Importance: widget.LowImportance, OnTapped: c.onDelete}
	header := container.NewBorder(nil, nil, widget.NewLabelWithStyle("Sessions", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), newBtn)
	return container.NewBorder(header, container.NewHBox(c.renameBtn, c.deleteBtn), nil, nil, c.sessionList)
}

// setSessions shows a project's sessions (most recent first) under day
// headings.
func (c *chatView) setSessions(list []agent.SessionInfo) {
	c.sessions = list
	c.rows = sidebarRows(list, time.Now())
	c.sessionList.UnselectAll()
	c.sessionList.Refresh()
}

// rowOf is the sidebar row of the session at index i.
func (c *chatView) rowOf(i int) widget.ListItemID {
	for row, r := range c.rows {
		if r.heading == "" && r.index == i {
			return row
		}
	}
	return -1
}

// sidebarRows groups sessions, most recent first, under the headings chat
// apps use: Today, Yesterday, Previous 7 days, Previous 30 days, then one
// per month.
func sidebarRows(list []agent.SessionInfo, now time.Time) []sidebarRow {
	var rows []sidebarRow
	last := ""
	for i, s := range list {
		if h := dayHeading(s.UpdatedAt, now); h != last {
			rows = append(rows, sidebarRow{heading: h})
			last = h
		}
		rows = append(rows, sidebarRow{index: i})
	}
	return rows
}

func dayHeading(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	switch {
	case !t.Before(today):
		return "Today"
	case !t.Before(today.AddDate(0, 0, -1)):
		return "Yesterday"
	case !t.Before(today.AddDate(0, 0, -7)):
		return "Previous 7 days"
	case !t.Before(today.AddDate(0, 0, -30)):
		return "Previous 30 days"
	case t.Year() == now.Year():
		return t.Format("January")
	}
	return t.Format("January 2006")
}
