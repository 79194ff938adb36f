package gitfetch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// Materialise makes folder, a folder of the tree Fetch wrote into repo,
// self-contained before it is used without the rest of the tree (a
// marketplace's plugin): every symlink under folder that leaves it on the
// way to its target is replaced by a copy of the target, which must lie
// inside the repository (Claude Code dereferences such links when it
// copies a plugin into its cache). Copied files keep their executable
// bit, folders are copied recursively with the links in them
// dereferenced the same way, and every copied file counts toward the
// limits on top of what Fetch wrote (res). A folder that would contain
// itself, a link loop, or a target outside the repository or in its .git
// is refused, naming the link. Links that stay inside folder are kept as
// they are; so are dangling ones, which validation reports if the
// package uses them.
func Materialise(repo, folder string, res Result, opts ...Option) error {
	folder = path.Clean(strings.TrimPrefix(folder, "./"))
	if folder == "." {
		return nil
	}
	root, err := os.OpenRoot(repo)
	if err != nil {
		return fmt.Errorf("open %s: %w", repo, err)
	}
	defer root.Close()
	links, err := linksUnder(root, folder)
	if err != nil {
		return err
	}
	m := materialiser{root: root, limits: newOptions(opts).limits, files: res.Files, bytes: res.Bytes}
	floor := len(splitPath(folder))
	for _, link := range links {
		if _, escapes := resolveLink(link, floor, m.readlink); escapes == "" {
			continue
		}
		if err := m.replace(link); err != nil {
			return err
		}
	}
	return nil
}

// linksUnder lists the symlinks below folder, not following any.
func linksUnder(root *os.Root, folder string) ([]string, error) {
	var links []string
	err := fs.WalkDir(root.FS(), folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			links = append(links, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the symlinks of %s: %w", folder, err)
	}
	return links, nil
}

type materialiser struct {
	root   *os.Root
	limits Limits
	files  int
	bytes  int64
	// copying holds the source folders being copied, outermost first: a
	// link back to one of them (or above) would copy forever.
	copying []string
}

// readlink answers resolveLink from the written tree.
func (m *materialiser) readlink(p string) (string, bool) {
	info, err := m.root.Lstat(p)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	target, err := m.root.Readlink(p)
	return target, err == nil
}

// resolve returns the path link ends at inside the repository ("." for
// its root), or an error naming the link.
func (m *materialiser) resolve(link string) (string, error) {
	real, reason := resolveLink(link, 0, m.readlink)
	if reason != "" {
		target, _ := m.root.Readlink(link)
		return "", newError(ErrUnsafePath, nil, "symlink %s -> %s %s", link, target, reason)
	}
	if real == "" {
		real = "."
	}
	return real, nil
}

// replace swaps link for a copy of what it resolves to.
func (m *materialiser) replace(link string) error {
	target, _ := m.root.Readlink(link)
	src, err := m.resolve(link)
	if err != nil {
		return err
	}
	info, err := m.root.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // dangling: kept for validation to report if it is used
	}
	if err != nil {
		return fmt.Errorf("symlink %s -> %s: %w", link, target, err)
	}
	if err := m.root.Remove(link); err != nil {
		return fmt.Errorf("replace symlink %s: %w", link, err)
	}
	if err := m.copy(src, link, info); err != nil {
		return fmt.Errorf("copy the target of symlink %s -> %s: %w", link, target, err)
	}
	return nil
}

func (m *materialiser) copy(src, dst string, info fs.FileInfo) error {
	switch {
	case info.IsDir():
		return m.copyDir(src, dst)
	case info.Mode().IsRegular():
		return m.copyFile(src, dst, info)
	}
	return newError(ErrUnsafePath, nil, "%s is neither a file nor a folder", src)
}

func (m *materialiser) copyDir(src, dst string) error {
	if within(src, dst) || slicesAnyWithin(src, m.copying) {
		return newError(ErrUnsafePath, nil, "%s is a folder that contains the link (a directory cycle)", displayPath(src))
	}
	m.copying = append(m.copying, src)
	defer func() { m.copying = m.copying[:len(m.copying)-1] }()
	if err := m.root.Mkdir(dst, 0o755); err != nil {
		return err
	}
	entries, err := fs.ReadDir(m.root.FS(), src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		from, to := path.Join(src, e.Name()), path.Join(dst, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			if from, err = m.resolve(from); err != nil {
				return err
			}
		}
		info, err := m.root.Lstat(from)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a dangling link has nothing to copy
		}
		if err != nil {
			return err
		}
		if err := m.copy(from, to, info); err != nil {
			return err
		}
	}
	return nil
}

func (m *materialiser) copyFile(src, dst string, info fs.FileInfo) (err error) {
	if err := m.count(src, info.Size()); err != nil {
		return err
	}
	in, err := m.root.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	perm := os.FileMode(0o644)
	if info.Mode().Perm()&0o111 != 0 {
		perm = 0o755
	}
	out, err := m.root.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(out, io.LimitReader(in, info.Size()))
	return err
}

// count applies the file-count and size limits to one more copied file.
func (m *materialiser) count(name string, size int64) error {
	if m.files++; m.files > m.limits.Files {
		return newError(ErrTooLarge, nil, "with the copies of its symlinks the repository has more than %d files", m.limits.Files)
	}
	if size > m.limits.FileBytes {
		return newError(ErrTooLarge, nil, "%s is %d bytes, over the %d-byte limit for one file", name, size, m.limits.FileBytes)
	}
	if m.bytes += size; m.bytes > m.limits.TreeBytes {
		return newError(ErrTooLarge, nil, "with the copies of its symlinks the repository checks out to more than %d bytes", m.limits.TreeBytes)
	}
	return nil
}

// within reports whether p is dir or below it ("." is the root). Letter
// case is ignored, as the tree has no two paths differing only in case.
func within(dir, p string) bool {
	dir, p = strings.ToLower(dir), strings.ToLower(p)
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// slicesAnyWithin reports whether any of dirs is dir or below it.
func slicesAnyWithin(dir string, dirs []string) bool {
	for _, d := range dirs {
		if within(dir, d) {
			return true
		}
	}
	return false
}

func displayPath(p string) string {
	if p == "." {
		return "the repository root"
	}
	return p
}
