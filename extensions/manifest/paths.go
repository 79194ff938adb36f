package manifest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// pkgRoot is the extracted package folder, symlinks resolved. Whether a
// path stays inside it is decided by an os.Root opened on it (the
// runtime follows the symlinks and refuses any that leave), as for the
// tamper check and the tools, not by path arithmetic.
type pkgRoot struct {
	dir  string
	root *os.Root
}

func openPackageRoot(root string) (pkgRoot, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return pkgRoot{}, fmt.Errorf("package folder %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return pkgRoot{}, fmt.Errorf("package folder %s: %w", root, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return pkgRoot{}, fmt.Errorf("package folder %s: %w", root, err)
	}
	if !info.IsDir() {
		return pkgRoot{}, fmt.Errorf("package folder %s is not a folder", root)
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return pkgRoot{}, fmt.Errorf("package folder %s: %w", root, err)
	}
	return pkgRoot{dir: real, root: r}, nil
}

func (r pkgRoot) close() { r.root.Close() }

// resolve validates a package-relative path taken from the manifest or a
// hook command and returns its real absolute path and its cleaned
// slash-separated form. The path must be relative, have no ".."
// component, exist, and stay inside the package after symlinks.
func (r pkgRoot) resolve(rel string) (real, clean string, err error) {
	local, err := cleanRelative(rel)
	if err != nil {
		return "", "", err
	}
	real, err = filepath.EvalSymlinks(filepath.Join(r.dir, local))
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("%s does not exist in the package", rel)
	}
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", rel, err)
	}
	if _, err := r.root.Stat(local); err != nil {
		return "", "", fmt.Errorf("%s resolves outside the package (symlink to %s)", rel, real)
	}
	return real, filepath.ToSlash(local), nil
}

// exists reports whether a conventional location (skills/, hooks/hooks.json)
// is present at all; resolve then decides whether it is acceptable.
func (r pkgRoot) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(rel)))
	return err == nil
}

// cleanRelative rejects absolute paths and any ".." component before the
// path is cleaned, so "a/../b" is refused even though it would stay inside:
// a package has no reason to write it, and refusing is easier to reason
// about than allowing.
func cleanRelative(p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if filepath.IsAbs(p) || filepath.VolumeName(p) != "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return "", fmt.Errorf("%s is an absolute path; paths must be relative to the package", p)
	}
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return "", fmt.Errorf("%s contains a '..' component", p)
		}
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// readRegular reads a regular file of at most limit bytes; what names the
// file in errors, relative to the package.
func readRegular(path, what string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", what)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %s", what, sizeLabel(limit))
	}
	return data, nil
}

func sizeLabel(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// inside reports whether path, a path below the package folder as a walk
// names it, stays in the package once symlinks are followed.
func (r pkgRoot) inside(path string) bool {
	rel, err := filepath.Rel(r.dir, path)
	if err != nil || !(rel == "." || filepath.IsLocal(rel)) {
		return false
	}
	_, err = r.root.Stat(rel)
	return err == nil
}
