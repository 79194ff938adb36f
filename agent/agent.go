// Package agent is AgentDesk's one shared agent loop: sessions in a
// project, streaming turns with tools and in-window approval, context
// assembly (base policy, AGENTS.md, skills, extension context),
// compaction and Ralph rounds. It knows extensions only through the
// lifecycle contract (agent/lifecycle), and the UI only through the Bus.
package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/anthropic"
	"github.com/agentdesk/agentdesk/agent/llm/openai"
	"github.com/agentdesk/agentdesk/agent/permissions"
	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/storage"
)

// Defaults of the loop.
const (
	DefaultCompactThreshold = 0.8 // of the context window
	DefaultRalphRounds      = 5
	MaxRalphRounds          = 50
	maxStepsPerTurn         = 200 // model calls in one turn, a guard against tool loops
)

// SkillSource contributes skill roots beyond the user's and the
// project's: the extensions enabled in that project, in installation
// order: as the job ctx belongs to sees them (lifecycle.TurnScope), else
// as they are now.
type SkillSource interface {
	SkillRoots(ctx context.Context, project string) []skills.Root
}

// Config wires an Agent.
type Config struct {
	DB *storage.DB
	// Provider returns the provider to use for the next model call, so a
	// change in Preferences applies from the next turn on.
	Provider  func() (llm.Provider, llm.Config, error)
	Lifecycle lifecycle.Lifecycle // nil: no extensions
	Skills    SkillSource         // nil: no extension skills
	Approver  Approver            // asked for edits and commands unless Policy says otherwise
	// Attention notifies the user who looks elsewhere when an approval
	// waits or a turn ends; nil: never (the command line).
	Attention Attention
	Policy    func() Policy
	// HomeDir bounds the AGENTS.md search and holds ~/.agents/skills.
	HomeDir          string
	CompactThreshold float64 // 0: DefaultCompactThreshold
	RalphRounds      func() int
	// StopHookLimit is how many times Stop hooks may continue one turn;
	// nil: DefaultStopHookLimit.
	StopHookLimit func() int
	CommandEnv    []string // environment of run_command; nil: the app's
	// CommandsUnconfined lifts the sandbox for run_command (agentdesk run
	// --unconfined); hooks and servers stay confined.
	CommandsUnconfined bool
	// ContextCap bounds one turn's extension context, in bytes; nil:
	// DefaultContextCap.
	ContextCap func() int
	// MCPToolShare is the percentage of the context window the MCP tool
	// definitions of one request may take (1 to
	// lifecycle.MaxMCPToolShare); nil: lifecycle.DefaultMCPToolShare.
	MCPToolShare func() int
	// TranscriptDir holds each chat session's JSONL transcript for hooks
	// (transcript_path); "" keeps none.
	TranscriptDir string
	Logger        *slog.Logger

	// Commands are the enabled extensions' slash commands; nil: none.
	Commands lifecycle.CommandSource
	// Agents are the enabled extensions' subagent types; nil: none, and
	// no task tool.
	Agents lifecycle.AgentSource
	// Styles are the enabled extensions' output styles (the project's own
	// among them); nil: only Default.
	Styles lifecycle.StyleSource
	// SubagentModel maps an agent's model alias (sonnet, opus, haiku) to a
	// model of the current provider; nil or "": the session's model.
	SubagentModel func(alias string) string
	// MCP offers the enabled extensions' MCP tools at each turn boundary;
	// nil: none.
	MCP lifecycle.ToolSource
	// CodeIntel is the enabled extensions' language servers: the lsp tool
	// and the diagnostics a write's result gets; nil: none.
	CodeIntel lifecycle.CodeIntel
	// ProjectTrusted answers folder trust for a project's own settings:
	// only then do its allow and ask rules count (deny rules always do).
	// nil: never trusted.
	ProjectTrusted func(ctx context.Context, dir string) bool
	// ProjectSettings returns a project folder's own settings when the
	// folder is trusted (false otherwise): their env reaches run_command
	// and their additionalDirectories become working folders of the file
	// tools. nil: never.
	ProjectSettings func(ctx context.Context, dir string) (permissions.Settings, bool)
}

// Agent opens projects and sessions.
type Agent struct {
	cfg Config
	log *slog.Logger
	// lastMCP is how the latest session's MCP tools fared (Providers).
	lastMCP atomic.Pointer[MCPCount]
	// parsedSkills keeps the SKILL.md files parsed while unchanged, so a
	// new session lists the skill folders again without parsing them.
	parsedSkills skills.Cache
	// lastFit is the latest fitted catalog and what it was fitted from
	// (Session.fit).
	lastFit atomic.Pointer[fitMemo]
}

