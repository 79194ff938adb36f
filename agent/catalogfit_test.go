package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/skills"
)

// A generated marketplace of 100 plugins (two skills and an agent each)
// through a real request: at a 32k window the skills list and the task
// tool's agents together stay within 10% of the window; at 200k they
// are all described.
func TestCatalogFitsTheWindow(t *testing.T) {
	for _, window := range []int{32768, 200000} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			e := newEnv(t)
			e.window = window
			store := t.TempDir()
			var roots []skills.Root
			var agents []lifecycle.Agent
			for i := range 100 {
				plugin := filepath.Join(store, fmt.Sprintf("plugin-%03d", i))
				desc := fmt.Sprintf("Use for plugin %d work: reviews, plans and explains the parts of a project it covers, with examples, checklists and the usual pitfalls spelled out.", i)
				for _, s := range []string{"basics", "patterns"} {
					dir := filepath.Join(plugin, "skills", fmt.Sprintf("p%03d-%s", i, s))
					os.MkdirAll(dir, 0o755)
					os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(fmt.Sprintf("---\nname: p%03d-%s\ndescription: %s\n---\nbody\n", i, s, desc)), 0o644)
				}
				roots = append(roots, skills.Root{Dir: filepath.Join(plugin, "skills"), Source: fmt.Sprintf("extension plugin-%03d", i), PluginRoot: plugin})
				agents = append(agents, lifecycle.Agent{Name: fmt.Sprintf("p%03d-expert", i), Type: fmt.Sprintf("plugin-%03d:expert", i),
					Extension: fmt.Sprintf("plugin-%03d", i), Description: desc, Prompt: "You are an expert."})
			}
			e.agents = agentList(agents)
			e.open()
			e.life.roots = roots
			e.server.Push(llmtest.Reply{Text: "ok"})
			s := e.newSession()
			e.send(s, "hello")
			req := e.server.Requests()[0]
			f := s.fit(s.Catalog(), s.taskAgents())
			part := f.Render(listing.KindSkill, "skills") + f.Render(listing.KindAgent, "agents")
			budget := listing.Budget(window)
			described, names, hidden := f.Counts()
			t.Logf("window %d: extension part %d bytes of %d; %d described, %d names only, %d more; request %d bytes",
				window, len(part), budget, described, names, hidden, len(req.Raw))
			if len(part) > budget {
				t.Fatalf("extension part %d bytes, budget %d", len(part), budget)
			}
			if !strings.Contains(req.System, f.Render(listing.KindSkill, "skills")) || !strings.Contains(string(req.Raw), "p000-expert") {
				t.Errorf("the request does not carry the fitted lists")
			}
			if strings.Contains(req.System, store) {
				t.Errorf("the system prompt holds store paths")
			}
			if window == 200000 && names+hidden != 0 {
				t.Errorf("at 200k every entry should be described: %d names only, %d more", names, hidden)
			}
			if window == 32768 && described == 0 {
				t.Errorf("nothing described at 32k")
			}
			cf := e.agent.CatalogFit(e.project.Path)
			size := cf.Text
			for i := range 100 {
				sh := cf.Shares[fmt.Sprintf("plugin-%03d", i)]
				if sh.Full+sh.Shortened+sh.NamesOnly+sh.Hidden != 3 || sh.Bytes == 0 {
					t.Fatalf("plugin-%03d's share %+v: want its 2 skills and its agent", i, sh)
				}
			}
			t.Logf("Preferences: %s", size)
			if !strings.Contains(size, "200 skills, 101 agents: ") || (window == 32768) != strings.Contains(size, fmt.Sprintf("; %d listed by name only", names)) {
				t.Errorf("CatalogFit = %q", size)
			}
		})
	}
}
