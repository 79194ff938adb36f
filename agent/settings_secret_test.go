package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/storage"
)

// An API key typed into Preferences never lands in a settings row; one an
// older version left there is moved to the secret store on load.
func TestProviderKeyIsASecretNotARow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := storage.Open(ctx, filepath.Join(dir, "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, _ := PresetSettings("ds4-server")
	p.APIKey = "sk-typed-in-preferences"
	if err := SaveProvider(ctx, db, p); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := db.Setting(ctx, keyProviderKey); ok {
		t.Fatalf("the key is in a settings row: %q", v)
	}
	if got, _, _ := LoadProvider(ctx, db); got.APIKey != p.APIKey {
		t.Fatalf("loaded key %q", got.APIKey)
	}
	if where := (Settings{db: db}).SecretsWhere(); !strings.Contains(where, filepath.Join(dir, "secrets.json")) {
		t.Errorf("where = %q; without a keyring the private file must be named", where)
	}

	// As an older AgentDesk stored it.
	if err := db.SetSetting(ctx, keyProviderKey, "sk-old-row"); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := LoadProvider(ctx, db); got.APIKey != "sk-old-row" {
		t.Fatalf("old key not read: %q", got.APIKey)
	}
	if v, ok, _ := db.Setting(ctx, keyProviderKey); ok {
		t.Fatalf("the old row was not removed: %q", v)
	}
	if v, _ := db.Secret(keyProviderKey); v != "sk-old-row" {
		t.Fatalf("the old key was not moved: %q", v)
	}
	p.APIKey = ""
	if err := SaveProvider(ctx, db, p); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.Secret(keyProviderKey); ok {
		t.Fatal("clearing the key must delete it")
	}
}
