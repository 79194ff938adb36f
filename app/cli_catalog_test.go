//go:build integration

package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// A generated marketplace of 100 plugins (a skill, an agent and a
// command each, no hooks) installed and enabled from a loopback git
// server: the first request's extension part (the skills list and the
// task tool's agents) stays within 10% of a 32k window, and a scripted
// model finds a skill with tool_search and loads it with skill.
func TestMarketplaceCatalogFitsAndLoadsByName(t *testing.T) {
	const n = 100
	market := gittest.NewRepo(t)
	var entries []string
	files := map[string]gittest.File{}
	for i := range n {
		name := fmt.Sprintf("plug%03d", i)
		desc := fmt.Sprintf("Use for plug%03d work: reviews, plans and explains the parts of a project it covers, with examples, checklists and pitfalls.", i)
		entries = append(entries, fmt.Sprintf(`{"name":%q,"description":"plugin %d","version":"1.0.0","source":"./plugins/%s"}`, name, i, name))
		dir := "plugins/" + name + "/"
		files[dir+".claude-plugin/plugin.json"] = gittest.File{Body: `{"name":"` + name + `","version":"1.0.0"}`}
		files[dir+"skills/"+name+"-skill/SKILL.md"] = gittest.File{Body: "---\nname: " + name + "-skill\ndescription: " + desc + "\n---\nSKILL-BODY of " + name + " in ${CLAUDE_SKILL_DIR}.\n"}
		files[dir+"agents/"+name+"-expert.md"] = gittest.File{Body: "---\nname: " + name + "-expert\ndescription: " + desc + "\n---\nYou are an expert.\n"}
		files[dir+"commands/"+name+"-check.md"] = gittest.File{Body: "---\ndescription: " + desc + "\n---\nCheck $ARGUMENTS\n"}
	}
	files[".claude-plugin/marketplace.json"] = gittest.File{Body: `{"name":"big","plugins":[` + strings.Join(entries, ",") + `]}`}
	market.Commit(t, "main", "m", files)
	market.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"market": market})
	server := llmtest.NewOpenAI(t)
	c := newCLI(t, "SSL_CERT_FILE="+srv.CAFile, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m")
	args := []string{"ext", "install", srv.URL + "/market.git"}
	for i := range n {
		args = append(args, "--plugin", fmt.Sprintf("plug%03d", i))
	}
	c.ok(args...)
	for i := range n {
		c.ok("ext", "enable", fmt.Sprintf("plug%03d", i), "--yes")
	}

	server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "tool_search", Args: `{"query":"plug042"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "skill", Args: `{"name":"plug042-skill"}`}}},
		llmtest.Reply{Text: "DONE"},
	)
	out, errOut, code := c.run("", "run", "--project", t.TempDir(), "--approve", "all", "hello")
	if code != 0 || strings.TrimSpace(out) != "DONE" {
		t.Fatalf("run: exit %d, stdout %q\n%s", code, out, errOut)
	}
	reqs := server.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	first := reqs[0]
	skills := first.System[strings.Index(first.System, "# Skills"):]
	if end := strings.Index(skills[1:], "\n\n# "); end >= 0 {
		skills = skills[:end+1]
	}
	var body struct {
		Tools []struct {
			Function struct{ Name, Description string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(first.Raw, &body); err != nil {
		t.Fatal(err)
	}
	task := ""
	for _, tl := range body.Tools {
		if tl.Function.Name == "task" {
			task = tl.Function.Description
		}
	}
	part := len(skills) + len(task)
	t.Logf("first request %d bytes; extension part %d bytes (skills %d, task %d) of 13107", len(first.Raw), part, len(skills), len(task))
	if part > 13107+1024 || task == "" { // the two fixed intros are outside the fitted lists
		t.Errorf("extension part %d bytes over the 32k budget", part)
	}
	if strings.Contains(first.System, c.home) {
		t.Errorf("the system prompt holds store paths")
	}
	if found := last(reqs[1].Messages[len(reqs[1].Messages)-1].ToolResults); !strings.Contains(found, "skill plug042-skill") {
		t.Errorf("tool_search: %q", found)
	}
	loaded := last(reqs[2].Messages[len(reqs[2].Messages)-1].ToolResults)
	if !strings.Contains(loaded, "SKILL-BODY of plug042 in /") || strings.Contains(loaded, "${CLAUDE_SKILL_DIR}") {
		t.Errorf("skill: %q", loaded)
	}
}

func last(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[len(xs)-1]
}
