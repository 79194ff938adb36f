package storage

import (
	"path/filepath"

	"github.com/agentdesk/agentdesk/storage/secrets"
)

// keyringService names AgentDesk's own entries (API keys) in the OS
// keyring.
const keyringService = "AgentDesk"

// UseKeyring keeps secret settings in the OS keyring where one answers
// (the app calls it; tests keep them in the private file beside the
// database, so they never touch a real keyring).
func (db *DB) UseKeyring() {
	db.secrets = secrets.New(keyringService, filepath.Join(filepath.Dir(db.path), "secrets.json"), true)
}

// Secret reads a secret setting, such as an API key.
func (db *DB) Secret(name string) (string, bool) { return db.secrets.Get(name) }

// SetSecret stores a secret setting; an empty value deletes it.
func (db *DB) SetSecret(name, value string) error {
	if value == "" {
		return db.secrets.Delete(name)
	}
	return db.secrets.Set(name, value)
}

// SecretsWhere says where secret settings are kept, for the user.
func (db *DB) SecretsWhere() string { return db.secrets.Where() }
