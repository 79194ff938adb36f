package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestExtEnabledPerProject: in one home, an extension enabled with
// --project is active in that project only (its skill reaches the
// model's system prompt in A, not in B), the folder is keyed with its
// symlinks resolved, projects add up and come off one by one, the last
// one off disables it, and a plain enable makes it everywhere again.
func TestExtEnabledPerProject(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	c, url := cliWithRepo(t, "scoped", map[string]gittest.File{
		".claude-plugin/plugin.json":   {Body: `{"name": "scoped"}`},
		"skills/scoped-skill/SKILL.md": {Body: "---\nname: scoped-skill\ndescription: SCOPED-SKILL-DESC\n---\nbody\n"},
	})
	c.env = append(c.env, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m", "AGENTDESK_API_KEY=k")
	c.ok("ext", "install", url)
	a, b := canonicalTemp(t), canonicalTemp(t)
	link := filepath.Join(t.TempDir(), "link-to-a")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	if out := c.ok("ext", "enable", "scoped", "--project", link, "--yes"); !strings.Contains(out, "in: "+a) {
		t.Fatalf("enable --project:\n%s", out)
	}
	if got := c.show("scoped").EnabledProjects; !reflect.DeepEqual(got, []string{a}) {
		t.Fatalf("enabled_projects = %v, want [%s]", got, a)
	}
	server.Push(llmtest.Reply{Text: "a"}, llmtest.Reply{Text: "b"}, llmtest.Reply{Text: "b2"})
	c.ok("run", "--project", a, "hi")
	c.ok("run", "--project", b, "hi")
	reqs := server.Requests()
	if !strings.Contains(reqs[0].System, "SCOPED-SKILL-DESC") {
		t.Errorf("project A's request lacks the extension's skill:\n%s", reqs[0].System)
	}
	if strings.Contains(reqs[1].System, "SCOPED-SKILL-DESC") {
		t.Errorf("project B's request has the skill of an extension enabled only in A")
	}

	// B's settings ask for the plugin: proposed, with the command, never enabled.
	os.MkdirAll(filepath.Join(b, ".claude"), 0o755)
	os.WriteFile(filepath.Join(b, ".claude", "settings.json"), []byte(`{"enabledPlugins": {"scoped@market": true, "absent@market": true}}`), 0o644)
	if out := c.ok("project", "show", b); !strings.Contains(out, "This project asks for plugins scoped") ||
		!strings.Contains(out, "agentdesk ext enable scoped --project "+b) || !strings.Contains(out, "not installed: absent@market") {
		t.Errorf("project show does not propose the plugin:\n%s", out)
	}
	if got := c.show("scoped").EnabledProjects; !reflect.DeepEqual(got, []string{a}) {
		t.Fatalf("the proposal changed where it is enabled: %v", got)
	}
	c.ok("ext", "enable", "scoped", "--project", b, "--yes")
	if out := c.ok("project", "show", b); strings.Contains(out, "asks for plugins scoped") {
		t.Errorf("still proposed once enabled in B:\n%s", out)
	}
	if got := c.show("scoped").EnabledProjects; !reflect.DeepEqual(got, []string{a, b}) {
		t.Fatalf("after adding B: enabled_projects = %v", got)
	}
	if out := c.ok("ext", "list"); !strings.Contains(out, a+", "+b) {
		t.Errorf("list does not say where it is enabled:\n%s", out)
	}
	if out := c.ok("ext", "disable", "scoped", "--project", a); !strings.Contains(out, "still enabled in: "+b) {
		t.Errorf("disable --project A:\n%s", out)
	}
	c.ok("run", "--project", b, "hi")
	if reqs := server.Requests(); !strings.Contains(reqs[2].System, "SCOPED-SKILL-DESC") {
		t.Errorf("after adding B, its request lacks the skill")
	}
	if out := c.ok("ext", "disable", "scoped", "--project", b); !strings.Contains(out, "last project") {
		t.Errorf("disable of the last project:\n%s", out)
	}
	if info := c.show("scoped"); info.Enabled || len(info.EnabledProjects) != 0 {
		t.Fatalf("after the last project: enabled %v in %v", info.Enabled, info.EnabledProjects)
	}

	c.ok("ext", "enable", "scoped", "--yes")
	if out := c.ok("ext", "show", "scoped"); !strings.Contains(out, "enabled in: everywhere") {
		t.Errorf("plain enable is not everywhere:\n%s", out)
	}
	if _, errOut, code := c.run("", "ext", "disable", "scoped", "--project", a); code == 0 || !strings.Contains(errOut, "enabled everywhere") {
		t.Errorf("disable --project of an extension enabled everywhere: exit %d %s", code, errOut)
	}
}

// TestExtToolSwitch: `ext tool` switches one MCP tool off and on, ext
// show --json lists it in tools_off, and an undeclared server is refused.
func TestExtToolSwitch(t *testing.T) {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", fixture(t))
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"fixture": r})
	c := newCLI(t, "SSL_CERT_FILE="+srv.CAFile)
	c.ok("ext", "install", srv.URL+"/fixture.git")
	if out := c.ok("ext", "tool", "fixture", "never", "echo", "off"); !strings.Contains(out, "switched off") {
		t.Fatalf("tool off: %s", out)
	}
	if got := c.show("fixture").MCPServers[0].ToolsOff; !reflect.DeepEqual(got, []string{"echo"}) {
		t.Fatalf("tools_off = %v", got)
	}
	if out := c.ok("ext", "show", "fixture"); !strings.Contains(out, "switched off (never offered): echo") {
		t.Errorf("ext show does not name the switched-off tool:\n%s", out)
	}
	c.ok("ext", "tool", "fixture", "never", "echo", "on")
	if got := c.show("fixture").MCPServers[0].ToolsOff; len(got) != 0 {
		t.Fatalf("tools_off after on = %v", got)
	}
	if _, errOut, code := c.run("", "ext", "tool", "fixture", "nope", "echo", "off"); code == 0 || !strings.Contains(errOut, "declares no MCP server") {
		t.Errorf("undeclared server: exit %d %s", code, errOut)
	}
	if _, _, code := c.run("", "ext", "tool", "fixture", "never", "echo"); code != 2 {
		t.Errorf("missing on|off: exit %d, want 2", code)
	}
}

func canonicalTemp(t *testing.T) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
