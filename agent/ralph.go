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

	"github.com/agentdesk/agentdesk/agent/lifecycle"
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
// only.
func (s *Session) ralph(ctx context.Context, args string) {
	rounds, task, err := parseRalph(args, s.a.cfg.RalphRounds())
	if err != nil {
		s.host(ctx, Host{Kind: HostError, Text: err.Error()})
		return
	}
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
	child, err := s.a.cfg.DB.CreateSession(ctx, storage.Session{ID: newID(), ProjectID: s.info.ProjectID,
		ParentID: s.info.ID, Kind: storage.KindRalph, Title: fmt.Sprintf("Ralph round %d/%d", round, rounds)})
	if err != nil {
		s.host(ctx, Host{Kind: HostError, Text: err.Error()})
		return RalphFailed
	}
	entry := Host{Kind: HostRalph, Child: child.ID, Round: round, Rounds: rounds, Text: task, Status: RalphRunning}
	s.host(ctx, entry)
	res := s.a.cfg.Lifecycle.SubagentStart(s.reporting(ctx), lifecycle.SubagentEvent{SessionID: child.ID, ParentSessionID: s.info.ID,
		ProjectDir: s.project, PermissionMode: s.permissionMode(), AgentID: child.ID, AgentType: "ralph", Round: round})
	s.notices(ctx, res.Notices)

	th := &thread{session: child.ID}
	system := func() string { return s.childSystem(res.Blocks, progress, round, rounds) }
	prompt := fmt.Sprintf("Task:\n\n%s\n\nProgress file: %s", task, progress)
	_, err = s.append(ctx, th, Entry{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: prompt}}})
	var final llm.Message
	if err == nil {
		final, err = s.converse(ctx, th, system, 0)
	}
	entry.Status = ralphOutcome(ctx, final, err)
	if err != nil && entry.Status == RalphFailed {
		entry.Text = err.Error()
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

// childSystem is a Ralph round's system prompt: the same base, AGENTS.md
// and skills as the session, the round's instructions, and only the
// SubagentStart context of enabled extensions.
func (s *Session) childSystem(blocks []lifecycle.ContextBlock, progress string, round, rounds int) string {
	enabled := map[string]bool{}
	for _, id := range s.a.cfg.Lifecycle.Enabled() {
		enabled[id] = true
	}
	var ext []lifecycle.ContextBlock
	for _, b := range blocks {
		if enabled[b.Source] && strings.TrimSpace(b.Text) != "" {
			ext = append(ext, b)
		}
	}
	catalog := s.Catalog()
	s.mu.Lock()
	agents := s.agents
	s.mu.Unlock()
	return systemPrompt{Project: s.project, Agents: agents, Skills: catalog.Prompt(),
		Extra: ralphInstructions(progress, round, rounds), Extension: ext}.String()
}

func ralphInstructions(progress string, round, rounds int) string {
	return fmt.Sprintf(`# Ralph round %d of %d

You are one round of a Ralph loop: a fresh agent with no memory of earlier rounds. The task is in the user message. Progress is kept in %s:
1. Read the progress file first to learn what earlier rounds did.
2. Do the next most valuable piece of work toward the task; keep it small and verified.
3. Before you finish, append to the progress file what you did, what you verified and what remains.
4. Only if the whole task is complete and verified, end your answer with a line containing exactly %s.`, round, rounds, progress, RalphMarker)
}
