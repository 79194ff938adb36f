package gitfetch

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// maxLinkHops bounds symlink resolution, as the kernel's ELOOP limit does.
const maxLinkHops = 40

// treeEntry is one file or symlink to write.
type treeEntry struct {
	path   string
	mode   filemode.FileMode
	blob   plumbing.Hash
	target string // symlink target
}

// treePlan is a commit's tree, validated in full before anything is
// written: every path is safe, limits hold, and every symlink resolves
// inside the tree.
type treePlan struct {
	entries []treeEntry
	// links maps the lower-cased path of each symlink to its target, so
	// resolution behaves as on a case-insensitive filesystem too.
	links map[string]string
	// claimed maps each lower-cased path to its spelling in the tree.
	claimed map[string]string
	bytes   int64
}

type planner struct {
	objects storer.EncodedObjectStorer
	limits  Limits
	url     string
	plan    treePlan
}

func planTree(objects storer.EncodedObjectStorer, commit *object.Commit, limits Limits, rawURL string) (*treePlan, error) {
	tree, err := object.GetTree(objects, commit.TreeHash)
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", commit.Hash, err)
	}
	p := &planner{objects: objects, limits: limits, url: rawURL,
		plan: treePlan{links: map[string]string{}, claimed: map[string]string{}}}
	if err := p.walk(tree, ""); err != nil {
		return nil, err
	}
	if err := p.plan.checkLinks(); err != nil {
		return nil, err
	}
	return &p.plan, nil
}

func (p *planner) walk(tree *object.Tree, dir string) error {
	for _, e := range tree.Entries {
		full := path.Join(dir, e.Name)
		if err := p.claim(dir, e.Name, full); err != nil {
			return err
		}
		if err := p.add(e, full); err != nil {
			return err
		}
	}
	return nil
}

func (p *planner) add(e object.TreeEntry, full string) error {
	switch e.Mode {
	case filemode.Dir:
		sub, err := object.GetTree(p.objects, e.Hash)
		if err != nil {
			return fmt.Errorf("read directory %s: %w", full, err)
		}
		return p.walk(sub, full)
	case filemode.Submodule:
		return newError(ErrSubmodule, nil, "%s is a submodule (commit %s); submodules are not supported", full, e.Hash)
	case filemode.Symlink:
		return p.addSymlink(e, full)
	case filemode.Regular, filemode.Executable, filemode.Deprecated:
		return p.addFile(e, full)
	default:
		return newError(ErrUnsafePath, nil, "%s has unsupported file mode %s", full, e.Mode)
	}
}

// claim rejects names that could write outside the tree, into repository
// metadata, or onto another entry on a case-insensitive filesystem.
func (p *planner) claim(dir, name, full string) error {
	if reason := unsafeName(name); reason != "" {
		return newError(ErrUnsafePath, nil, "%q: %s", path.Join(dir, name), reason)
	}
	if len(full) > MaxPathBytes {
		return newError(ErrUnsafePath, nil, "path %.80s... is longer than %d bytes", full, MaxPathBytes)
	}
	folded := strings.ToLower(full)
	if other, dup := p.plan.claimed[folded]; dup {
		return newError(ErrUnsafePath, nil, "%s and %s differ only in letter case", other, full)
	}
	p.plan.claimed[folded] = full
	return nil
}

func (p *planner) addFile(e object.TreeEntry, full string) error {
	blob, err := object.GetBlob(p.objects, e.Hash)
	if err != nil {
		return fmt.Errorf("read %s: %w", full, err)
	}
	if err := p.count(full, blob.Size); err != nil {
		return err
	}
	p.plan.entries = append(p.plan.entries, treeEntry{path: full, mode: e.Mode, blob: e.Hash})
	return nil
}

func (p *planner) addSymlink(e object.TreeEntry, full string) error {
	blob, err := object.GetBlob(p.objects, e.Hash)
	if err != nil {
		return fmt.Errorf("read symlink %s: %w", full, err)
	}
	if blob.Size > MaxPathBytes {
		return newError(ErrUnsafePath, nil, "symlink %s has a target longer than %d bytes", full, MaxPathBytes)
	}
	target, err := readBlob(blob)
	if err != nil {
		return fmt.Errorf("read symlink %s: %w", full, err)
	}
	if target == "" || strings.ContainsFunc(target, isControl) {
		return newError(ErrUnsafePath, nil, "symlink %s has an invalid target %q", full, target)
	}
	if err := p.count(full, blob.Size); err != nil {
		return err
	}
	p.plan.links[strings.ToLower(full)] = target
	p.plan.entries = append(p.plan.entries, treeEntry{path: full, mode: e.Mode, target: target})
	return nil
}

