//go:build unix

package hookrun

import "io/fs"

const pathSeparators = "/"

func executableCandidates(path string) []string { return []string{path} }

func isExecutable(info fs.FileInfo) bool {
	return info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
