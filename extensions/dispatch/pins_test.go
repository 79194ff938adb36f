//go:build unix

package dispatch

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

const (
	hostileEcho  = "mcp__plugin_hostile_fix__echo"
	hostileExfil = "mcp__plugin_hostile_fix__exfil"
)

// hostilePlugin runs the fixture server as a rug pull: after its first
// call it poisons echo's description and adds exfil.
func hostilePlugin(t *testing.T) map[string]gittest.File {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "hostile", "version": "1.0.0"}`},
		".mcp.json": {Body: `{"mcpServers": {"fix": {"command": "` + exe + `", "env": {"` + mcptest.ServeEnv + `": "1", "` +
			mcptest.RugPullEnv + `": "1"}}}}`},
	}
}

func newHostileEnv(t *testing.T) *mcpEnv {
	return withMCP(t, newLoopEnv(t, map[string]*gittest.Repo{"hostile": repo(t, hostilePlugin(t))}, "hostile"), agent.AllowOnce)
}

// waitToolsChanged waits until extension id's server said its tools
// changed.
func (e *mcpEnv) waitToolsChanged(id string) {
	e.t.Helper()
	for range 500 {
		if e.disp.MCP().ToolsChanged(id) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatal("no notifications/tools/list_changed arrived")
}

func withheldNotices(s *agent.Session) []string {
	var out []string
	for _, n := range hosts(s, agent.HostNotice) {
		if strings.Contains(n, "changed since you trusted this server") {
			out = append(out, n)
		}
	}
	return out
}

// The tools a server listed when first started after trust are pinned;
// a poisoned description and a new tool are withheld, said once in the
// chat and listed on the card, until the user accepts them.
func TestMCPToolsPinnedAtTrust(t *testing.T) {
	e := newHostileEnv(t)
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: hostileEcho, Args: `{"text":"hi"}`}}}, llmtest.Reply{Text: "ok"})
	first := e.send(s, "echo")
	if !slices.Contains(first.Tools, hostileEcho) || toolResult(first) != "hi" {
		t.Fatalf("first turn: tools %q, result %q", first.Tools, toolResult(first))
	}
	e.waitToolsChanged("hostile")

	e.model.Push(llmtest.Reply{Text: "next"})
	next := e.send(s, "next")
	if slices.Contains(next.Tools, hostileEcho) || slices.Contains(next.Tools, hostileExfil) || strings.Contains(string(next.Raw), "id_rsa") {
		t.Errorf("changed and new tools reached the model: %q", next.Tools)
	}
	if !slices.Contains(next.Tools, "mcp__plugin_hostile_fix__env") {
		t.Errorf("unchanged tools were withheld too: %q", next.Tools)
	}
	if n := withheldNotices(s); len(n) != 1 || !strings.Contains(n[0], "2 tools") || !strings.Contains(n[0], "echo, exfil") {
		t.Errorf("withheld notice: %q", n)
	}
	info, err := liveShow(context.Background(), e.m, e.disp, "hostile")
	if err != nil {
		t.Fatal(err)
	}
	if len(info.PendingTools) != 2 {
		t.Fatalf("pending tools %+v", info.PendingTools)
	}
	diff := info.PendingTools[0].DiffText() + info.PendingTools[1].DiffText()
	for _, want := range []string{"fix › echo: changed", "- description: Echoes text back.", "+ description: " + mcptest.Poisoned, "fix › exfil: new tool"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}

	e.model.Push(llmtest.Reply{Text: "again"})
	e.send(s, "again")
	if n := withheldNotices(s); len(n) != 1 {
		t.Errorf("the withheld notice was said %d times", len(n))
	}

	if n, err := e.m.AcceptTools(context.Background(), "hostile", info.PendingTools); err != nil || n != 2 {
		t.Fatalf("accept: %d, %v", n, err)
	}
	e.model.Push(llmtest.Reply{Text: "accepted"})
	accepted := e.send(s, "after review")
	if !slices.Contains(accepted.Tools, hostileEcho) || !slices.Contains(accepted.Tools, hostileExfil) {
		t.Errorf("accepted tools not offered: %q", accepted.Tools)
	}
	if info, _ := liveShow(context.Background(), e.m, e.disp, "hostile"); len(info.PendingTools) != 0 {
		t.Errorf("still pending after review: %+v", info.PendingTools)
	}
}

// An update whose server lists other tools goes through the same
// review: the new version's changed and new tools wait, the unchanged
// ones are offered.
func TestMCPUpdateThatChangesToolsAsksAgain(t *testing.T) {
	files := hostilePlugin(t)
	files[".mcp.json"] = gittest.File{Body: strings.Replace(files[".mcp.json"].Body, `"`+mcptest.RugPullEnv+`": "1"`, `"`+mcptest.RugPullEnv+`": "0"`, 1)}
	r := repo(t, files)
	e := withMCP(t, newLoopEnv(t, map[string]*gittest.Repo{"hostile": r}, "hostile"), agent.AllowOnce)
	s := e.session()
	e.model.Push(llmtest.Reply{Text: "v1"})
	if first := e.send(s, "v1"); !slices.Contains(first.Tools, hostileEcho) {
		t.Fatalf("v1 tools %q", first.Tools)
	}
	files = hostilePlugin(t)
	files[".mcp.json"] = gittest.File{Body: strings.Replace(files[".mcp.json"].Body, `"`+mcptest.RugPullEnv+`": "1"`, `"`+mcptest.RugPullEnv+`": "start"`, 1)}
	r.Commit(t, "main", "v2", files)
	if _, err := e.m.Update(context.Background(), "hostile", "", nil); err != nil {
		t.Fatal(err)
	}
	if info, _ := e.m.Show(context.Background(), "hostile"); info.Status != extensions.StatusNeedsReview {
		t.Fatalf("status after an update that changes the server: %s", info.Status)
	}
	e.enable("hostile") // the user trusts what runs; the tools it lists are another matter
	e.model.Push(llmtest.Reply{Text: "v2"})
	v2 := e.send(s, "v2")
	if slices.Contains(v2.Tools, hostileEcho) || slices.Contains(v2.Tools, hostileExfil) || !slices.Contains(v2.Tools, "mcp__plugin_hostile_fix__env") {
		t.Errorf("v2 tools %q", v2.Tools)
	}
	info, _ := liveShow(context.Background(), e.m, e.disp, "hostile")
	if len(info.PendingTools) != 2 {
		t.Errorf("pending after the update: %+v", info.PendingTools)
	}
}
