package hookrun

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

const pathSeparators = `/\`

// windowsExecutableExts are the only programs started directly. .bat and
// .cmd files are left out on purpose: CreateProcess runs them through
// cmd.exe, which is a shell.
var windowsExecutableExts = []string{".exe", ".com"}

func executableCandidates(path string) []string {
	if hasExecutableExt(path) {
		return []string{path}
	}
	candidates := make([]string, 0, len(windowsExecutableExts))
	for _, ext := range windowsExecutableExts {
		candidates = append(candidates, path+ext)
	}
	return candidates
}

func isExecutable(info fs.FileInfo) bool {
	return info.Mode().IsRegular() && hasExecutableExt(info.Name())
}

func hasExecutableExt(path string) bool {
	return slices.Contains(windowsExecutableExts, strings.ToLower(filepath.Ext(path)))
}
