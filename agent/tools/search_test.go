package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// searchTree is a small project with a .git directory holding text that
// would match every search below if .git were searched.
var searchTree = map[string]string{
	".git/config":          "needle main.go\n",
	".git/objects/ab/cd":   "needle\n",
	"main.go":              "package main\n// needle here\n",
	"README.md":            "Needle in the readme\n",
	"src/a.go":             "package src\nvar needle = 1\n",
	"src/deep/b.go":        "package deep\n",
	"src/deep/b_test.go":   "package deep // NEEDLE\n",
	"src/deep/data.bin":    "needle\x00binary",
	"docs/guide.txt":       "no match here\n",
	"empty/":               "",
	"src/deep/.hidden.go":  "package deep\n",
	"vendor/lib/vendor.go": "package lib // needle\n",
}

func TestListDir(t *testing.T) {
	s, dir := newTestSet(t, searchTree, Options{})
	mustSymlink(t, "main.go", filepath.Join(dir, "link.go"))
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr string
	}{
		{name: "project root", args: map[string]any{},
			want: "README.md (21 bytes)\ndocs/\nempty/\nlink.go@\nmain.go (28 bytes)\nsrc/\nvendor/"},
		{name: "subdirectory", args: map[string]any{"path": "src/deep"},
			want: ".hidden.go (13 bytes)\nb.go (13 bytes)\nb_test.go (23 bytes)\ndata.bin (13 bytes)"},
		{name: "empty directory", args: map[string]any{"path": "empty"}, want: "(empty directory)"},
		{name: "git refused", args: map[string]any{"path": ".git"}, wantErr: "inside .git"},
		{name: "git subdirectory refused", args: map[string]any{"path": ".git/objects"}, wantErr: "inside .git"},
		{name: "file", args: map[string]any{"path": "main.go"}, wantErr: "main.go is a file, not a directory"},
		{name: "missing", args: map[string]any{"path": "nope"}, wantErr: "cannot open nope: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, s, "list_dir", tt.args)
			if tt.wantErr != "" {
				checkResult(t, got, true, tt.wantErr)
				return
			}
			checkResult(t, got, false)
			if got.Text != tt.want {
				t.Errorf("text =\n%s\nwant\n%s", got.Text, tt.want)
			}
		})
	}
}

func TestGlob(t *testing.T) {
	s, _ := newTestSet(t, searchTree, Options{})
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr string
	}{
		{name: "top level", args: map[string]any{"pattern": "*.go"}, want: "main.go"},
		{name: "any depth", args: map[string]any{"pattern": "**/*.go"},
			want: "main.go\nsrc/a.go\nsrc/deep/.hidden.go\nsrc/deep/b.go\nsrc/deep/b_test.go\nvendor/lib/vendor.go"},
		{name: "literal prefix", args: map[string]any{"pattern": "src/**/*_test.go"}, want: "src/deep/b_test.go"},
		{name: "double star in the middle matches zero directories", args: map[string]any{"pattern": "src/**/a.go"}, want: "src/a.go"},
		{name: "with path", args: map[string]any{"pattern": "*.go", "path": "src/deep"},
			want: "src/deep/.hidden.go\nsrc/deep/b.go\nsrc/deep/b_test.go"},
		{name: "directories marked", args: map[string]any{"pattern": "*", "path": "src"}, want: "src/a.go\nsrc/deep/"},
		{name: "everything skips git", args: map[string]any{"pattern": "**", "path": "docs"}, want: "docs/guide.txt"},
		{name: "character class", args: map[string]any{"pattern": "src/deep/b[_.]*"}, want: "src/deep/b.go\nsrc/deep/b_test.go"},
		{name: "exact path", args: map[string]any{"pattern": "src/a.go"}, want: "src/a.go"},
		{name: "no match", args: map[string]any{"pattern": "**/*.rs"}, want: "no paths match **/*.rs"},
		{name: "git pattern", args: map[string]any{"pattern": ".git/**"}, wantErr: "inside .git"},
		{name: "bad pattern", args: map[string]any{"pattern": "src/[a"}, wantErr: `invalid glob pattern "src/[a"`},
		{name: "missing base", args: map[string]any{"pattern": "nope/*.go"}, wantErr: "cannot open nope"},
		{name: "no pattern", args: map[string]any{}, wantErr: "pattern is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, s, "glob", tt.args)
			if tt.wantErr != "" {
				checkResult(t, got, true, tt.wantErr)
				return
			}
			checkResult(t, got, false)
			if got.Text != tt.want {
				t.Errorf("text =\n%s\nwant\n%s", got.Text, tt.want)
			}
		})
	}
}

