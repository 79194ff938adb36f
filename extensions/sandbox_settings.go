package extensions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/storage"
)

// Setting keys of the sandbox's folders (Preferences → Advanced), one
// path a line.
const (
	keySandboxRead    = "sandbox.read"
	keySandboxWrite   = "sandbox.write"
	keySandboxSecrets = "sandbox.secrets"
)

// LoadSandboxFolders reads the user's sandbox folders; missing settings
// are empty lists.
func LoadSandboxFolders(ctx context.Context, db *storage.DB) childproc.UserFolders {
	list := func(key string) []string {
		v, _, _ := db.Setting(ctx, key)
		return SplitPaths(v)
	}
	return childproc.UserFolders{Read: list(keySandboxRead), Write: list(keySandboxWrite), Secrets: list(keySandboxSecrets)}
}

// SaveSandboxFolders validates and stores f and applies it to every child
// started from now on. Readable and writable folders must be absolute;
// secrets may also be relative to the home folder (".config/foo"),
// and ~/ starts a path in the home folder.
func SaveSandboxFolders(ctx context.Context, db *storage.DB, f childproc.UserFolders) error {
	home, _ := os.UserHomeDir()
	for _, l := range [][]string{f.Read, f.Write} {
		for i, p := range l {
			if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
				p = filepath.Join(home, rest)
				l[i] = p
			}
			if !filepath.IsAbs(p) {
				return fmt.Errorf("%q is not an absolute path (or one starting with ~/)", p)
			}
		}
	}
	if err := db.SetSettings(ctx, map[string]string{keySandboxRead: strings.Join(f.Read, "\n"),
		keySandboxWrite: strings.Join(f.Write, "\n"), keySandboxSecrets: strings.Join(f.Secrets, "\n")}); err != nil {
		return err
	}
	childproc.SetUserFolders(f)
	return nil
}

// ApplySandboxFolders hands the stored folders to childproc, at start.
func ApplySandboxFolders(ctx context.Context, db *storage.DB) {
	childproc.SetUserFolders(LoadSandboxFolders(ctx, db))
}

// SplitPaths reads one path a line (commas too), trimmed, blanks dropped.
func SplitPaths(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// SandboxFolders reads the user's sandbox folders.
func (m *Manager) SandboxFolders(ctx context.Context) childproc.UserFolders {
	return LoadSandboxFolders(ctx, m.db)
}

// SaveSandboxFolders validates, stores and applies them.
func (m *Manager) SaveSandboxFolders(ctx context.Context, f childproc.UserFolders) error {
	return SaveSandboxFolders(ctx, m.db, f)
}
