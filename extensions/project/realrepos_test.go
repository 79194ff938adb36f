package project

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/storage"
)

// TestRealRepositories reads the Claude Code settings of public
// repositories checked out under $AGENTDESK_REAL_PROJECTS (one folder
// each; never committed here). Run on 2026-12-07 over:
//
//	Isaqdn03/claude-code-hooks-mastery  10 hooks (uv run .claude/hooks/*.py, all stamped), 19 commands, 5 agents, 14 rules
//	IronbellyOrg/IronClaude             41 commands, 27 agents, 13 skills (a skill folder without SKILL.md noted)
//	IsaiahDupree/acd                    5 MCP servers, 3 agents, 48 rules
//	Iron-Ham/Claude-XcodePreviews       1 command, 5 rules
//	IrvanFza/claudish                   1 command, 2 skills
//	Iris-user/employee-onboarding       65 rules
//	IronAdamant/coordinationhub, Irtechie/working-skill-repo, Irishsmurf/pypinergy,
//	IsaacThaJunior/event-processing-platform, DietrichGebert/ponytail  settings with nothing that runs
//
// Every folder loads (nothing refused); the counts matched the files
// (find .claude/commands -name '*.md', .claude/agents, skills/*/SKILL.md).
func TestRealRepositories(t *testing.T) {
	root := os.Getenv("AGENTDESK_REAL_PROJECTS")
	if root == "" {
		t.Skip("AGENTDESK_REAL_PROJECTS is not set")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, e := range entries {
		f, err := Read(ctx, db, filepath.Join(root, e.Name()))
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		t.Logf("%s: %s (%s) %d diagnostics", e.Name(), f.Status, f.Summary(), len(f.Pkg.Diagnostics)+len(f.Settings.Diagnostics))
	}
}
