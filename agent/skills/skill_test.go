package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseFile(t *testing.T) {
	long := strings.Repeat("x", MaxNameLen+1)
	tests := []struct {
		name     string
		content  string
		wantName string
		wantDesc string
		wantErr  string
	}{
		{name: "plain", content: "---\nname: review\ndescription: Review a diff.\n---\n# Body\n",
			wantName: "review", wantDesc: "Review a diff."},
		{name: "quoted", content: "---\nname: \"review\"\ndescription: 'Review: a diff'\n---\n",
			wantName: "review", wantDesc: "Review: a diff"},
		{name: "folded multi-line description", content: "---\nname: lazy\ndescription: >\n  Forces the laziest\n  solution.\nlicense: MIT\n---\nbody",
			wantName: "lazy", wantDesc: "Forces the laziest solution."},
		{name: "CRLF", content: "---\r\nname: win\r\ndescription: >\r\n  Made on\r\n  Windows.\r\n---\r\nbody\r\n",
			wantName: "win", wantDesc: "Made on Windows."},
		{name: "byte order mark", content: "\uFEFF---\nname: bom\ndescription: d\n---\n",
			wantName: "bom", wantDesc: "d"},
		{name: "name at limit", content: "---\nname: " + long[:MaxNameLen] + "\ndescription: d\n---\n",
			wantName: long[:MaxNameLen], wantDesc: "d"},
		{name: "missing name", content: "---\ndescription: d\n---\n", wantErr: "no name"},
		{name: "missing description", content: "---\nname: n\n---\n", wantErr: `skill "n": front matter has no description`},
		{name: "name too long", content: "---\nname: " + long + "\ndescription: d\n---\n", wantErr: "name is longer than 64"},
		{name: "no front matter", content: "# Just markdown\n", wantErr: "no front matter"},
		{name: "empty file", content: "", wantErr: "no front matter"},
		{name: "not closed", content: "---\nname: n\ndescription: d\n", wantErr: "not closed"},
		{name: "invalid yaml", content: "---\nname: [unclosed\n---\n", wantErr: "front matter:"},
		{name: "multi-line name", content: "---\nname: \"a\\nb\"\ndescription: d\n---\n", wantErr: "single line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s", FileName)
			writeFile(t, path, tt.content)
			got, err := ParseFile(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want one containing %q and the path", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tt.wantName || got.Description != tt.wantDesc || got.Dir != filepath.Dir(path) {
				t.Fatalf("got %+v, want name %q desc %q dir %q", got, tt.wantName, tt.wantDesc, filepath.Dir(path))
			}
		})
	}
}

func TestParseFileRejectsNonRegularAndOversized(t *testing.T) {
	dir := t.TempDir()
	asDir := filepath.Join(dir, "folder", FileName)
	if err := os.MkdirAll(asDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseFile(asDir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("folder named SKILL.md: err = %v", err)
	}
	big := filepath.Join(dir, "big", FileName)
	writeFile(t, big, "---\nname: big\ndescription: d\n---\n"+strings.Repeat("x", MaxFileBytes))
	if _, err := ParseFile(big); err == nil || !strings.Contains(err.Error(), "larger than 256 KiB") {
		t.Fatalf("oversized: err = %v", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "missing", FileName)); err == nil {
		t.Fatal("missing file parsed")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\n---\n"))
	f.Add([]byte("---\r\nname: a\r\ndescription: >\r\n  b\r\n---\r\n"))
	f.Add([]byte("---\nname: &a [*a]\n---\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("\uFEFF---\nname: {x: 1}\n"))
	// Nested aliases (a "billion laughs" document): memory must stay bounded.
	f.Add([]byte("---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nname: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\ndescription: x\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parse(data)
		if err != nil {
			return
		}
		if s.Name == "" || s.Description == "" ||
			utf8.RuneCountInString(s.Name) > MaxNameLen ||
			utf8.RuneCountInString(s.Description) > MaxDescriptionLen {
			t.Fatalf("parse accepted an invalid skill: %+v", s)
		}
	})
}

func TestFrontMatterAsLenientAsClaudeCode(t *testing.T) {
	for name, tt := range map[string]struct {
		body, wantDesc string
		truncated      bool
	}{
		"a plain scalar containing ': '": {"---\nname: tdd\ndescription: Use when: writing tests first\n---\n", "Use when: writing tests first", false},
		"quoted after a colon":           {"---\nname: tdd\ndescription: \"Note: quoted\"\nlicense: MIT\n---\n", "Note: quoted", false},
		"over 1024 characters":           {"---\nname: long\ndescription: " + strings.Repeat("a", 2000) + "\n---\n", strings.Repeat("a", MaxDescriptionLen-1) + "…", true},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := parse([]byte(tt.body))
			if err != nil || s.Description != tt.wantDesc || s.Truncated != tt.truncated {
				t.Fatalf("parse = %+v, %v; want description %.40q… truncated=%v", s, err, tt.wantDesc, tt.truncated)
			}
		})
	}
}
