// Package storage owns AgentDesk's durable state: where files live on disk
// and the SQLite database (open, migrations, typed repositories). It
// imports nothing else of AgentDesk, has no Fyne and no network.
package storage

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// HomeEnv, when set, puts everything AgentDesk writes under one folder
// (tests, portable installs) instead of the XDG locations.
const HomeEnv = "AGENTDESK_HOME"

// Paths are the folders AgentDesk reads and writes.
type Paths struct {
	Data  string // database, extensions store, extension data
	State string // logs
	Cache string
}

// ResolvePaths decides the folders from AGENTDESK_HOME or the XDG base
// directories. It creates nothing; call Ensure for that.
func ResolvePaths() Paths {
	if home := os.Getenv(HomeEnv); home != "" {
		home = filepath.Clean(home)
		return Paths{Data: home, State: home, Cache: filepath.Join(home, "cache")}
	}
	return Paths{
		Data:  filepath.Join(xdg.DataHome, "agentdesk"),
		State: filepath.Join(xdg.StateHome, "agentdesk"),
		Cache: filepath.Join(xdg.CacheHome, "agentdesk"),
	}
}

// Database is the SQLite file.
func (p Paths) Database() string { return filepath.Join(p.Data, "agentdesk.db") }

// Extensions is the root of the extensions store, staging and data dirs.
func (p Paths) Extensions() string { return filepath.Join(p.Data, "extensions") }

// Transcripts holds each session's JSONL transcript, which hooks read
// (transcript_path).
func (p Paths) Transcripts() string { return filepath.Join(p.Data, "transcripts") }

// LogFile is where slog writes.
func (p Paths) LogFile() string { return filepath.Join(p.State, "logs", "agentdesk.log") }

// Ensure creates the folders, private to the user (0700).
func (p Paths) Ensure() error {
	for _, dir := range []string{p.Data, p.State, p.Cache, filepath.Dir(p.LogFile()), p.Extensions()} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	return nil
}
