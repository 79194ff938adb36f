package extensions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// storeFormat is the layout of a stored version folder that this AgentDesk
// writes. The database has its own version; the store needs one too,
// because a newer AgentDesk may lay version folders out differently, and
// an older one that rewrote or swept them would break the newer one's
// extensions. It is recorded next to each version folder
// (store/<id>/<commit>.format), written when the version is stored.
const storeFormat = 1

// formatSuffix names a version folder's format record.
const formatSuffix = ".format"

// ErrNewerStore: a stored version was written by a newer AgentDesk. This
// one reads it but never rewrites or deletes it.
var ErrNewerStore = errors.New("was stored by a newer AgentDesk")

func (s store) formatFile(id, commit string) string {
	return s.versionDir(id, commit) + formatSuffix
}

// writeFormat records the format of a version folder just stored.
func (s store) writeFormat(id, commit string) error {
	if err := os.WriteFile(s.formatFile(id, commit), []byte(strconv.Itoa(storeFormat)+"\n"), 0o600); err != nil {
		return fmt.Errorf("record the store format: %w", err)
	}
	return nil
}

// checkVersion returns an ErrNewerStore error when the version folder was
// written by a newer AgentDesk, or its record cannot be read (it may be
// a newer one's). A folder without a record predates records: format 1.
func (s store) checkVersion(id, commit string) error {
	data, err := os.ReadFile(s.formatFile(id, commit))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	format, convErr := strconv.Atoi(strings.TrimSpace(string(data)))
	switch {
	case err != nil || convErr != nil || format < 1:
		return fmt.Errorf("extension %q version %s %w (its store format record is unreadable): it is read-only here", id, short(commit), ErrNewerStore)
	case format > storeFormat:
		return fmt.Errorf("extension %q version %s %w (store format %d; this one knows up to %d): it is read-only here; update, roll back or uninstall it with that AgentDesk",
			id, short(commit), ErrNewerStore, format, storeFormat)
	}
	return nil
}

// checkWritable returns an ErrNewerStore error when any stored version of
// id was written by a newer AgentDesk: then nothing may replace, roll
// back or delete its folders.
func (s store) checkWritable(id string) error {
	entries, err := os.ReadDir(s.extensionDir(id))
	if err != nil {
		return nil // nothing stored, nothing to keep
	}
	for _, e := range entries {
		if commit, ok := strings.CutSuffix(e.Name(), formatSuffix); ok {
			if err := s.checkVersion(id, commit); err != nil {
				return err
			}
		}
	}
	return nil
}
