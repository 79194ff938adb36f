package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

func TestFileFallbackIsPrivate(t *testing.T) {
	file := filepath.Join(t.TempDir(), "d", "secrets.json")
	s := New("AgentDesk test", file, false)
	if err := s.Set("a", "one"); err != nil {
		t.Fatal(err)
	}
	if v, ok := s.Get("a"); !ok || v != "one" {
		t.Fatalf("Get = %q %v", v, ok)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	if dir, _ := os.Stat(filepath.Dir(file)); dir.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %v; want 0700", dir.Mode().Perm())
	}
	if !strings.Contains(s.Where(), file) {
		t.Errorf("Where = %q", s.Where())
	}
	if err := s.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get("a"); ok {
		t.Fatal("deleted value still there")
	}
}

func TestKeyringWhenItAnswers(t *testing.T) {
	keyring.MockInit()
	file := filepath.Join(t.TempDir(), "secrets.json")
	s := New("AgentDesk test", file, true)
	if err := s.Set("k", "v"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("with a keyring nothing may be written to the file")
	}
	if v, ok := s.Get("k"); !ok || v != "v" || s.Where() != "the system keyring" {
		t.Fatalf("Get = %q %v, where %q", v, ok, s.Where())
	}
	keyring.MockInitWithError(errors.New("no secret service"))
	if err := s.Set("k2", "v2"); err != nil {
		t.Fatal(err)
	}
	if v, ok := s.Get("k2"); !ok || v != "v2" || !strings.Contains(s.Where(), file) {
		t.Fatalf("without a keyring: %q %v, where %q", v, ok, s.Where())
	}
}
