package agent

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/storage"
)

// RoleHost marks transcript entries the host wrote for the user (status
// chips, notices, compaction markers, Ralph rounds). They are stored and
// shown, never sent to the model.
const RoleHost llm.Role = "host"

// HostKind says what a host entry shows.
type HostKind string

const (
	HostStatus     HostKind = "status"     // an extension's systemMessage chip
	HostNotice     HostKind = "notice"     // a hook failure or other one-line notice
	HostError      HostKind = "error"      // a turn failed (provider error, ...)
	HostStopped    HostKind = "stopped"    // the user stopped the turn
	HostContext    HostKind = "context"    // an extension added hidden context (marker)
	HostCompaction HostKind = "compaction" // older messages were summarised
	HostRalph      HostKind = "ralph"      // one Ralph round
	HostAgent      HostKind = "agent"      // one delegated task (the task tool's child run)
	HostInfo       HostKind = "info"       // answers to host commands
	HostTruncated  HostKind = "truncated"  // the answer above hit the output token limit
)

// Host is the payload of a host entry.
type Host struct {
	Kind   HostKind `json:"kind"`
	Source string   `json:"source,omitempty"` // extension id
	Label  string   `json:"label,omitempty"`  // display name of the source
	Event  string   `json:"event,omitempty"`
	Text   string   `json:"text"`
	// HostRalph and HostAgent: the child session and its progress.
	Child  string `json:"child,omitempty"`
	Round  int    `json:"round,omitempty"`
	Rounds int    `json:"rounds,omitempty"`
	Status string `json:"status,omitempty"`
	// HostAgent: the agent (as offered to the model), its colour as the
	// agent file gives it, notes on what it lacks, and the start of its
	// answer (or why it failed).
	Agent  string   `json:"agent,omitempty"`
	Color  string   `json:"color,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Answer string   `json:"answer,omitempty"`
	// HostNotice about an extension (a hook failed, an MCP server or tool
	// is unavailable): the pane can be opened from it.
	Extension bool `json:"extension,omitempty"`
	// HostError or HostStopped of a prompt the model never answered: the
	// seq of its user message, which is then left out of every request
	// (else the next prompt would be sent glued to it), and the prompt as
	// typed, which the composer takes back.
	Unsent int64  `json:"unsent,omitempty"`
	Prompt string `json:"prompt,omitempty"`
}

// ForDisplay is h made safe for a terminal or a label: host entries
// quote hooks and servers (a systemMessage, stderr, a server's error).
func (h Host) ForDisplay() Host {
	s := safetext.Strip
	h.Label, h.Text, h.Source, h.Event, h.Status = s(h.Label), s(h.Text), s(h.Source), s(h.Event), s(h.Status)
	h.Agent, h.Color = s(h.Agent), s(h.Color) // a plugin agent's name and colour
	if h.Notes != nil {
		notes := make([]string, len(h.Notes))
		for i, n := range h.Notes {
			notes[i] = s(n)
		}
		h.Notes = notes
	}
	return h
}

// Entry is one item of a session's transcript.
type Entry struct {
	Seq     int64
	Role    llm.Role
	Parts   []llm.Part // user, assistant and tool entries
	Host    *Host      // host entries
	Tokens  int
	Time    time.Time
	Session string

	// Typed is what the user typed when the model got something else: a
	// slash command ("/review 12") whose expansion is in Parts.
	Typed string
}

// Message is the entry as the model sees it.
func (e Entry) Message() llm.Message { return llm.Message{Role: e.Role, Parts: e.Parts} }

// record is the JSON stored in messages.parts.
type record struct {
	Parts []llm.Part `json:"parts,omitempty"`
	Host  *Host      `json:"host,omitempty"`
	Typed string     `json:"typed,omitempty"`
}

func encodeEntry(e Entry) ([]byte, error) {
	return json.Marshal(record{Parts: e.Parts, Host: e.Host, Typed: e.Typed})
}

func decodeEntry(m storage.Message) (Entry, error) {
	var r record
	if err := json.Unmarshal(m.Parts, &r); err != nil {
		return Entry{}, fmt.Errorf("message %d of session %s: %w", m.Seq, m.SessionID, err)
	}
	return Entry{Seq: m.Seq, Role: llm.Role(m.Role), Parts: r.Parts, Host: r.Host, Typed: r.Typed, Tokens: m.Tokens, Time: m.CreatedAt, Session: m.SessionID}, nil
}
