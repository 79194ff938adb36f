// Package secrets keeps secret values (API keys, sensitive extension
// settings) out of the SQLite database: in the OS keyring (macOS
// Keychain, the Secret Service on Linux desktops, Windows Credential
// Manager) where one answers, else in a JSON file only the user can read
// (0600 in a 0700 folder), which Where names so the user can see it.
package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/zalando/go-keyring"
)

// Store is one service's secrets. Its zero value is not usable: see New.
type Store struct {
	service string
	file    string // the fallback file
	keyring bool   // false: the file only (tests, or a user who opts out)
	mu      sync.Mutex
}

// New returns the store of service with file as the fallback; useKeyring
// false keeps everything in the file (tests never touch a real keyring).
func New(service, file string, useKeyring bool) *Store {
	return &Store{service: service, file: file, keyring: useKeyring}
}

// Where says where values are kept, for the user.
func (s *Store) Where() string {
	if s.keyringWorks() {
		return "the system keyring"
	}
	return s.file + " (no system keyring here; the file is readable only by you)"
}

// keyringWorks probes the keyring with a harmless lookup.
func (s *Store) keyringWorks() bool {
	if !s.keyring {
		return false
	}
	_, err := keyring.Get(s.service, "probe")
	return err == nil || errors.Is(err, keyring.ErrNotFound)
}

// Get returns the value of name and whether there is one.
func (s *Store) Get(name string) (string, bool) {
	if s.keyring {
		if v, err := keyring.Get(s.service, name); err == nil {
			return v, true
		}
	}
	m, _ := s.readFile()
	v, ok := m[name]
	return v, ok
}

// Set stores value under name, in the keyring when it answers.
func (s *Store) Set(name, value string) error {
	if s.keyring {
		if err := keyring.Set(s.service, name, value); err == nil {
			return s.deleteFromFile(name)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readFile()
	if err != nil {
		return err
	}
	m[name] = value
	return s.writeFile(m)
}

// Delete removes name wherever it is kept.
func (s *Store) Delete(name string) error {
	if s.keyring {
		err := keyring.Delete(s.service, name)
		if err != nil && !errors.Is(err, keyring.ErrNotFound) && s.keyringWorks() {
			return err
		}
	}
	return s.deleteFromFile(name)
}

func (s *Store) deleteFromFile(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readFile()
	if err != nil {
		return err
	}
	if _, ok := m[name]; !ok {
		return nil
	}
	delete(m, name)
	return s.writeFile(m)
}

func (s *Store) readFile() (map[string]string, error) {
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
func (s *Store) writeFile(m map[string]string) error {
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
