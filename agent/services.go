package agent

import (
	"context"
	"strings"

	"github.com/agentdesk/agentdesk/storage"
)

// What the views need of the agent, so they never reach storage: the
// stored records they show, and the Preferences the agent owns.

// Project is a folder the agent works in, as stored.
type Project = storage.Project

// SessionInfo is a stored session's record (id, title, times).
type SessionInfo = storage.Session

// ErrNotFound is returned for a project or session that is not stored.
var ErrNotFound = storage.ErrNotFound

// Projects lists the known projects, most recently opened first.
func (a *Agent) Projects(ctx context.Context) ([]Project, error) { return a.cfg.DB.Projects(ctx) }

// Settings is the agent's part of Preferences: the provider, the model,
// the approval policy and the Ralph rounds.
type Settings struct{ db *storage.DB }

// Settings returns the Preferences service over the agent's database.
func (a *Agent) Settings() Settings { return Settings{db: a.cfg.DB} }

// Provider reads the provider settings; saved is false before the first
// save (first start).
func (s Settings) Provider(ctx context.Context) (p ProviderSettings, saved bool, err error) {
	return LoadProvider(ctx, s.db)
}

// SaveProvider validates and stores the provider settings.
func (s Settings) SaveProvider(ctx context.Context, p ProviderSettings) error {
	return SaveProvider(ctx, s.db, p)
}

// SetModel changes only the model of the saved provider.
func (s Settings) SetModel(ctx context.Context, model string) error {
	p, _, err := LoadProvider(ctx, s.db)
	if err != nil {
		return err
	}
	p.Model = model
	return SaveProvider(ctx, s.db, p)
}

// FirstRun saves what probe finds (a local model server) when no
// provider was ever saved, and reports whether it saved one.
func (s Settings) FirstRun(ctx context.Context, probe func(context.Context) (ProviderSettings, bool)) (bool, error) {
	if _, saved, err := LoadProvider(ctx, s.db); err != nil || saved || probe == nil {
		return false, err
	}
	p, ok := probe(ctx)
	if !ok {
		return false, nil
	}
	return true, SaveProvider(ctx, s.db, p)
}

// SecretsWhere says where API keys typed into Preferences are kept.
func (s Settings) SecretsWhere() string { return s.db.SecretsWhere() }

// Policy reads the approval policy.
func (s Settings) Policy(ctx context.Context) Policy { return LoadPolicy(ctx, s.db) }

// SavePolicy stores the approval policy.
func (s Settings) SavePolicy(ctx context.Context, p Policy) error { return SavePolicy(ctx, s.db, p) }

// RalphRounds reads the default number of Ralph rounds.
func (s Settings) RalphRounds(ctx context.Context) int { return LoadRalphRounds(ctx, s.db) }

// SubagentModel is the model agents asking for alias (sonnet, opus,
// haiku) run on; "" is the session's.
func (s Settings) SubagentModel(ctx context.Context, alias string) string {
	return LoadSubagentModel(ctx, s.db, alias)
}

// SaveSubagentModel stores it.
func (s Settings) SaveSubagentModel(ctx context.Context, alias, model string) error {
	return SaveSubagentModel(ctx, s.db, alias, model)
}

// SaveRalphRounds stores it.
func (s Settings) SaveRalphRounds(ctx context.Context, n int) error {
	return SaveRalphRounds(ctx, s.db, n)
}

// OutputStyle is the name of the chosen output style; "" is Default.
func (s Settings) OutputStyle(ctx context.Context) string { return LoadOutputStyle(ctx, s.db) }

// SaveOutputStyle stores the chosen output style ("" or DefaultStyle:
// Default); the next turn of every session uses it.
func (s Settings) SaveOutputStyle(ctx context.Context, name string) error {
	if strings.EqualFold(name, DefaultStyle) {
		name = ""
	}
	return SaveOutputStyle(ctx, s.db, name)
}
