package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// BenchmarkOpenProjectWithSettings times what a session's start adds for
// a trusted folder with Claude Code settings, as a real project carries
// them (CLAUDE.md, three hooks and their scripts, 40 allow/deny rules, an
// .mcp.json, 10 commands, 5 agents, 5 skills): reading, hashing and
// checking its trust, against the same for a folder without settings,
// alternately. Goal: at most 5 ms added (added-ms).
func BenchmarkOpenProjectWithSettings(b *testing.B) {
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(b.TempDir(), "db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	dir, empty := b.TempDir(), b.TempDir()
	var rules string
	for i := range 20 {
		rules += fmt.Sprintf(`"Bash(npm run task%d:*)", "Edit(src/pkg%d/**)", `, i, i)
	}
	w := func(name, body string, mode int) { write(b, dir, name, body, 0o644|os.FileMode(mode)) }
	w("CLAUDE.md", "# Project\nUse the Makefile.\n", 0)
	w(".claude/settings.json", `{"permissions": {"allow": [`+rules+`"WebFetch"], "deny": ["Read(./secrets/**)"]},
 "env": {"APP_MODE": "test"},
 "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/start.sh"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .claude/hooks/guard.py"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/stop.sh"}]}]}}`, 0)
	w(".claude/hooks/start.sh", "#!/bin/sh\necho start\n", 0o111)
	w(".claude/hooks/stop.sh", "#!/bin/sh\necho stop\n", 0o111)
	w(".claude/hooks/guard.py", "import sys\nsys.exit(0)\n", 0)
	w(".mcp.json", `{"mcpServers": {"docs": {"command": "npx", "args": ["-y", "docs-mcp"]}}}`, 0)
	for i := range 10 {
		w(fmt.Sprintf(".claude/commands/c%d.md", i), fmt.Sprintf("---\ndescription: Command %d\n---\nDo $ARGUMENTS.\n", i), 0)
	}
	for i := range 5 {
		w(fmt.Sprintf(".claude/agents/a%d.md", i), fmt.Sprintf("---\nname: a%d\ndescription: Agent %d\n---\nYou are agent %d.\n", i, i, i), 0)
		w(fmt.Sprintf(".claude/skills/s%d/SKILL.md", i), fmt.Sprintf("---\nname: s%d\ndescription: Skill %d\n---\nBody.\n", i, i), 0)
	}
	f, err := Read(ctx, db, dir)
	if err != nil || !f.Declares() {
		b.Fatalf("fixture: %v %+v", err, f.Summary())
	}
	if err := Trust(ctx, db, f); err != nil {
		b.Fatal(err)
	}
	read := func(d string, want Status) func() time.Duration {
		return func() time.Duration {
			began := time.Now()
			f, err := Read(ctx, db, d)
			took := time.Since(began)
			if err != nil || f.Status != want {
				b.Fatalf("%s: %v %s", d, err, f.Status)
			}
			return took
		}
	}
	var p gittest.Paired
	for b.Loop() {
		p.Run(read(dir, StatusTrusted), read(empty, StatusNone))
	}
	p.Report(b, "settings", "none")
}
