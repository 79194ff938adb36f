package hookrun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound reports a hook program that does not exist or is not on the
// hook PATH.
var ErrNotFound = errors.New("not found")

var (
	errNotExecutable = errors.New("not executable on this system")
	errRelative      = errors.New("not a bare name or an absolute path")
)

// LookPath finds prog the way Run does. A prog with a path separator must
// be absolute and executable. A bare name is searched in pathList (a PATH
// value, normally the hook PATH, never implicitly the app's). Relative
// entries of pathList, including empty ones, are skipped: they would
// resolve against the project directory, letting a repository plant a
// program the hook then runs.
func LookPath(prog, pathList string) (string, error) {
	if strings.ContainsAny(prog, pathSeparators) {
		if !filepath.IsAbs(prog) {
			return "", fmt.Errorf("%s: %w", prog, errRelative)
		}
		return checkProgram(prog)
	}
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if path, err := checkProgram(filepath.Join(dir, prog)); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("%s: %w", prog, ErrNotFound)
}

// checkProgram returns the first existing candidate for path, or why
// there is none.
func checkProgram(path string) (string, error) {
	for _, candidate := range executableCandidates(path) {
		info, err := os.Stat(candidate)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return "", fmt.Errorf("%s: %w", candidate, err)
		case !isExecutable(info):
			return "", fmt.Errorf("%s: %w", candidate, errNotExecutable)
		}
		return candidate, nil
	}
	return "", fmt.Errorf("%s: %w", path, ErrNotFound)
}
