package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// A session's transcript as JSONL in Claude Code's line format, for hooks
// that read transcript_path (Stop hooks look for the last assistant text,
// rule engines grep for test commands). One line per message, compact
// JSON ({"type":"assistant",…,"message":{"role":"assistant","content":[…]}}),
// content as blocks: text, thinking, tool_use (Claude Code's tool names and
// fields) and tool_result. Host notes and hidden extension context are
// left out. The file is rewritten when a session opens and appended to as
// the conversation grows, so it is current at every hook event.

// transcript writes one session's file. A write failure is logged once and
// the path is then given to hooks as "" rather than a stale file.
type transcript struct {
	path, session, project string

	mu     sync.Mutex
	parent string // uuid of the last line written
	broken bool
}

// TranscriptFile is where a session's transcript is kept under dir.
func TranscriptFile(dir, sessionID string) string {
	return filepath.Join(dir, sessionID+".jsonl")
}

// transcriptLine is one line of the file.
type transcriptLine struct {
	Type       string            `json:"type"`
	UUID       string            `json:"uuid"`
	ParentUUID *string           `json:"parentUuid"`
	SessionID  string            `json:"sessionId"`
	Timestamp  string            `json:"timestamp"`
	CWD        string            `json:"cwd"`
	Message    transcriptMessage `json:"message"`
}

type transcriptMessage struct {
	Role    string           `json:"role"`
	Content []map[string]any `json:"content"`
}

// path is the file hooks get; "" when there is none.
func (t *transcript) file() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.broken {
		return ""
	}
	return t.path
}

// reset writes the whole file from entries (at open).
func (t *transcript) reset(entries []Entry) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.parent, t.broken = "", false
	if err := os.MkdirAll(filepath.Dir(t.path), 0o700); err != nil {
		t.broken = true
		return err
	}
	body := t.lines(entries)
	tmp := t.path + ".tmp"
	if err := os.WriteFile(tmp, body, 0o600); err != nil {
		t.broken = true
		return err
	}
	if err := os.Rename(tmp, t.path); err != nil {
		t.broken = true
		return err
	}
	return nil
}

// add appends one entry's line.
func (t *transcript) add(e Entry) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.broken {
		return nil
	}
	body := t.lines([]Entry{e})
	if len(body) == 0 {
		return nil
	}
	f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		_, err = f.Write(body)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.broken = true
		return fmt.Errorf("transcript %s: %w", t.path, err)
	}
	return nil
}

// lines renders entries, advancing the parent chain. Callers hold mu.
func (t *transcript) lines(entries []Entry) []byte {
	var out []byte
	for _, e := range entries {
		role, content := transcriptContent(e, t.project)
		if len(content) == 0 {
			continue
		}
		line := transcriptLine{Type: role, UUID: fmt.Sprintf("%s-%d", t.session, e.Seq), SessionID: t.session,
			Timestamp: entryTime(e).UTC().Format(time.RFC3339Nano), CWD: t.project,
			Message: transcriptMessage{Role: role, Content: content}}
		if t.parent != "" {
			parent := t.parent
			line.ParentUUID = &parent
		}
		b, err := json.Marshal(line)
		if err != nil {
			continue // content is built from strings and decoded JSON: cannot fail
		}
		out = append(append(out, b...), '\n')
		t.parent = line.UUID
	}
	return out
}

func entryTime(e Entry) time.Time {
	if e.Time.IsZero() {
		return time.Now()
	}
	return e.Time
}

// transcriptContent is an entry as Claude Code's message role and content
// blocks; no blocks for entries hooks do not see.
func transcriptContent(e Entry, project string) (string, []map[string]any) {
	var blocks []map[string]any
	for _, p := range e.Parts {
		switch p.Kind {
		case llm.PartText:
			blocks = append(blocks, map[string]any{"type": "text", "text": p.Text})
		case llm.PartReasoning:
			if p.Text != "" {
				blocks = append(blocks, map[string]any{"type": "thinking", "thinking": p.Text})
			}
		case llm.PartToolCall:
			name := tools.ClaudeName(p.Name)
			if name == "" {
				name = p.Name
			}
			blocks = append(blocks, map[string]any{"type": "tool_use", "id": p.CallID, "name": name,
				"input": tools.ToClaudeInput(p.Name, json.RawMessage(p.Args), project)})
		case llm.PartToolResult:
			blocks = append(blocks, map[string]any{"type": "tool_result", "tool_use_id": p.CallID, "content": p.Text, "is_error": p.IsError})
		}
	}
	if e.Role == llm.RoleAssistant {
		return "assistant", blocks
	}
	return "user", blocks // user prompts and tool results, as in Claude Code
}
