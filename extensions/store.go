package extensions

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// store is the on-disk layout under <data>/extensions:
//
//	store/<id>/<commit>/   immutable checked-out versions
//	staging/<random>/      in-progress installs, each with a held lock file
//	data/<id>/             each extension's writable data dir
//	registry.lock          serialises activation across processes
type store struct{ root string }

func (s store) versionDir(id, commit string) string {
	return filepath.Join(s.root, "store", id, commit)
}
func (s store) extensionDir(id string) string { return filepath.Join(s.root, "store", id) }
func (s store) dataDir(id string) string      { return filepath.Join(s.root, "data", id) }
func (s store) stagingRoot() string           { return filepath.Join(s.root, "staging") }
func (s store) registryLock() string          { return filepath.Join(s.root, "registry.lock") }

func (s store) ensure() error {
	for _, d := range []string{filepath.Join(s.root, "store"), s.stagingRoot(), filepath.Join(s.root, "data")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	return nil
}

// staging is one in-progress install folder. Its lock file is held for
// as long as the install runs, so a sweep by another process leaves it
// alone.
type staging struct {
	dir  string
	lock *fileLock
}

func (s store) newStaging() (*staging, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	dir := filepath.Join(s.stagingRoot(), hex.EncodeToString(b[:]))
	lock, err := lockFile(dir+".lock", false)
	if err != nil {
		return nil, fmt.Errorf("lock staging folder: %w", err)
	}
	return &staging{dir: dir, lock: lock}, nil
}

// discard removes what the install left in staging.
func (st *staging) discard() {
	os.RemoveAll(st.dir)
	os.Remove(st.lock.path)
	st.lock.unlock()
}

// sweepStaging removes leftovers of installs that are not running any
// more (their lock files are free): a crash before activation leaves only
// such garbage.
func (s store) sweepStaging() error {
	entries, err := os.ReadDir(s.stagingRoot())
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".lock")
		lock, err := lockFile(filepath.Join(s.stagingRoot(), name+".lock"), true)
		if errors.Is(err, errLocked) {
			continue
		}
		if err != nil {
			return err
		}
		os.RemoveAll(filepath.Join(s.stagingRoot(), name))
		os.Remove(lock.path)
		lock.unlock()
	}
	return nil
}

// sweepStore removes version folders (with their format records) and
// data dirs the registry does not reference: what a crash between rename
// and registry flip, or during an uninstall, left behind. keep maps id →
// commits still referenced. What a newer AgentDesk stored stays.
// The caller holds the registry lock.
func (s store) sweepStore(keep map[string][]string) error {
	ids, err := os.ReadDir(filepath.Join(s.root, "store"))
	if err != nil {
		return err
	}
	for _, id := range ids {
		commits, known := keep[id.Name()]
		if !known {
			if s.checkWritable(id.Name()) == nil {
				os.RemoveAll(s.extensionDir(id.Name()))
			}
			continue
		}
		versions, err := os.ReadDir(s.extensionDir(id.Name()))
		if err != nil {
			return err
		}
		for _, v := range versions {
			commit := strings.TrimSuffix(v.Name(), formatSuffix)
			if !slices.Contains(commits, commit) && s.checkVersion(id.Name(), commit) == nil {
				os.RemoveAll(filepath.Join(s.extensionDir(id.Name()), v.Name()))
			}
		}
	}
	return s.sweepData(keep)
}

func (s store) sweepData(keep map[string][]string) error {
	dirs, err := os.ReadDir(filepath.Join(s.root, "data"))
	if err != nil {
		return err
	}
	for _, d := range dirs {
		if _, known := keep[d.Name()]; !known && s.checkWritable(d.Name()) == nil {
			os.RemoveAll(s.dataDir(d.Name()))
		}
	}
	return nil
}
