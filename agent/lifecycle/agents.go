package lifecycle

import "context"

// Agent is one subagent type an enabled extension offers: data only. The
// loop runs it as a fresh-context child; nothing here runs by itself.
type Agent struct {
	// Name is what the model passes as subagent_type: the short name
	// ("code-reviewer") when one extension defines it, else the
	// namespaced one.
	Name string
	// Type is the namespaced name ("feature-dev:code-reviewer"): hooks'
	// agent_type, and always accepted as subagent_type.
	Type        string
	Extension   string // extension id
	Label       string // extension display name
	Description string
	// Tools is the allowlist in Claude Code's names as written; nil means
	// every tool a child may have.
	Tools           []string
	DisallowedTools []string
	Model           string // as written: inherit, sonnet, opus, haiku, a model id, any word
	MaxTurns        int    // 0: the host's ceiling
	Skills          []string
	Color           string
	Path            string // package-relative file
	// Prompt is the agent's system prompt body, its variables
	// (${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA}, …) replaced.
	Prompt string
}

// AgentConflict is a short name more than one extension defines: only
// the namespaced forms are offered.
type AgentConflict struct {
	Name    string
	Sources []string // extension ids, in installation order
}

// AgentSet is what the model may delegate to right now.
type AgentSet struct {
	Agents    []Agent // installation order, then file order
	Conflicts []AgentConflict
}

// AgentSource gives the enabled extensions' agents: as the job ctx
// belongs to sees them (TurnScope), else as they are now, so a disabled
// or uninstalled extension's agents are gone from the next turn.
type AgentSource interface {
	// Agents lists them for a session in projectDir (which
	// ${CLAUDE_PROJECT_DIR} in a body names).
	Agents(ctx context.Context, projectDir string) AgentSet
}
