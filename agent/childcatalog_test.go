package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/skills"
)

// A subagent gets the session's fitted skills listing (no store paths,
// within the budget) and the skill and tool_search tools, as its
// allowlist grants them: the general-purpose agent (no list) all the
// skills, an agent with a tools list only the skills it names.
func TestChildGetsTheFittedListingAndTheSkillTool(t *testing.T) {
	plugin := filepath.Join(t.TempDir(), "store", "ext", "abc123")
	skillDir := pluginSkill(t, plugin, "deploy", "Ship the app to production", "Run ${CLAUDE_SKILL_DIR}/go.sh.")
	for i := range 300 {
		pluginSkill(t, plugin, fmt.Sprintf("filler-%03d", i), strings.Repeat("A filler skill that does many things. ", 4), "Filler.")
	}
	deployer := lifecycle.Agent{Name: "deployer", Type: "fx:deployer", Extension: "fx", Description: "Deploys",
		Tools: []string{"Read"}, Skills: []string{"deploy"}, Prompt: "DEPLOYER BODY"}
	e := agentEnv(t, deployer)
	e.window = listing.DefaultWindow // a 32k model: 300 skills do not fit in full
	e.life.roots = []skills.Root{{Dir: filepath.Join(plugin, "skills"), Source: "extension fx", PluginRoot: plugin}}
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"general-purpose","description":"ship","prompt":"Ship it."}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "skill", Args: `{"name":"deploy"}`}}},
		llmtest.Reply{Text: "CHILD DONE"},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"deployer","description":"ship","prompt":"Ship it."}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "tool_search", Args: `{"query":"filler"}`}, {Name: "skill", Args: `{"name":"deploy"}`}}},
		llmtest.Reply{Text: "DEPLOYER DONE"},
		llmtest.Reply{Text: "all done"},
	)
	s := e.newSession()
	e.send(s, "ship it")
	if errs := hostTexts(s, HostError); len(errs) > 0 {
		t.Fatalf("turn failed: %v", errs)
	}
	reqs := e.server.Requests()
	if len(reqs) != 7 {
		t.Fatalf("%d requests, want 7 (parent, child ×2, parent, child ×2, parent)", len(reqs))
	}
	general, deploying := reqs[1], reqs[4]
	for name, r := range map[string]llmtest.Request{"general-purpose": general, "deployer": deploying} {
		if strings.Contains(r.System, plugin) {
			t.Errorf("%s: the child's system prompt holds a store path:\n%.2000s", name, r.System)
		}
		if !strings.Contains(r.System, "deploy — Ship the app to production") || !strings.Contains(r.System, "`skill` tool") {
			t.Errorf("%s: the child's system prompt does not list deploy by the fitted listing:\n%.2000s", name, r.System)
		}
		if !slices.Contains(r.Tools, "skill") || !slices.Contains(r.Tools, "tool_search") {
			t.Errorf("%s: child tools %q lack skill and tool_search", name, r.Tools)
		}
	}
	if list := skillsPart(general.System); len(list) > listing.Budget(listing.DefaultWindow) || !strings.Contains(list, "filler-299") ||
		!strings.Contains(list, "names only") {
		t.Errorf("general-purpose: the skills part is %d bytes (budget %d) or does not name the rest:\n%.3000s",
			len(list), listing.Budget(listing.DefaultWindow), list)
	}
	if strings.Contains(deploying.System, "filler-") || !slices.Equal(deploying.Tools, []string{"read_file", "skill", "tool_search"}) {
		t.Errorf("deployer: sees skills it does not name, or tools %q are not [read_file skill tool_search]", deploying.Tools)
	}
	if got := last(toolResults(reqs[2])); !strings.Contains(got, "Run "+skillDir+"/go.sh.") {
		t.Errorf("general-purpose's skill deploy: %q", got)
	}
	results := toolResults(reqs[5])
	if len(results) != 2 || !strings.Contains(results[0], "nothing matches") || !strings.Contains(results[1], "Run "+skillDir+"/go.sh.") {
		t.Errorf("deployer's tool_search filler and skill deploy: %q", results)
	}
}

// A child whose agent disallows Skill lists no skills and cannot load one.
func TestChildWithoutSkillGetsNoListing(t *testing.T) {
	plugin := filepath.Join(t.TempDir(), "store", "ext", "abc123")
	pluginSkill(t, plugin, "deploy", "Ship the app to production", "Run it.")
	noSkills := lifecycle.Agent{Name: "plain", Type: "fx:plain", Extension: "fx", Description: "Plain",
		Skills: []string{"deploy"}, DisallowedTools: []string{"Skill"}, Prompt: "PLAIN BODY"}
	e := agentEnv(t, noSkills)
	e.life.roots = []skills.Root{{Dir: filepath.Join(plugin, "skills"), Source: "extension fx", PluginRoot: plugin}}
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"plain","description":"ship","prompt":"Ship it."}`}}},
		llmtest.Reply{Text: "CHILD DONE"},
		llmtest.Reply{Text: "all done"},
	)
	s := e.newSession()
	e.send(s, "ship it")
	reqs := e.server.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if child := reqs[1]; strings.Contains(child.System, "deploy") || slices.Contains(child.Tools, "skill") || slices.Contains(child.Tools, "tool_search") {
		t.Errorf("a child without Skill got the listing or the catalog tools %q:\n%s", child.Tools, child.System)
	}
}

// pluginSkill writes plugin/skills/name/SKILL.md and returns its folder.
func pluginSkill(t *testing.T, plugin, name, desc, body string) string {
	t.Helper()
	dir := filepath.Join(plugin, "skills", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// skillsPart is the system prompt's skills list, after its intro up to
// the next section.
func skillsPart(system string) string {
	_, after, ok := strings.Cut(system, skillsIntro)
	if !ok {
		return ""
	}
	if i := strings.Index(after, "\n# "); i >= 0 {
		after = after[:i]
	}
	return after
}

// The fitted catalog is kept between turns and sessions only while its
// entries and window are the same: a larger window at the next turn
// describes every skill.
func TestCatalogRefitsWhenTheWindowChanges(t *testing.T) {
	plugin := filepath.Join(t.TempDir(), "store", "ext", "abc123")
	for i := range 300 {
		pluginSkill(t, plugin, fmt.Sprintf("filler-%03d", i), strings.Repeat("A filler skill that does many things. ", 4), "Filler.")
	}
	e := newEnv(t)
	e.window = listing.DefaultWindow
	e.life.roots = []skills.Root{{Dir: filepath.Join(plugin, "skills"), Source: "extension fx", PluginRoot: plugin}}
	e.server.Push(llmtest.Reply{Text: "one"}, llmtest.Reply{Text: "two"})
	s := e.newSession()
	e.send(s, "first")
	e.window = 200000
	e.send(s, "second")
	reqs := e.server.Requests()
	if len(reqs) != 2 || !strings.Contains(skillsPart(reqs[0].System), "names only") || strings.Contains(skillsPart(reqs[1].System), "names only") {
		t.Errorf("at 32k some skills by name only, at 200k none: %d requests", len(reqs))
	}
}
