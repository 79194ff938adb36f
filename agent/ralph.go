package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/storage"
)

// RalphMarker is the line a round ends its answer with when the whole
// task is done.
const RalphMarker = "RALPH_COMPLETE"

// Ralph round outcomes, shown on the round's entry.
const (
	RalphRunning  = "running"
	RalphContinue = "continuing"
	RalphComplete = "complete"
	RalphFailed   = "failed"
	RalphStopped  = "stopped"
)

// parseRalph reads "[--rounds N] TASK" (also --rounds=N).
func parseRalph(args string, defaultRounds int) (int, string, error) {
	rounds, task := defaultRounds, strings.TrimSpace(args)
	fields := strings.Fields(task)
	if len(fields) > 0 && (fields[0] == "--rounds" || strings.HasPrefix(fields[0], "--rounds=")) {
		value, used := strings.TrimPrefix(fields[0], "--rounds="), 1
		if fields[0] == "--rounds" {
			if len(fields) < 2 {
				return 0, "", errors.New("--rounds needs a number")
			}
			value, used = fields[1], 2
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > MaxRalphRounds {
			return 0, "", fmt.Errorf("--rounds must be a number from 1 to %d", MaxRalphRounds)
		}
		rounds, task = n, dropFields(task, used)
	}
	if task == "" {
		return 0, "", errors.New("usage: /ralph [--rounds N] TASK")
	}
	return min(max(rounds, 1), MaxRalphRounds), task, nil
}

// dropFields removes the first n whitespace-separated fields of s,
// keeping the rest verbatim.
func dropFields(s string, n int) string {
	for ; n > 0; n-- {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			return ""
		}
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

// ralph runs fresh-context child rounds on the task. Each round sees the
// system prompt, the task and the progress file on disk, never this
// session's conversation; SubagentStart context goes into that round
// only. Each round is one child run (child.go). The run is one job: its
// rounds share the job's view of the extensions, its window and the MCP
// tool list it started with, as a user turn's children do.
func (s *Session) ralph(ctx context.Context, args string) {
	rounds, task, err := parseRalph(args, s.a.cfg.RalphRounds())
	if err != nil {
		s.host(ctx, Host{Kind: HostError, Text: err.Error()})
		return
	}
	defer s.freezeWindow()()
	defer s.freezeMCP(ctx)()
	run := newID()
	progress := filepath.Join(".agentdesk", "ralph", run, "progress.md")
	if err := writeProgressFile(filepath.Join(s.project, progress), task); err != nil {
		s.host(ctx, Host{Kind: HostError, Text: err.Error()})
		return
	}
	for round := 1; round <= rounds; round++ {
		status := s.ralphRound(ctx, task, progress, round, rounds)
		if status != RalphContinue {
			return
		}
	}
	s.host(ctx, Host{Kind: HostInfo, Text: fmt.Sprintf("Ralph stopped at the round limit (%d) without %s; progress is in %s.", rounds, RalphMarker, progress)})
}

func writeProgressFile(path, task string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create Ralph progress folder: %w", err)
	}
	body := "# Ralph progress\n\nTask: " + task + "\n\n## Rounds\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		return fmt.Errorf("create Ralph progress file: %w", err)
	}
	return nil
}

func (s *Session) ralphRound(ctx context.Context, task, progress string, round, rounds int) string {
	entry := Host{Kind: HostRalph, Round: round, Rounds: rounds, Text: task, Status: RalphRunning}
	def := childDef{agentType: "ralph", kind: storage.KindRalph, title: fmt.Sprintf("Ralph round %d/%d", round, rounds),
		instructions: ralphInstructions(progress, round, rounds), round: round, turns: maxStepsPerTurn,
		prompt: fmt.Sprintf("Task:\n\n%s\n\nProgress file: %s", task, progress)}
	run := s.runChild(ctx, def, func(id string) {
		entry.Child = id
		s.host(ctx, entry)
	})
	if run.id == "" {
		s.host(ctx, Host{Kind: HostError, Text: run.err.Error()})
		return RalphFailed
	}
	entry.Status = ralphOutcome(ctx, run.final, run.err)
	if run.err != nil && entry.Status == RalphFailed {
		entry.Text = run.err.Error()
	}
	s.host(ctx, entry)
	return entry.Status
}

func ralphOutcome(ctx context.Context, final llm.Message, err error) string {
	switch {
	case ctx.Err() != nil:
		return RalphStopped
	case err != nil:
		return RalphFailed
	}
	for _, line := range strings.Split(final.Text(), "\n") {
		if strings.TrimSpace(line) == RalphMarker {
			return RalphComplete
		}
	}
	return RalphContinue
}

func ralphInstructions(progress string, round, rounds int) string {
	return fmt.Sprintf(`# Ralph round %d of %d

You are one round of a Ralph loop: a fresh agent with no memory of earlier rounds. The task is in the user message. Progress is kept in %s:
1. Read the progress file first to learn what earlier rounds did.
2. Do the next most valuable piece of work toward the task; keep it small and verified.
3. Before you finish, append to the progress file what you did, what you verified and what remains.
4. Only if the whole task is complete and verified, end your answer with a line containing exactly %s.`, round, rounds, progress, RalphMarker)
}