func TestGrep(t *testing.T) {
	big := strings.Repeat("needle\n", MaxGrepFileBytes/7+1)
	files := map[string]string{"logs/big.log": big}
	for k, v := range searchTree {
		files[k] = v
	}
	s, _ := newTestSet(t, files, Options{})
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr string
	}{
		{name: "tree", args: map[string]any{"pattern": "needle"},
			want: "main.go:2:// needle here\nsrc/a.go:2:var needle = 1\nvendor/lib/vendor.go:1:package lib // needle\n" +
				"note: skipped 1 files larger than 1024 KiB: logs/big.log\nnote: skipped 1 binary files"},
		{name: "case insensitive with name glob", args: map[string]any{"pattern": "needle", "case_insensitive": true, "glob": "*.md"},
			want: "README.md:1:Needle in the readme"},
		{name: "path glob", args: map[string]any{"pattern": "(?i)needle", "glob": "src/**/*_test.go"},
			want: "src/deep/b_test.go:1:package deep // NEEDLE"},
		{name: "one file", args: map[string]any{"pattern": "^package", "path": "src/a.go"}, want: "src/a.go:1:package src"},
		{name: "directory", args: map[string]any{"pattern": "package", "path": "src/deep", "glob": "*.go"},
			want: "src/deep/.hidden.go:1:package deep\nsrc/deep/b.go:1:package deep\nsrc/deep/b_test.go:1:package deep // NEEDLE"},
		{name: "no match", args: map[string]any{"pattern": "zzz", "path": "docs"}, want: "no matches"},
		{name: "binary file named", args: map[string]any{"pattern": "x", "path": "src/deep/data.bin"}, wantErr: "is binary or larger than"},
		{name: "large file named", args: map[string]any{"pattern": "x", "path": "logs/big.log"}, wantErr: "is binary or larger than"},
		{name: "git refused", args: map[string]any{"pattern": "needle", "path": ".git"}, wantErr: "inside .git"},
		{name: "git file refused", args: map[string]any{"pattern": "needle", "path": ".git/config"}, wantErr: "inside .git"},
		{name: "bad regexp", args: map[string]any{"pattern": "a(b"}, wantErr: "not a valid Go regular expression"},
		{name: "bad glob", args: map[string]any{"pattern": "a", "glob": "[x"}, wantErr: "invalid glob pattern"},
		{name: "missing path", args: map[string]any{"pattern": "a", "path": "nope"}, wantErr: "cannot search nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, s, "grep", tt.args)
			if tt.wantErr != "" {
				checkResult(t, got, true, tt.wantErr)
				return
			}
			checkResult(t, got, false)
			if got.Text != tt.want {
				t.Errorf("text =\n%s\nwant\n%s", got.Text, tt.want)
			}
		})
	}
}

func TestGrepClipsLongLines(t *testing.T) {
	s, _ := newTestSet(t, map[string]string{"min.js": "needle" + strings.Repeat("x", 2*maxGrepLineBytes) + "\n"}, Options{})
	got := run(t, s, "grep", map[string]any{"pattern": "needle"})
	checkResult(t, got, false, " …[line cut]")
	if len(got.Text) > maxGrepLineBytes+50 {
		t.Errorf("line not clipped: %d bytes", len(got.Text))
	}
}

// TestSearchLimits checks that every search tool fails loudly, rather than
// returning a silently partial answer, when a limit is hit.
func TestSearchLimits(t *testing.T) {
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("d/f%02d.txt", i)] = "hit\n"
	}
	tests := []struct {
		name          string
		results, seen int
		tool          string
		args          map[string]any
		want          string
	}{
		{"glob results", 5, 1000, "glob", map[string]any{"pattern": "**/*.txt"}, "glob found more than 5 results"},
		{"grep results", 5, 1000, "grep", map[string]any{"pattern": "hit"}, "grep found more than 5 results"},
		{"list_dir results", 5, 1000, "list_dir", map[string]any{"path": "d"}, "list_dir found more than 5 results"},
		{"glob visits", 500, 8, "glob", map[string]any{"pattern": "**/*.txt"}, "glob stopped after visiting 8 directory entries"},
		{"grep visits", 500, 8, "grep", map[string]any{"pattern": "hit"}, "grep stopped after visiting 8 directory entries"},
		{"list_dir visits", 500, 8, "list_dir", map[string]any{"path": "d"}, "list_dir stopped after visiting 8 directory entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSet(t, files, Options{})
			s.limits.searchResults, s.limits.visitEntries = tt.results, tt.seen
			checkResult(t, run(t, s, tt.tool, tt.args), true, tt.want, "narrower path")
		})
	}
}

// TestSearchLimitsAtBoundary checks the limits are inclusive: exactly
// the allowed number of results and visits succeeds.
func TestSearchLimitsAtBoundary(t *testing.T) {
	s, _ := newTestSet(t, map[string]string{"d/a.txt": "hit\n", "d/b.txt": "hit\n"}, Options{})
	s.limits.searchResults, s.limits.visitEntries = 2, 3 // entries: d, d/a.txt, d/b.txt
	checkResult(t, run(t, s, "glob", map[string]any{"pattern": "**/*.txt"}), false, "d/a.txt\nd/b.txt")
	checkResult(t, run(t, s, "grep", map[string]any{"pattern": "hit"}), false, "d/a.txt:1:hit\nd/b.txt:1:hit")
}
