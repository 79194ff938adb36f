package tools

import (
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	s, _ := newTestSet(t, map[string]string{
		"a.txt":      "one\ntwo\nthree\n",
		"noeol.txt":  "first\nlast",
		"empty.txt":  "",
		"bin.dat":    "text\x00more",
		"src/x.go":   "package x\n",
		"dir/inner/": "",
	}, Options{})

	tests := []struct {
		name    string
		args    map[string]any
		want    string // exact text, when not an error
		wantErr string // fragment of the error text
	}{
		{name: "whole file", args: map[string]any{"path": "a.txt"},
			want: "     1\tone\n     2\ttwo\n     3\tthree\n"},
		{name: "offset", args: map[string]any{"path": "a.txt", "offset": 2},
			want: "     2\ttwo\n     3\tthree\n"},
		{name: "offset and limit", args: map[string]any{"path": "a.txt", "offset": 2, "limit": 1},
			want: "     2\ttwo\n"},
		{name: "limit past end", args: map[string]any{"path": "a.txt", "limit": 10},
			want: "     1\tone\n     2\ttwo\n     3\tthree\n"},
		{name: "last line without newline", args: map[string]any{"path": "noeol.txt"},
			want: "     1\tfirst\n     2\tlast\n"},
		{name: "nested slash path", args: map[string]any{"path": "src/x.go"},
			want: "     1\tpackage x\n"},
		{name: "empty file", args: map[string]any{"path": "empty.txt"}, want: "(empty file)"},
		{name: "offset past end", args: map[string]any{"path": "a.txt", "offset": 4},
			wantErr: "offset 4 is past the end of a.txt, which has 3 lines"},
		{name: "missing file", args: map[string]any{"path": "nope.txt"},
			wantErr: "cannot read nope.txt: no such file or directory"},
		{name: "directory", args: map[string]any{"path": "dir"}, wantErr: "dir is a directory"},
		{name: "binary file", args: map[string]any{"path": "bin.dat"}, wantErr: "bin.dat is a binary file"},
		{name: "no path", args: map[string]any{}, wantErr: "path is required"},
		{name: "negative offset", args: map[string]any{"path": "a.txt", "offset": -1}, wantErr: "offset must be at least 1"},
		{name: "wrong type", args: map[string]any{"path": 3}, wantErr: "invalid arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, s, "read_file", tt.args)
			if tt.wantErr != "" {
				checkResult(t, got, true, tt.wantErr)
				return
			}
			checkResult(t, got, false)
			if got.Text != tt.want {
				t.Errorf("text =\n%q\nwant\n%q", got.Text, tt.want)
			}
		})
	}
}

func TestReadFileTruncatesAtBudget(t *testing.T) {
	s, _ := newTestSet(t, map[string]string{
		"lines.txt": strings.Repeat("0123456789\n", 10), // each numbered line is 18 bytes
		"long.txt":  strings.Repeat("x", 100) + "\nshort\n",
	}, Options{})
	s.limits.readBytes = 40

	got := run(t, s, "read_file", map[string]any{"path": "lines.txt"})
	checkResult(t, got, false)
	want := "     1\t0123456789\n     2\t0123456789\n" +
		"[output truncated at 40 bytes before line 3; continue with offset=3]\n"
	if got.Text != want {
		t.Errorf("text =\n%q\nwant\n%q", got.Text, want)
	}

	got = run(t, s, "read_file", map[string]any{"path": "long.txt"})
	checkResult(t, got, false, "[line 1 is longer than 40 bytes and was cut; continue with offset=2]")
	if first, _, _ := strings.Cut(got.Text, "\n"); len(first) != 40 {
		t.Errorf("cut line is %d bytes, want 40: %q", len(first), first)
	}
}

func TestReadFileDefaultBudget(t *testing.T) {
	line := strings.Repeat("y", 1023) + "\n"
	s, _ := newTestSet(t, map[string]string{"big.txt": strings.Repeat(line, 2048)}, Options{}) // 2 MiB
	got := run(t, s, "read_file", map[string]any{"path": "big.txt"})
	checkResult(t, got, false, "[output truncated at 1048576 bytes before line")
	if len(got.Text) > MaxReadBytes+200 {
		t.Errorf("read returned %d bytes, more than MaxReadBytes", len(got.Text))
	}
}
