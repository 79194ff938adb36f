package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// DefaultContextCap bounds the extension context of one turn, in bytes:
// SessionStart's blocks in the system prompt, UserPromptSubmit's in the
// prompt, and what guard hooks add to tool results and Stop notes. Blocks
// past it are dropped whole, later extensions (installation order) and
// later events first, and the chat says which.
const DefaultContextCap = 64 << 10

// fitBlocks keeps blocks in order while their text fits in room bytes; a
// block that does not fit is dropped whole and the ones after it may still
// fit. It returns what was kept, what was dropped and the room left.
func fitBlocks(blocks []lifecycle.ContextBlock, room int) (kept, dropped []lifecycle.ContextBlock, left int) {
	for _, b := range blocks {
		if n := len(b.Text); n <= room {
			kept = append(kept, b)
			room -= n
		} else {
			dropped = append(dropped, b)
		}
	}
	return kept, dropped, room
}

func (s *Session) contextCap() int {
	if s.a.cfg.ContextCap == nil {
		return DefaultContextCap
	}
	return s.a.cfg.ContextCap()
}

// sessionBlocks is the current epoch's SessionStart context that is sent:
// the enabled extensions' blocks, in installation order, within the cap.
// Callers hold s.mu.
func (s *Session) sessionBlocks(enabled []string) (kept, dropped []lifecycle.ContextBlock) {
	var blocks []lifecycle.ContextBlock
	for _, id := range enabled {
		if b, ok := s.blocks[id]; ok {
			blocks = append(blocks, b)
		}
	}
	kept, dropped, _ = fitBlocks(blocks, s.contextCap())
	return kept, dropped
}

// startTurnBudget gives a turn the room SessionStart's context leaves.
func (s *Session) startTurnBudget() {
	enabled := s.view().Enabled()
	s.mu.Lock()
	defer s.mu.Unlock()
	kept, _ := s.sessionBlocks(enabled)
	room := s.contextCap()
	for _, b := range kept {
		room -= len(b.Text)
	}
	s.turnRoom = room
}

// budget keeps what fits of blocks in the turn's remaining room and says
// in the chat what was dropped.
func (s *Session) budget(ctx context.Context, blocks []lifecycle.ContextBlock) []lifecycle.ContextBlock {
	if len(blocks) == 0 {
		return nil
	}
	s.mu.Lock()
	kept, dropped, left := fitBlocks(blocks, s.turnRoom)
	s.turnRoom = left
	s.mu.Unlock()
	s.droppedNotice(ctx, dropped, "this turn")
	return kept
}

// droppedNotice tells the user which blocks the cap left out.
func (s *Session) droppedNotice(ctx context.Context, dropped []lifecycle.ContextBlock, where string) {
	if len(dropped) == 0 {
		return
	}
	var names []string
	for _, b := range dropped {
		names = append(names, fmt.Sprintf("%s's %s context (%s)", b.Source, b.Event, sizeText(len(b.Text))))
	}
	s.host(ctx, Host{Kind: HostNotice, Source: dropped[0].Source, Event: dropped[0].Event,
		Text: fmt.Sprintf("left out %s: the extension context of %s would pass its %s cap (Preferences → Advanced)",
			strings.Join(names, ", "), where, sizeText(s.contextCap()))})
}

func sizeText(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.0f KiB", float64(n)/1024)
}
