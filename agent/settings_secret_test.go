package agent

import (
	"bytes"
	"context"
	"os"
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

// A key an older version left in a row is, once moved, in neither the
// database file nor its write-ahead log: not even in free space.
func TestMovedKeyLeavesNoBytesInTheDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "agentdesk.db")
	const legacy = "sk-LEGACY-0123456789abcdef"
	old, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.SetSettings(ctx, map[string]string{keyProviderKind: "openai", keyProviderKey: legacy}); err != nil {
		t.Fatal(err)
	}
	old.Close() // the row is now in the main file, as an older version left it
	db, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, _, _ := LoadProvider(ctx, db); got.APIKey != legacy {
		t.Fatalf("old key not read: %q", got.APIKey)
	}
	for _, f := range []string{path, path + "-wal"} {
		body, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(body, []byte(legacy)) {
			t.Errorf("%s still holds the moved key's bytes", filepath.Base(f))
		}
	}
}
