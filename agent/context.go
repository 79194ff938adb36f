package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/storage"
)

func userSkillsDir(home string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".agents", "skills")
}

func projectSkillsDir(project string) string { return filepath.Join(project, ".agents", "skills") }

// catalogCache rebuilds the skills catalog only when the set of roots
// changes (an extension was enabled or disabled), keeping the system
// prompt stable between those points.
type catalogCache struct {
	key     string
	catalog skills.Catalog
}

func (c *catalogCache) get(roots []skills.Root, parsed *skills.Cache) skills.Catalog {
	var k strings.Builder
	for _, r := range roots {
		k.WriteString(r.Source + "\x00" + r.Dir + "\x00")
	}
	if c.key != k.String() || c.key == "" {
		c.key, c.catalog = k.String(), parsed.Build(roots)
	}
	return c.catalog
}

// Catalog is the skills catalog the session's next request uses: during
// a job the one it made first.
func (s *Session) Catalog() skills.Catalog {
	v := s.view()
	roots := v.Roots()
	s.mu.Lock()
	defer s.mu.Unlock()
	if v.catalog != nil {
		return *v.catalog
	}
	c := s.catalog.get(roots, &s.a.parsedSkills)
	if s.turnView == v {
		v.catalog = &c
	}
	return c
}

// system renders the main thread's system prompt.
func (s *Session) system() string {
	list := s.listed() // one budget with the task tool's agents
	enabled := s.view().Enabled()
	s.mu.Lock()
	defer s.mu.Unlock()
	blocks, _ := s.sessionBlocks(enabled)
	return systemPrompt{Project: s.project, Agents: s.agents, Skills: list.skills, Summary: s.summary, Extension: blocks,
		Style: s.style}.String()
}

// reporting lets the lifecycle call show its progress in the status bar.
func (s *Session) reporting(ctx context.Context) context.Context {
	return lifecycle.WithStatus(ctx, func(status string) {
		s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID, Status: status})
	})
}

func hashText(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// sessionStart fires SessionStart and keeps each extension's latest block
// for the current epoch: identical output adds nothing, changed output
// replaces the block, and every change is stored so a restart resumes
// with the same request.
func (s *Session) sessionStart(ctx context.Context, source string) {
	s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID, Status: "running SessionStart hooks…"})
	model := ""
	if _, cfg, err := s.a.cfg.Provider(); err == nil {
		model = cfg.Model
	}
	res := s.a.cfg.Lifecycle.SessionStart(s.reporting(ctx), lifecycle.SessionStartEvent{
		SessionID: s.info.ID, ProjectDir: s.project, TranscriptPath: s.transcriptPath(), PermissionMode: s.permissionMode(),
		Source: source, Model: model})
	s.notices(ctx, res.Notices)
	for _, b := range res.Blocks {
		s.keepSessionBlock(ctx, b)
	}
	enabled := s.view().Enabled()
	s.mu.Lock()
	_, dropped := s.sessionBlocks(enabled)
	s.mu.Unlock()
	s.droppedNotice(ctx, dropped, "the system prompt")
	s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID})
}

func (s *Session) keepSessionBlock(ctx context.Context, b lifecycle.ContextBlock) {
	if b.Hash == "" {
		b.Hash = hashText(b.Text)
	}
	b.Event = lifecycle.EventSessionStart
	s.mu.Lock()
	cur, ok := s.blocks[b.Source]
	epoch := s.epoch
	s.mu.Unlock()
	if ok && cur.Hash == b.Hash {
		return
	}
	err := s.a.cfg.DB.PutContextBlock(context.WithoutCancel(ctx), storage.ContextBlock{
		SessionID: s.info.ID, Epoch: epoch, Source: b.Source, Event: b.Event, Hash: b.Hash, Content: b.Text})
	if err != nil {
		s.a.log.Error("store SessionStart context", "session", s.info.ID, "source", b.Source, "err", err)
		return
	}
	s.mu.Lock()
	s.blocks[b.Source] = b
	s.mu.Unlock()
	s.host(ctx, Host{Kind: HostContext, Source: b.Source, Event: b.Event, Text: b.Text})
}

// notices turns hook notices into host entries (chips and one-line
// notices in the transcript).
func (s *Session) notices(ctx context.Context, ns []lifecycle.Notice) {
	for _, n := range ns {
		h := Host{Source: n.Source, Label: n.Label, Text: n.Text}
		switch n.Kind {
		case lifecycle.NoticeStatus:
			h.Kind = HostStatus
		case lifecycle.NoticeBlocked:
			h.Kind, h.Text = HostNotice, "asked to block this prompt (not supported; the prompt was sent): "+n.Text
		case lifecycle.NoticeMCP:
			h.Kind, h.Extension, h.Event = HostNotice, true, EventMCP
		default:
			h.Kind, h.Extension = HostNotice, true
		}
		s.host(ctx, h)
	}
}

// contextParts turns UserPromptSubmit blocks into the leading hidden
// parts of the user message.
func contextParts(blocks []lifecycle.ContextBlock) []llm.Part {
	var parts []llm.Part
	for _, b := range blocks {
		if strings.TrimSpace(b.Text) == "" {
			continue
		}
		parts = append(parts, llm.Part{Kind: llm.PartContext, Source: b.Source, Event: b.Event, Text: b.Text})
	}
	return parts
}