// count applies the file-count and size limits to one more entry.
func (p *planner) count(full string, size int64) error {
	if n := len(p.plan.entries) + 1; n > p.limits.Files {
		return newError(ErrTooLarge, nil, "%s has more than %d files", p.url, p.limits.Files)
	}
	if size > p.limits.FileBytes {
		return newError(ErrTooLarge, nil, "%s is %d bytes, over the %d-byte limit for one file", full, size, p.limits.FileBytes)
	}
	p.plan.bytes += size
	if p.plan.bytes > p.limits.TreeBytes {
		return newError(ErrTooLarge, nil, "%s checks out to more than %d bytes", p.url, p.limits.TreeBytes)
	}
	return nil
}

func readBlob(blob *object.Blob) (string, error) {
	r, err := blob.Reader()
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return string(b), err
}

// unsafeName explains why a tree entry name must not be written, or
// returns "" if it may be.
func unsafeName(name string) string {
	switch {
	case name == "" || name == "." || name == "..":
		return "empty or relative path component"
	case strings.ContainsAny(name, `/\`):
		return "path separator inside a name"
	case strings.ContainsFunc(name, isControl):
		return "control character or NUL in name"
	case isDotGit(name):
		return "names the git metadata directory"
	}
	return ""
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// isDotGit matches .git and the spellings that filesystems treat as .git:
// any letter case, the NTFS short name git~1, trailing dots and spaces
// (NTFS drops them) and code points HFS+ ignores.
func isDotGit(name string) bool {
	name = strings.Map(func(r rune) rune {
		if isHFSIgnorable(r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimRight(name, ". ")
	return strings.EqualFold(name, ".git") || strings.EqualFold(name, "git~1")
}

func isHFSIgnorable(r rune) bool {
	return (r >= 0x200c && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) ||
		(r >= 0x206a && r <= 0x206f) || r == 0xfeff
}

// checkLinks resolves every symlink through the planned tree, following
// links it meets on the way, and refuses any that leaves the root.
func (t *treePlan) checkLinks() error {
	for _, e := range t.entries {
		if e.mode != filemode.Symlink {
			continue
		}
		if reason := t.resolve(e.path); reason != "" {
			return newError(ErrUnsafePath, nil, "symlink %s -> %s %s", e.path, e.target, reason)
		}
	}
	return nil
}

// resolve explains why link does not resolve inside the tree, or returns
// "".
func (t *treePlan) resolve(link string) string {
	_, reason := resolveLink(link, 0, func(p string) (string, bool) {
		target, ok := t.links[strings.ToLower(p)]
		return target, ok
	})
	return reason
}

// resolveLink walks link's target component by component from the link's
// directory and returns the path it ends at, or why it may not be
// followed. Components naming other links (readlink answers) are replaced
// by their targets; components naming nothing are taken lexically, which
// is where the filesystem would stop with an error anyway. The first
// floor components of the link's path are a ceiling: ".." may not climb
// above them (0: the repository root).
func resolveLink(link string, floor int, readlink func(path string) (string, bool)) (string, string) {
	dir := splitPath(path.Dir(link))
	pending := []string{path.Base(link)}
	hops := 0
	for len(pending) > 0 {
		part := pending[0]
		pending = pending[1:]
		switch {
		case part == "" || part == ".":
			continue
		case part == "..":
			if len(dir) <= floor {
				return "", "points outside the repository"
			}
			dir = dir[:len(dir)-1]
			continue
		case isDotGit(part):
			return "", "points into the git metadata directory"
		}
		next, isLink := readlink(path.Join(append(slices.Clone(dir), part)...))
		if !isLink {
			dir = append(dir, part)
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", "is part of a symlink loop"
		}
		if isAbsoluteTarget(next) {
			return "", "points outside the repository"
		}
		pending = append(splitPath(next), pending...)
	}
	return path.Join(dir...), ""
}

func splitPath(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// isAbsoluteTarget reports targets that name a place independent of the
// link's directory: Unix absolute paths and anything Windows would read as
// a drive or UNC path.
func isAbsoluteTarget(target string) bool {
	return strings.HasPrefix(target, "/") || strings.Contains(target, `\`) ||
		(len(target) >= 2 && target[1] == ':')
}
