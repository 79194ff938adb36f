package agent

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/storage"
)

// Setting keys owned by the agent.
const (
	keyProviderPreset = "provider.preset"
	keyProviderKind   = "provider.kind"
	keyProviderURL    = "provider.base_url"
	keyProviderModel  = "provider.model"
	keyProviderKey    = "provider.api_key" // a secret (storage.DB.Secret); a row of this name is an old one, moved on load
	keyProviderKeyEnv = "provider.api_key_env"
	keyProviderWindow = "provider.context_window"
	keyProviderThink  = "provider.thinking_budget"
	keyProviderMax    = "provider.max_tokens"
	keyApprovalPolicy = "approval.policy"
	keyRalphRounds    = "ralph.rounds"
	keySubagentModel  = "subagent.model." // + sonnet, opus or haiku
	keyOutputStyle    = "output.style"    // a style's name; "" is Default
)

// ProviderSettings is the Providers section of Preferences.
type ProviderSettings struct {
	Preset    string
	Kind      string
	BaseURL   string
	Model     string
	APIKey    string // kept in the OS keyring, else a private file (storage.DB.Secret), never in a row
	APIKeyEnv string // or: the environment variable holding the key
	// ContextWindow is the user's own value, in tokens; 0 means "what the
	// server states" (see ServerInfo.Window).
	ContextWindow int
	// ThinkingBudget is llm.Config.ThinkingBudget: Anthropic extended
	// thinking, in tokens; 0 is off.
	ThinkingBudget int
	// MaxTokens is the room for one answer, in tokens (Anthropic adds the
	// thinking budget on top); 0 is the default: the room ds4-server
	// states, else 8192, or a quarter of a smaller context window.
	MaxTokens int
}

// Config resolves the settings into a provider config; getenv reads
// APIKeyEnv.
func (p ProviderSettings) Config(getenv func(string) string) llm.Config {
	key := p.APIKey
	if key == "" && p.APIKeyEnv != "" {
		key = getenv(p.APIKeyEnv)
	}
	return llm.Config{Kind: p.Kind, BaseURL: strings.TrimRight(p.BaseURL, "/"), Model: p.Model, APIKey: key, ContextWindow: p.ContextWindow,
		ThinkingBudget: p.ThinkingBudget, MaxTokens: p.MaxTokens}
}

// Validate reports the first field a user must fix.
func (p ProviderSettings) Validate() error {
	switch {
	case p.Kind != llm.KindOpenAI && p.Kind != llm.KindAnthropic:
		return fmt.Errorf("choose a provider kind (%s or %s)", llm.KindOpenAI, llm.KindAnthropic)
	case !strings.HasPrefix(p.BaseURL, "http://") && !strings.HasPrefix(p.BaseURL, "https://"):
		return fmt.Errorf("the base URL must start with http:// or https://")
	case strings.TrimSpace(p.Model) == "":
		return fmt.Errorf("enter a model name")
	case p.ContextWindow != 0 && p.ContextWindow < 1024:
		return fmt.Errorf("the context window must be at least 1024 tokens (or empty: the server's own)")
	case p.ThinkingBudget != 0 && p.ThinkingBudget < llm.MinThinkingBudget:
		return fmt.Errorf("the thinking budget is 0 (off) or at least %d tokens", llm.MinThinkingBudget)
	case p.MaxTokens != 0 && p.MaxTokens < 256:
		return fmt.Errorf("the answer room must be at least 256 tokens (or empty: the default)")
	case p.ContextWindow != 0 && p.MaxTokens >= p.ContextWindow:
		return fmt.Errorf("the answer room must be smaller than the context window")
	case p.ContextWindow != 0 && p.ThinkingBudget >= p.ContextWindow:
		return fmt.Errorf("the thinking budget must be smaller than the context window")
	}
	return nil
}

// PresetSettings returns the settings of a named preset. Its context
// window is left to the server (the preset's value is only the fallback).
func PresetSettings(name string) (ProviderSettings, bool) {
	for _, p := range llm.Presets {
		if p.Name == name {
			return ProviderSettings{Preset: p.Name, Kind: p.Kind, BaseURL: p.BaseURL, Model: p.Model,
				APIKeyEnv: p.APIKeyEnv, ThinkingBudget: p.ThinkingBudget}, true
		}
	}
	return ProviderSettings{}, false
}

// LoadProvider reads the provider settings; ok is false when none were
// ever saved (first start).
func LoadProvider(ctx context.Context, db *storage.DB) (ProviderSettings, bool, error) {
	vals, err := settings(ctx, db, keyProviderPreset, keyProviderKind, keyProviderURL, keyProviderModel,
		keyProviderKey, keyProviderKeyEnv, keyProviderWindow, keyProviderThink, keyProviderMax)
	if err != nil {
		return ProviderSettings{}, false, err
	}
	key, err := providerKey(ctx, db, vals[keyProviderKey])
	if err != nil {
		return ProviderSettings{}, false, err
	}
	if vals[keyProviderKind] == "" {
		p, _ := PresetSettings(llm.Presets[0].Name)
		return p, false, nil
	}
	window, _ := strconv.Atoi(vals[keyProviderWindow])
	if copiedFromPreset(vals[keyProviderPreset], window) {
		window = 0
	}
	think, _ := strconv.Atoi(vals[keyProviderThink]) // absent before thinking could be set: off
	maxTokens, _ := strconv.Atoi(vals[keyProviderMax])
	return ProviderSettings{Preset: vals[keyProviderPreset], Kind: vals[keyProviderKind], BaseURL: vals[keyProviderURL],
		Model: vals[keyProviderModel], APIKey: key, APIKeyEnv: vals[keyProviderKeyEnv], ContextWindow: window,
		ThinkingBudget: think, MaxTokens: maxTokens}, true, nil
}

