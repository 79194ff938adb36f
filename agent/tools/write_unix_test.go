//go:build unix

package tools

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// limitFileSize makes writes past n bytes of any file fail with EFBIG,
// as a full disk fails them, until the test ends. Not parallel: the limit
// is the whole process's.
func limitFileSize(t *testing.T, n uint64) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skipf("getrlimit: %v", err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: old.Max}); err != nil {
		t.Skipf("setrlimit: %v", err)
	}
	t.Cleanup(func() {
		syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
		signal.Reset(syscall.SIGXFSZ)
	})
}

// TestFailedWriteLeavesTheFileWhole: a 70,000-line file edited when the
// disk takes only part of the new content keeps its old content, every
// line of it, and the tool says why.
func TestFailedWriteLeavesTheFileWhole(t *testing.T) {
	var b strings.Builder
	for i := range 70_000 {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%40))
		b.WriteString("\n")
	}
	old := b.String()
	s, dir := newTestSet(t, map[string]string{"big.txt": old}, Options{})
	p := filepath.Join(dir, "big.txt")
	for name, v := range map[string]map[string]any{
		"edit_file":  {"path": "big.txt", "old_string": "line \n", "new_string": "LINE \n", "replace_all": true},
		"write_file": {"path": "big.txt", "content": strings.ToUpper(old)},
	} {
		t.Run(name, func(t *testing.T) {
			limitFileSize(t, 64<<10)
			res := run(t, s, name, v)
			checkResult(t, res, true, "cannot write big.txt", "big.txt is unchanged")
			if got := readFileT(t, p); got != old {
				t.Fatalf("the file was torn: %d of %d lines left", strings.Count(got, "\n"), strings.Count(old, "\n"))
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("a temporary file was left: %v", entries)
			}
		})
	}
}

func TestWriteFileThroughSymlink(t *testing.T) {
	s, dir := newTestSet(t, map[string]string{"real.txt": "old\n"}, Options{})
	mustSymlink(t, "real.txt", filepath.Join(dir, "link.txt"))
	checkResult(t, run(t, s, "write_file", map[string]any{"path": "link.txt", "content": "new\n"}), false)
	if got := readFileT(t, filepath.Join(dir, "real.txt")); got != "new\n" {
		t.Errorf("target = %q, want the new content", got)
	}
	if info, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v, %v", info, err)
	}
}
