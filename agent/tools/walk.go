package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// gitDir is never listed, searched or descended.
const gitDir = ".git"

// readDirBatch is how many entries are read from a directory at a time, so
// the visit limit stops a huge directory before it is read whole.
const readDirBatch = 256

// errVisitLimit stops a walk that visited more entries than allowed.
var errVisitLimit = errors.New("visit limit reached")

// errResultLimit stops a search that found more results than allowed.
var errResultLimit = errors.New("result limit reached")

// walker visits a tree depth-first in name order. It never enters .git
// or follows a symlinked directory, and counts every entry it reads.
type walker struct {
	root       *os.Root
	maxVisit   int
	visited    int
	unreadable []string // directories that could not be read, root-relative
}

// visitFunc sees one entry; rel is its slash path below the walk's start.
// It returns whether to descend into a directory.
type visitFunc func(rel string, d fs.DirEntry) (descend bool, err error)

// walk visits everything below start, a directory name inside w.root.
func (w *walker) walk(ctx context.Context, start string, visit visitFunc) error {
	return w.walkDir(ctx, start, "", visit)
}

func (w *walker) walkDir(ctx context.Context, start, rel string, visit visitFunc) error {
	entries, err := w.readDir(filepath.Join(start, filepath.FromSlash(rel)))
	if errors.Is(err, errVisitLimit) {
		return err
	}
	if err != nil {
		w.unreadable = append(w.unreadable, path.Join(filepath.ToSlash(start), rel))
		return nil
	}
	for _, d := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Name() == gitDir {
			continue
		}
		childRel := path.Join(rel, d.Name())
		descend, err := visit(childRel, d)
		if err != nil {
			return err
		}
		if descend && d.IsDir() {
			if err := w.walkDir(ctx, start, childRel, visit); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDir reads a directory in batches, counting entries against the limit.
func (w *walker) readDir(name string) ([]fs.DirEntry, error) {
	f, err := w.root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []fs.DirEntry
	for {
		batch, err := f.ReadDir(readDirBatch)
		w.visited += len(batch)
		if w.visited > w.maxVisit {
			return nil, errVisitLimit
		}
		entries = append(entries, batch...)
		if err == io.EOF || (err == nil && len(batch) == 0) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// note describes directories the walk had to skip, or is empty.
func (w *walker) note() string {
	if len(w.unreadable) == 0 {
		return ""
	}
	return fmt.Sprintf("note: %d directories could not be read and were skipped (first: %s)",
		len(w.unreadable), w.unreadable[0])
}

// searchLimitError words a limit hit by a search tool, with the way out.
func searchLimitError(tool string, err error, lim *limits) error {
	switch {
	case errors.Is(err, errVisitLimit):
		return fmt.Errorf("%s stopped after visiting %d directory entries without finishing; "+
			"search a narrower path or use a more specific pattern", tool, lim.visitEntries)
	case errors.Is(err, errResultLimit):
		return fmt.Errorf("%s found more than %d results; "+
			"search a narrower path or use a more specific pattern", tool, lim.searchResults)
	}
	return fmt.Errorf("%s: %w", tool, err)
}

// statDir checks that a resolved location is a directory a search may start in.
func statDir(loc location) error {
	shown := loc.show(loc.name)
	if insideGit(loc.name) {
		return errInsideGit(shown)
	}
	info, err := loc.root.Stat(loc.name)
	if err != nil {
		return pathProblem("open", shown, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is a file, not a directory", shown)
	}
	return nil
}

// errInsideGit refuses to list or search .git.
func errInsideGit(shown string) error {
	return fmt.Errorf("%s is inside .git, which is never listed or searched; use run_command with git instead", shown)
}