// SaveProvider stores the provider settings after validating them.
func SaveProvider(ctx context.Context, db *storage.DB, p ProviderSettings) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := db.SetSecret(keyProviderKey, p.APIKey); err != nil {
		return fmt.Errorf("keep the API key in %s: %w", db.SecretsWhere(), err)
	}
	if err := db.DeleteSettings(ctx, keyProviderKey); err != nil { // an old plain row
		return err
	}
	return db.SetSettings(ctx, map[string]string{
		keyProviderPreset: p.Preset, keyProviderKind: p.Kind, keyProviderURL: p.BaseURL, keyProviderModel: p.Model,
		keyProviderKeyEnv: p.APIKeyEnv, keyProviderWindow: strconv.Itoa(p.ContextWindow),
		keyProviderThink: strconv.Itoa(p.ThinkingBudget), keyProviderMax: strconv.Itoa(p.MaxTokens),
	})
}

// providerKey reads the API key from the secret store. A key an older
// AgentDesk left in a settings row is moved there first, the row deleted
// and the log checkpointed, so its bytes stay in neither database file.
func providerKey(ctx context.Context, db *storage.DB, row string) (string, error) {
	if row != "" {
		if err := db.SetSecret(keyProviderKey, row); err != nil {
			return "", fmt.Errorf("move the API key to %s: %w", db.SecretsWhere(), err)
		}
		if err := db.DeleteSettings(ctx, keyProviderKey); err != nil {
			return "", err
		}
		if err := db.Checkpoint(ctx); err != nil {
			return "", err
		}
	}
	key, _ := db.Secret(keyProviderKey)
	return key, nil
}

// LoadPolicy reads the approval policy (default: ask).
func LoadPolicy(ctx context.Context, db *storage.DB) Policy {
	v, _, _ := db.Setting(ctx, keyApprovalPolicy)
	p, err := ParsePolicy(v)
	if err != nil {
		return PolicyAsk
	}
	return p
}

// SavePolicy stores the approval policy.
func SavePolicy(ctx context.Context, db *storage.DB, p Policy) error {
	if _, err := ParsePolicy(string(p)); err != nil {
		return err
	}
	return db.SetSetting(ctx, keyApprovalPolicy, string(p))
}

// LoadRalphRounds reads the default number of Ralph rounds.
func LoadRalphRounds(ctx context.Context, db *storage.DB) int {
	v, _, _ := db.Setting(ctx, keyRalphRounds)
	if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= MaxRalphRounds {
		return n
	}
	return DefaultRalphRounds
}

// SaveRalphRounds stores the default number of Ralph rounds.
func SaveRalphRounds(ctx context.Context, db *storage.DB, n int) error {
	if n < 1 || n > MaxRalphRounds {
		return fmt.Errorf("rounds must be from 1 to %d", MaxRalphRounds)
	}
	return db.SetSetting(ctx, keyRalphRounds, strconv.Itoa(n))
}

// SubagentAliases are the model words agent files use that Preferences
// map to a model of the current provider.
var SubagentAliases = []string{"sonnet", "opus", "haiku"}

// LoadSubagentModel is the model an agent asking for alias runs on; ""
// means the session's model (the default: a local server has one).
func LoadSubagentModel(ctx context.Context, db *storage.DB, alias string) string {
	v, _, _ := db.Setting(ctx, keySubagentModel+alias)
	return strings.TrimSpace(v)
}

// SaveSubagentModel stores it; "" goes back to the session's model.
func SaveSubagentModel(ctx context.Context, db *storage.DB, alias, model string) error {
	if !slices.Contains(SubagentAliases, alias) {
		return fmt.Errorf("unknown model alias %q (want sonnet, opus or haiku)", alias)
	}
	return db.SetSetting(ctx, keySubagentModel+alias, strings.TrimSpace(model))
}

// LoadOutputStyle is the name of the chosen output style; "" is Default.
func LoadOutputStyle(ctx context.Context, db *storage.DB) string {
	v, _, _ := db.Setting(ctx, keyOutputStyle)
	return strings.TrimSpace(v)
}

// SaveOutputStyle stores it; "" goes back to Default. Whether the name is
// offered is the caller's to check: a style comes and goes with its
// extension, and the choice is kept for when it is back.
func SaveOutputStyle(ctx context.Context, db *storage.DB, name string) error {
	return db.SetSetting(ctx, keyOutputStyle, strings.TrimSpace(name))
}

func settings(ctx context.Context, db *storage.DB, keys ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, k := range keys {
		v, _, err := db.Setting(ctx, k)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}
