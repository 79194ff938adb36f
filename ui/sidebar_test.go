package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent"
)

func TestSidebarGroupsSessionsByDay(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.Local)
	at := func(days int, hour int) time.Time {
		return time.Date(2026, 12, 3-days, hour, 0, 0, 0, time.Local)
	}
	list := []agent.SessionInfo{
		{Title: "a", UpdatedAt: at(0, 9)}, {Title: "b", UpdatedAt: at(0, 0)},
		{Title: "c", UpdatedAt: at(1, 23)}, {Title: "d", UpdatedAt: at(3, 12)},
		{Title: "e", UpdatedAt: at(20, 12)}, {Title: "f", UpdatedAt: at(45, 12)},
		{Title: "g", UpdatedAt: time.Date(2025, 6, 1, 12, 0, 0, 0, time.Local)},
	}
	var got []string
	for _, r := range sidebarRows(list, now) {
		if r.heading != "" {
			got = append(got, "# "+r.heading)
		} else {
			got = append(got, list[r.index].Title)
		}
	}
	want := "# Today a b # Yesterday c # Previous 7 days d # Previous 30 days e # October f # June 2025 g"
	if strings.Join(got, " ") != want {
		t.Fatalf("rows = %q\nwant    %q", strings.Join(got, " "), want)
	}
}

func TestSidebarHeadingsAreNotSelectable(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	u := h.open(true)
	for _, title := range []string{"older", "newer"} {
		s, err := h.agent.NewSession(context.Background(), u.chat.project)
		if err != nil {
			t.Fatal(err)
		}
		h.agent.RenameSession(context.Background(), s.ID(), title)
		s.Close()
	}
	u.chat.reloadSessions(false)
	h.loop.waitFor(t, "the sessions", func() bool { return len(u.chat.rows) == 3 })
	if u.chat.rows[0].heading != "Today" {
		t.Fatalf("rows = %+v, want a Today heading first", u.chat.rows)
	}
	u.chat.sessionList.Select(2)
	h.loop.waitFor(t, "the chosen session to open", func() bool {
		return u.chat.session != nil && u.chat.sessions[u.chat.selected].ID == u.chat.session.ID()
	})
	opened := u.chat.session.ID()
	u.chat.sessionList.Select(0) // the heading
	h.loop.runQueued()
	if u.chat.session == nil || u.chat.session.ID() != opened || u.chat.rows[2].index != u.chat.selected {
		t.Fatal("tapping a heading changed the open session")
	}
}
