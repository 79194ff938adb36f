//go:build xvfb

package main

import (
	"strconv"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// TestXvfbMenuAndAbout opens the main menu and Help › About in the real
// app and keeps screenshots of both (docs/screenshots/menu.png,
// about.png come from these). The menu bar is drawn in the window at its
// top left; the positions are the menu titles' there.
func TestXvfbMenuAndAbout(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	x := startXvfb(t)
	env := []string{"AGENTDESK_BASE_URL=" + server.URL, "AGENTDESK_MODEL=" + llmtest.ModelName}
	a, win := startAppWindow(t, x, env, "AgentDesk — project")
	a.dump("Ask anything about this project")

	x.click(win, 20, 12) // File
	time.Sleep(500 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "menu.png"))
	x.keys(win, "Escape")
	time.Sleep(300 * time.Millisecond)

	x.click(win, 150, 12) // Help
	time.Sleep(500 * time.Millisecond)
	t.Logf("screenshot: %s", x.screenshot(win, "menu-help.png"))
	x.click(win, 190, 75) // About AgentDesk, the second item
	a.dump("Built with these libraries")
	t.Logf("screenshot: %s", x.screenshot(win, "about.png"))
	a.quit()

}

// click clicks at a position inside a window.
func (x *xserver) click(win string, px, py int) {
	x.t.Helper()
	if out, err := x.run("xdotool", "mousemove", "--window", win, strconv.Itoa(px), strconv.Itoa(py), "click", "1"); err != nil {
		x.t.Fatalf("xdotool click: %v %s", err, out)
	}
}
