package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/skills"
)

// The model finds a skill with tool_search and loads it with skill by
// name: the prompt holds no path, the skill's text comes back with its
// variables replaced; an unknown name lists close names, and a skill
// whose SKILL.md vanished is an error that breaks nothing else.
func TestSkillAndToolSearch(t *testing.T) {
	e := newEnv(t)
	plugin := filepath.Join(t.TempDir(), "store", "ext", "abc123")
	skillDir := filepath.Join(plugin, "skills", "deploy")
	os.MkdirAll(skillDir, 0o755)
	os.WriteFile(filepath.Join(skillDir, "SKILL.md"), []byte("---\nname: deploy\ndescription: Ship the app to production\n---\nRun ${CLAUDE_SKILL_DIR}/go.sh.\n"), 0o644)
	otherDir := filepath.Join(plugin, "skills", "lint")
	os.MkdirAll(otherDir, 0o755)
	os.WriteFile(filepath.Join(otherDir, "SKILL.md"), []byte("---\nname: lint\ndescription: Lint the code\n---\nLint it.\n"), 0o644)
	e.life.roots = []skills.Root{{Dir: filepath.Join(plugin, "skills"), Source: "extension ext", PluginRoot: plugin}}
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "tool_search", Args: `{"query":"production"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "skill", Args: `{"name":"deploy"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "skill", Args: `{"name":"deplo"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "skill", Args: `{"name":"lint"}`}}},
		llmtest.Reply{Text: "ok"},
	)
	s := e.newSession()
	e.send(s, "ship it")
	reqs := e.server.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	if strings.Contains(reqs[0].System, plugin) {
		t.Errorf("the system prompt holds an absolute skill path:\n%s", reqs[0].System)
	}
	if !strings.Contains(reqs[0].System, "deploy — Ship the app to production") {
		t.Errorf("the skill is not listed:\n%s", reqs[0].System)
	}
	found := last(toolResults(reqs[1]))
	if !strings.Contains(found, "skill deploy") || !strings.Contains(found, `skill tool: {"name": "deploy"}`) {
		t.Errorf("tool_search: %q", found)
	}
	loaded := last(toolResults(reqs[2]))
	if !strings.Contains(loaded, "Run "+skillDir+"/go.sh.") || !strings.Contains(loaded, "folder is "+skillDir) {
		t.Errorf("skill deploy: %q", loaded)
	}
	if unknown := last(toolResults(reqs[3])); !strings.Contains(unknown, `no skill named "deplo"; close names: deploy`) {
		t.Errorf("skill deplo: %q", unknown)
	}
	if errs := hostTexts(s, HostError); len(errs) > 0 {
		t.Fatalf("turn failed: %v", errs)
	}

	os.Remove(filepath.Join(otherDir, "SKILL.md"))
	e.server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "skill", Args: `{"name":"lint"}`}, {Name: "skill", Args: `{"name":"deploy"}`}}},
		llmtest.Reply{Text: "done"})
	e.send(s, "lint it")
	reqs = e.server.Requests()
	results := toolResults(reqs[len(reqs)-1])
	results = results[max(0, len(results)-2):]
	if len(results) != 2 || !strings.Contains(results[0], "gone") || !strings.Contains(results[1], "Run "+skillDir) {
		t.Errorf("after lint's SKILL.md vanished: %q", results)
	}
	if errs := hostTexts(s, HostError); len(errs) > 0 {
		t.Fatalf("turn failed: %v", errs)
	}
}

// last is the newest tool result of a request.
func last(results []string) string {
	if len(results) == 0 {
		return ""
	}
	return results[len(results)-1]
}
