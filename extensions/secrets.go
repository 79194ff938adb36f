package extensions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/zalando/go-keyring"
)

// keyringService names AgentDesk's entries in the OS keyring.
const keyringService = "AgentDesk extensions"

// secrets keeps sensitive userConfig values: in the OS keyring (macOS
// Keychain, the Secret Service on Linux desktops, Windows Credential
// Manager) where one answers, else in a JSON file only the user can read
// (0600, in a 0700 folder), which Where says so the card can show it.
// Never in the SQLite registry.
type secrets struct {
	file string // the fallback file
	mu   sync.Mutex
}

// Where says where sensitive values are kept, for the card.
func (s *secrets) Where() string {
	if keyringWorks() {
		return "the system keyring"
	}
	return s.file + " (no system keyring here; the file is readable only by you)"
}

// keyringWorks probes the keyring once per call with a harmless lookup.
func keyringWorks() bool {
	_, err := keyring.Get(keyringService, "probe")
	return err == nil || errors.Is(err, keyring.ErrNotFound)
}

func account(id, key string) string { return id + "/" + key }

func (s *secrets) get(id, key string) (string, bool) {
	if v, err := keyring.Get(keyringService, account(id, key)); err == nil {
		return v, true
	}
	m, _ := s.readFile()
	v, ok := m[account(id, key)]
	return v, ok
}

func (s *secrets) set(id, key, value string) error {
	if err := keyring.Set(keyringService, account(id, key), value); err == nil {
		return s.deleteFromFile(account(id, key))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readFile()
	if err != nil {
		return err
	}
	m[account(id, key)] = value
	return s.writeFile(m)
}

func (s *secrets) delete(id, key string) error {
	err := keyring.Delete(keyringService, account(id, key))
	if err != nil && !errors.Is(err, keyring.ErrNotFound) && keyringWorks() {
		return err
	}
	return s.deleteFromFile(account(id, key))
}

func (s *secrets) deleteFromFile(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readFile()
	if err != nil || m[name] == "" {
		return err
	}
	delete(m, name)
	return s.writeFile(m)
}

func (s *secrets) readFile() (map[string]string, error) {
	m := map[string]string{}
	data, err := os.ReadFile(s.file)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s is unreadable: %w", s.file, err)
	}
	return m, nil
}

// writeFile replaces the file atomically, readable only by the user.
func (s *secrets) writeFile(m map[string]string) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return err
	}
	tmp := s.file + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, s.file)
}