// New returns an Agent; nil fields of cfg get safe defaults.
func New(cfg Config) *Agent {
	if cfg.Lifecycle == nil {
		cfg.Lifecycle = lifecycle.NopLifecycle{}
	}
	if cfg.Policy == nil {
		cfg.Policy = func() Policy { return PolicyAsk }
	}
	if cfg.CompactThreshold == 0 {
		cfg.CompactThreshold = DefaultCompactThreshold
	}
	if cfg.RalphRounds == nil {
		cfg.RalphRounds = func() int { return DefaultRalphRounds }
	}
	if cfg.StopHookLimit == nil {
		cfg.StopHookLimit = func() int { return DefaultStopHookLimit }
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Agent{cfg: cfg, log: cfg.Logger}
}

// NewProvider builds the provider a Config describes.
func NewProvider(c llm.Config) (llm.Provider, error) {
	switch c.Kind {
	case llm.KindOpenAI, "":
		return openai.New(c), nil
	case llm.KindAnthropic:
		return anthropic.New(c), nil
	}
	return nil, fmt.Errorf("unknown provider kind %q (want %s or %s)", c.Kind, llm.KindOpenAI, llm.KindAnthropic)
}

// ListModels asks the provider's server which models it serves (GET
// /v1/models on both wire formats), for the model picker. Bound it with
// ctx.
func ListModels(ctx context.Context, c llm.Config) ([]string, error) {
	switch c.Kind {
	case llm.KindOpenAI, "":
		return openai.ListModels(ctx, c.BaseURL, c.APIKey)
	case llm.KindAnthropic:
		return anthropic.ListModels(ctx, c)
	}
	return nil, fmt.Errorf("unknown provider kind %q (want %s or %s)", c.Kind, llm.KindOpenAI, llm.KindAnthropic)
}

// Canonical resolves a folder the user picked to the path a project is
// known by: absolute, cleaned, symlinks resolved.
func Canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("open project %s: %w", dir, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("open project %s: %w", dir, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("open project %s: not a folder", dir)
	}
	return real, nil
}

// OpenProject records the canonical folder as a project.
func (a *Agent) OpenProject(ctx context.Context, dir string) (storage.Project, error) {
	path, err := Canonical(dir)
	if err != nil {
		return storage.Project{}, err
	}
	return a.cfg.DB.OpenProject(ctx, path)
}

// Sessions lists a project's chat sessions, most recent first.
func (a *Agent) Sessions(ctx context.Context, p storage.Project) ([]storage.Session, error) {
	return a.cfg.DB.Sessions(ctx, p.ID)
}

// RenameSession and DeleteSession manage the sidebar.
func (a *Agent) RenameSession(ctx context.Context, id, title string) error {
	return a.cfg.DB.RenameSession(ctx, id, title)
}

// DeleteSession also fires SessionEnd (reason "clear") for a chat
// session, in the background: its hooks' output is ignored and nobody
// should wait for them. The transcripts of the session and of its
// children (Ralph rounds, delegated tasks) go after the hooks had their
// look.
func (a *Agent) DeleteSession(ctx context.Context, id string) error {
	ev := lifecycle.SessionEndEvent{SessionID: id, Reason: lifecycle.EndClear}
	sess, err := a.cfg.DB.Session(ctx, id)
	if err != nil {
		return err
	}
	if ev.ProjectDir, err = a.projectPath(ctx, sess.ProjectID); err != nil {
		return err
	}
	children, err := a.cfg.DB.DeleteSession(ctx, id)
	if err != nil {
		return err
	}
	var files []string
	if a.cfg.TranscriptDir != "" {
		for _, sid := range append([]string{id}, children...) {
			files = append(files, TranscriptFile(a.cfg.TranscriptDir, sid))
		}
	}
	if len(files) > 0 {
		ev.TranscriptPath = files[0]
	}
	go func() {
		if sess.Kind == storage.KindChat {
			a.cfg.Lifecycle.SessionEnd(context.WithoutCancel(ctx), ev)
		}
		for _, f := range files {
			os.Remove(f)
		}
	}()
	return nil
}

func (a *Agent) projectPath(ctx context.Context, projectID int64) (string, error) {
	projects, err := a.cfg.DB.Projects(ctx)
	if err != nil {
		return "", err
	}
	for _, p := range projects {
		if p.ID == projectID {
			return p.Path, nil
		}
	}
	return "", fmt.Errorf("project %d: %w", projectID, storage.ErrNotFound)
}

// DB is the agent's database (for views that list stored transcripts).
func (a *Agent) DB() *storage.DB { return a.cfg.DB }

func newID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported systems
	}
	return hex.EncodeToString(b[:])
}

// Transcript reads a stored session's entries (e.g. a Ralph round shown
// under its parent).
func (a *Agent) Transcript(ctx context.Context, sessionID string) ([]Entry, error) {
	rows, err := a.cfg.DB.Messages(ctx, sessionID, 0)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(rows))
	for _, r := range rows {
		e, err := decodeEntry(r)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
