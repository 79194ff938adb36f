//go:build unix

package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// countingRegistry counts the registry reads of the active set.
type countingRegistry struct {
	Registry
	reads atomic.Int64
}

func (r *countingRegistry) Active(ctx context.Context) []extensions.Active {
	r.reads.Add(1)
	return r.Registry.Active(ctx)
}

// preToolUsePlugin has a PreToolUse hook (any tool) that appends a line
// to marker.
func preToolUsePlugin(name, marker string) map[string]gittest.File {
	return map[string]gittest.File{
		".codex-plugin/plugin.json": {Body: `{"name":"` + name + `","version":"1.0.0","description":"test plugin"}`},
		"hooks/hooks.json":          {Body: `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh"}]}]}}`},
		"hooks/run.sh":              {Body: "#!/bin/sh\necho " + name + " >> " + marker + "\n", Mode: 0o755},
	}
}

func toolEvent(project string) lifecycle.ToolEvent {
	return lifecycle.ToolEvent{SessionID: "s1", ProjectDir: project, Tool: "read_file", ClaudeTool: "Read",
		Input: []byte(`{"file_path":"a.go"}`), CallID: "c1"}
}

// A turn's consumers share one snapshot taken at BeginTurn: tool calls
// read no registry, an enable by another process during the turn is seen
// at the next turn only, and two consumers (the hooks and the server
// host's registry) get the very same list.
func TestTurnSnapshot(t *testing.T) {
	project := t.TempDir()
	marker := filepath.Join(project, "ran") // where the sandbox lets a hook write
	e := newTestEnv(t, map[string]*gittest.Repo{
		"one": repo(t, plugin("one", "", true)),
		"two": repo(t, preToolUsePlugin("two", marker)),
	})
	ctx := context.Background()
	e.install("one", "")
	e.install("two", "")
	e.enable("one")
	reg := &countingRegistry{Registry: e.m}
	d := New(reg, Config{HookPATH: func() string { return testPATH }})
	t.Cleanup(d.Close)

	turn := d.BeginTurn(ctx, project)
	if n := reg.reads.Load(); n != 1 {
		t.Fatalf("BeginTurn read the registry %d times, want 1", n)
	}
	// Another process enables two while the turn runs.
	otherDB, err := storage.Open(ctx, e.paths.Database())
	if err != nil {
		t.Fatal(err)
	}
	defer otherDB.Close()
	other, err := extensions.NewManager(ctx, otherDB, e.paths.Extensions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := other.TrustPrompt(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Enable(ctx, "two", tr.Hash); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		d.PreToolUse(turn, toolEvent(project))
		d.PostToolUse(turn, toolEvent(project))
	}
	if n := reg.reads.Load(); n != 1 {
		t.Errorf("20 tool calls in the turn read the registry %d more times, want 0", n-1)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the hook of an extension enabled during the turn ran in that turn")
	}
	// The loop's other consumers of the turn: its context sources, skill
	// folders, agents and commands, each asked several times.
	for range 3 {
		if ids := d.Enabled(turn, project); len(ids) != 1 || ids[0] != "one" {
			t.Errorf("Enabled in the turn = %v, want [one]", ids)
		}
		if roots := d.SkillRoots(turn, project); len(roots) != 1 || roots[0].Source != "extension one" {
			t.Errorf("SkillRoots in the turn = %+v, want one's", roots)
		}
		d.Agents(turn, project)
		d.Commands(turn, project, nil)
	}
	if n := reg.reads.Load(); n != 1 {
		t.Errorf("the turn's lists read the registry %d more times, want 0", n-1)
	}
	a, b := d.active(extensions.WithProject(turn, project)), d.active(turn)
	if len(a) != 1 || a[0].ID != "one" || &a[0] != &b[0] {
		t.Errorf("two consumers of one turn: %v and %v, want the same [one]", a, b)
	}
	if sub := d.BeginTurn(turn, project); d.active(sub)[0].Pkg != a[0].Pkg || len(d.active(sub)) != 1 {
		t.Errorf("a subagent's turn inside the turn took another snapshot")
	}

	next := d.BeginTurn(ctx, project)
	got := d.active(next)
	if len(got) != 2 || got[1].ID != "two" {
		t.Fatalf("next turn: %d active, want one and two", len(got))
	}
	d.PreToolUse(next, toolEvent(project))
	if b, err := os.ReadFile(marker); err != nil || string(b) != "two\n" {
		t.Errorf("the next turn's tool call: hook output %q, %v; want it ran once", b, err)
	}
}

// A disable in this process in the middle of a turn holds for the rest
// of it: the extension's hooks stop running and its context and skills
// leave the lists, though the turn keeps its snapshot; the others are
// untouched.
func TestDisableDuringTheTurnHoldsForItsRest(t *testing.T) {
	project := t.TempDir()
	marker := filepath.Join(project, "ran")
	e := newTestEnv(t, map[string]*gittest.Repo{
		"one": repo(t, plugin("one", "", true)),
		"two": repo(t, with(preToolUsePlugin("two", marker), map[string]gittest.File{
			"skills/two-skill/SKILL.md": {Body: "---\nname: two-skill\ndescription: d\n---\nbody\n"}})),
	})
	ctx := context.Background()
	for _, id := range []string{"one", "two"} {
		e.install(id, "")
		e.enable(id)
	}
	d := New(e.m, Config{HookPATH: func() string { return testPATH }})
	t.Cleanup(d.Close)

	turn := d.BeginTurn(ctx, project)
	d.PreToolUse(turn, toolEvent(project))
	if b, _ := os.ReadFile(marker); string(b) != "two\n" {
		t.Fatalf("before the disable the hook wrote %q", b)
	}
	if ids := d.Enabled(turn, project); len(ids) != 2 {
		t.Fatalf("Enabled = %v, want both", ids)
	}
	if roots := d.SkillRoots(turn, project); len(roots) != 2 || roots[1].Source != "extension two" {
		t.Fatalf("SkillRoots = %+v, want one's and two's", roots)
	}
	if _, err := e.m.Disable(ctx, "two"); err != nil {
		t.Fatal(err)
	}
	d.PreToolUse(turn, toolEvent(project))
	if b, _ := os.ReadFile(marker); string(b) != "two\n" {
		t.Errorf("the disabled extension's hook ran again in the turn: %q", b)
	}
	if ids := d.Enabled(turn, project); len(ids) != 1 || ids[0] != "one" {
		t.Errorf("Enabled after the disable = %v, want [one]", ids)
	}
	for _, r := range d.SkillRoots(turn, project) {
		if r.Source == "extension two" {
			t.Errorf("the disabled extension's skills are still listed: %+v", r)
		}
	}
	if sub := d.BeginTurn(turn, project); len(d.active(sub)) != 1 {
		t.Errorf("a subagent started after the disable sees %d extensions, want 1", len(d.active(sub)))
	}
}
