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

// pkgRoot is the extracted package folder with symlinks resolved, so that
// containment is checked between real paths.
type pkgRoot struct{ dir string }

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
	return pkgRoot{dir: real}, nil
}

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
	if !r.contains(real) {
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

func (r pkgRoot) contains(real string) bool {
	rel, err := filepath.Rel(r.dir, real)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
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
