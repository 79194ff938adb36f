package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/skills"
)

// turnMark is the value a scopedLifecycle's BeginTurn puts in a job's
// context: which job it is.
type turnMark struct{}

// scopedLifecycle is fakeLifecycle as a lifecycle.TurnScope, and the
// extensions' agents and commands, noting each list asked for and
// whether it was asked with a job's context.
type scopedLifecycle struct {
	*fakeLifecycle
	agents   []lifecycle.Agent
	mu       sync.Mutex
	jobs     int
	asked    map[string]int // "Enabled@2": asked twice in job 2
	unscoped []string       // asked without a job's context
}

func (l *scopedLifecycle) BeginTurn(ctx context.Context, _ string) context.Context {
	if _, ok := ctx.Value(turnMark{}).(int); ok {
		return ctx // a child keeps its parent's
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.jobs++
	return context.WithValue(ctx, turnMark{}, l.jobs)
}

func (l *scopedLifecycle) note(ctx context.Context, list string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	job, ok := ctx.Value(turnMark{}).(int)
	if !ok {
		l.unscoped = append(l.unscoped, list)
		return
	}
	l.asked[fmt.Sprintf("%s@%d", list, job)]++
}

func (l *scopedLifecycle) Enabled(ctx context.Context, project string) []string {
	l.note(ctx, "Enabled")
	return l.fakeLifecycle.Enabled(ctx, project)
}

func (l *scopedLifecycle) SkillRoots(ctx context.Context, project string) []skills.Root {
	l.note(ctx, "SkillRoots")
	return l.fakeLifecycle.SkillRoots(ctx, project)
}

func (l *scopedLifecycle) Agents(ctx context.Context, _ string) lifecycle.AgentSet {
	l.note(ctx, "Agents")
	return lifecycle.AgentSet{Agents: l.agents}
}

func (l *scopedLifecycle) Commands(ctx context.Context, _ string, _ []string) lifecycle.CommandSet {
	l.note(ctx, "Commands")
	return lifecycle.CommandSet{Commands: []lifecycle.Command{{Name: "review", Extension: "fx"}}}
}

func (l *scopedLifecycle) Expand(context.Context, string, string, string) (lifecycle.Expansion, error) {
	return lifecycle.Expansion{}, lifecycle.ErrUnknownCommand
}

// Every list a job reads of the extensions (their context sources,
// skill folders, agents, commands) comes from the job's own context, so
// from the one snapshot the dispatcher took for it, the parent's and a
// child's requests alike; skills, agents and commands are read once a
// job, the context sources for each request.
func TestAJobReadsTheExtensionsFromItsSnapshot(t *testing.T) {
	e := newEnv(t)
	skillsDir := filepath.Join(e.home, "ext-skills")
	os.MkdirAll(filepath.Join(skillsDir, "deploy"), 0o755)
	os.WriteFile(filepath.Join(skillsDir, "deploy", "SKILL.md"), []byte("---\nname: deploy\ndescription: Deploy the app\n---\nbody\n"), 0o644)
	e.life.roots = []skills.Root{{Dir: skillsDir, Source: "extension fx"}}
	e.life.setEnabled("fx")
	e.scoped = &scopedLifecycle{fakeLifecycle: e.life, agents: []lifecycle.Agent{explorer}, asked: map[string]int{}}
	e.agents, e.commands = e.scoped, e.scoped
	e.open()
	e.file("main.go", "package main\n")
	e.server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "tool_search", Args: `{"query":"review"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"find main","prompt":"Where is func main?"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"main.go"}`}}},
		llmtest.Reply{Text: "CHILD ANSWER"},
		llmtest.Reply{Text: "done"},
	)
	s := e.newSession()
	e.send(s, "find main")
	reqs := e.server.Requests()
	if len(reqs) != 5 || !slices.Contains(reqs[0].Tools, "task") || !slices.Contains(reqs[0].Tools, "skill") {
		t.Fatalf("%d requests, first offering %q; want 5 with task and skill", len(reqs), reqs[0].Tools)
	}

	l := e.scoped
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.unscoped) > 0 {
		t.Errorf("asked outside the job's context: %q", l.unscoped)
	}
	if l.jobs < 2 {
		t.Fatalf("%d jobs began, want the SessionStart and the prompt", l.jobs)
	}
	job := l.jobs // the prompt's
	for _, list := range []string{"SkillRoots", "Agents", "Commands"} {
		if n := l.asked[fmt.Sprintf("%s@%d", list, job)]; n != 1 {
			t.Errorf("the turn asked for %s %d times, want once", list, n)
		}
	}
	if n := l.asked[fmt.Sprintf("Enabled@%d", job)]; n < len(reqs) {
		t.Errorf("the turn asked for the context sources %d times for %d requests, want each request to", n, len(reqs))
	}
}
