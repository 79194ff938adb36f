package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// access says what a resolved path will be used for.
type access int

const (
	forRead access = iota
	forWrite
)

// roots maps the paths the model writes onto os.Roots. The project root is
// opened once; a skill folder is opened per call, because the folders the
// model may read change as extensions are enabled and disabled.
type roots struct {
	project     *os.Root
	projectDir  string // absolute and clean, as the user gave it
	projectReal string // the same with symlinks resolved
	readRoots   func() []ReadRoot
}

func openRoots(projectDir string, readRoots func() []ReadRoot) (*roots, error) {
	abs, err := filepath.Abs(projectDir)
	if err != nil {
		return nil, err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	return &roots{project: root, projectDir: abs, projectReal: resolved, readRoots: readRoots}, nil
}

func (r *roots) close() error {
	return r.project.Close()
}

// location is a resolved path: a root and the name inside it.
type location struct {
	root *os.Root
	name string // inside root, with OS separators; "." is the root itself
	// base is empty for the project, whose paths are shown relative to it,
	// and the folder's absolute path for a skill folder.
	base  string
	owned bool // root was opened for this call
	// expand is the read root's rewrite of what read_file returns.
	expand func(file, text string) (string, string)
}

// show is how results print a name inside l's root: project-relative for
// the project, so the model can pass it straight back, absolute otherwise.
func (l location) show(name string) string {
	if l.base == "" {
		return filepath.ToSlash(name)
	}
	return filepath.Join(l.base, name)
}

// release closes a root opened for this call.
func (l location) release() {
	if l.owned {
		l.root.Close()
	}
}

// resolve finds the root holding path p. A relative path is inside the
// project; an absolute one must lie inside the project, a writable read
// root (an additional directory) or, for reads, one of the skill folders. The lexical checks here only choose a root and
// word refusals; the os.Root then refuses anything, such as a symlink,
// that would leave it.
func (r *roots) resolve(p string, a access) (location, error) {
	if p == "" {
		return location{}, errRequired("path")
	}
	clean := filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(clean) {
		if !filepath.IsLocal(clean) {
			return location{}, fmt.Errorf("%s is outside the project root %s", p, r.projectDir)
		}
		return location{root: r.project, name: clean}, nil
	}
	if name, ok := within(clean, r.projectDir, r.projectReal); ok {
		return location{root: r.project, name: name}, nil
	}
	return r.resolveReadRoot(p, clean, a)
}

func (r *roots) resolveReadRoot(p, clean string, a access) (location, error) {
	for _, rr := range r.readRootDirs() {
		dir := rr.Dir
		resolved, err := filepath.EvalSymlinks(dir)
		if err != nil {
			resolved = ""
		}
		name, ok := within(clean, dir, resolved)
		if !ok {
			continue
		}
		if a == forWrite && !rr.Writable {
			return location{}, fmt.Errorf("%s is in a read-only skill folder; write tools only write inside the project root %s", p, r.projectDir)
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			return location{}, pathProblem("open folder", dir, err)
		}
		return location{root: root, name: name, base: dir, owned: true, expand: rr.Expand}, nil
	}
	if a == forWrite {
		return location{}, fmt.Errorf("%s is outside the project root %s and its additional directories; write tools only write inside them", p, r.projectDir)
	}
	return location{}, fmt.Errorf("%s is outside the project root %s, its additional directories and the enabled skill folders", p, r.projectDir)
}

// readRootDirs returns the current skill folders, their paths clean
// and absolute.
func (r *roots) readRootDirs() []ReadRoot {
	if r.readRoots == nil {
		return nil
	}
	var dirs []ReadRoot
	for _, rr := range r.readRoots() {
		if rr.Dir == "" {
			continue
		}
		if abs, err := filepath.Abs(rr.Dir); err == nil {
			rr.Dir = abs
			dirs = append(dirs, rr)
		}
	}
	return dirs
}

// within reports whether the clean absolute path p is one of dirs or below
// it, and returns the rest of p relative to that directory.
func within(p string, dirs ...string) (string, bool) {
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		if p == dir {
			return ".", true
		}
		prefix := dir
		if !strings.HasSuffix(prefix, string(filepath.Separator)) {
			prefix += string(filepath.Separator)
		}
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			return rest, true
		}
	}
	return "", false
}

// insideGit reports whether a root-relative name is .git or below it.
func insideGit(name string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(name), "/") {
		if seg == gitDir {
			return true
		}
	}
	return false
}
