package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
)

// summarizerPrompt is the system prompt of a compaction call.
const summarizerPrompt = `You compress a coding session so it can continue with less context. Write a faithful summary for the assistant who will carry on:
- the user's goals and constraints, in their words where they matter;
- decisions made and why; files created, read or changed (paths) and their current state;
- commands run and their outcomes; errors still open;
- what was being done last and what remains to do.
Be specific (names, paths, numbers). No preamble.`

// maxToolTextInSummary bounds each tool result copied into the
// compaction transcript; the summary needs the gist, not whole files.
const maxToolTextInSummary = 2000

// compaction is one compaction request: why (for the chat), its trigger
// (lifecycle.CompactManual or CompactAuto) and the user's instructions
// (/compact TEXT).
type compaction struct {
	why, trigger, instructions string
}

// compact summarises the main thread's context before keepFrom (a seq;
// that message and everything after it stay verbatim), durably starts a
// new epoch, and only then fires SessionStart(compact), whose output
// becomes the new epoch's context. PreCompact hooks may add context to
// the summary request; they cannot stop it.
func (s *Session) compact(ctx context.Context, keepFrom int64, c compaction) error {
	s.mu.Lock()
	unsent := unsentPrompts(s.main.entries)
	var old []Entry
	for _, e := range s.main.entries {
		if e.Seq >= s.main.start && (keepFrom == 0 || e.Seq < keepFrom) && e.Role != RoleHost && !unsent[e.Seq] {
			old = append(old, e)
		}
	}
	prevSummary := s.summary
	s.mu.Unlock()
	if len(old) == 0 {
		s.host(ctx, Host{Kind: HostInfo, Text: "Nothing to compact yet."})
		return nil
	}
	s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID, Status: "compacting…"})
	defer s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID})

	pre := s.a.cfg.Lifecycle.PreCompact(s.reporting(ctx), lifecycle.CompactEvent{SessionID: s.info.ID, ProjectDir: s.project, TranscriptPath: s.transcriptPath(),
		Trigger: c.trigger, CustomInstructions: c.instructions})
	s.notices(ctx, pre.Notices)
	extra, dropped, _ := fitBlocks(pre.Blocks, s.contextCap())
	s.droppedNotice(ctx, dropped, "the compaction request")
	summary, err := s.summarize(ctx, prevSummary, old, c.instructions, extra)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	boundary := keepFrom
	if boundary == 0 {
		boundary = old[len(old)-1].Seq + 1
	}
	epoch, err := s.a.cfg.DB.Compact(context.WithoutCancel(ctx), s.info.ID, boundary, summary)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.epoch, s.summary, s.main.start = epoch, summary, boundary
	s.blocks = map[string]lifecycle.ContextBlock{}
	s.agents = findAgentsMD(s.project, s.a.cfg.HomeDir)
	s.mu.Unlock()
	s.host(ctx, Host{Kind: HostCompaction, Text: fmt.Sprintf("Compacted %d earlier messages because %s. They stay visible here but are no longer sent.", len(old), c.why)})
	s.sessionStart(ctx, lifecycle.SourceCompact)
	return nil
}

// summarize asks the model for the summary, with the old context rendered
// as one plain transcript (no tools, so any server can answer).
func (s *Session) summarize(ctx context.Context, prevSummary string, old []Entry, instructions string, extra []lifecycle.ContextBlock) (string, error) {
	prov, cfg, err := s.a.cfg.Provider()
	if err != nil {
		return "", err
	}
	cfg = cfg.WithDefaults()
	text := renderForSummary(prevSummary, old, cfg.ContextWindow*2) // ~half the window, at 4 bytes a token
	if instructions != "" {
		text += "\n\nThe user's instructions for this summary: " + instructions
	}
	parts := append(contextParts(extra), llm.Part{Kind: llm.PartText, Text: text})
	req := llm.Request{Model: cfg.Model, System: summarizerPrompt, MaxTokens: cfg.MaxTokens, Messages: []llm.Message{{
		Role: llm.RoleUser, Parts: parts}}}
	resp, err := prov.Stream(ctx, req, func(llm.Delta) {})
	if err != nil {
		return "", err
	}
	summary := strings.TrimSpace(resp.Message.Text())
	if summary == "" {
		return "", fmt.Errorf("the model returned an empty summary")
	}
	return summary, nil
}

// renderForSummary writes the transcript to summarise, keeping its most
// recent part when it is longer than maxBytes.
func renderForSummary(prevSummary string, entries []Entry, maxBytes int) string {
	var b strings.Builder
	for _, e := range entries {
		for _, p := range e.Parts {
			writeSummaryPart(&b, e.Role, p)
		}
	}
	body := b.String()
	if len(body) > maxBytes {
		body = "[… older part omitted …]\n" + body[len(body)-maxBytes:]
	}
	head := ""
	if prevSummary != "" {
		head = "Summary of what came before:\n" + prevSummary + "\n\n"
	}
	return head + "Conversation to summarise:\n\n" + body + "\n\nWrite the summary now."
}

func writeSummaryPart(b *strings.Builder, role llm.Role, p llm.Part) {
	switch p.Kind {
	case llm.PartText:
		fmt.Fprintf(b, "%s: %s\n\n", strings.ToUpper(string(role[:1]))+string(role[1:]), p.Text)
	case llm.PartToolCall:
		fmt.Fprintf(b, "Assistant called %s %s\n\n", p.Name, p.Args)
	case llm.PartToolResult:
		text := p.Text
		if len(text) > maxToolTextInSummary {
			text = text[:maxToolTextInSummary] + " […]"
		}
		fmt.Fprintf(b, "Result of %s: %s\n\n", p.Name, text)
	}
}
