package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		args     map[string]any
		wantText string // fragment of the result
		file     string // file to check afterwards, slash path
		want     string // its expected content
	}{
		{"create", map[string]any{"path": "new.txt", "content": "hello\n"}, "Created new.txt (1 lines, 6 bytes).", "new.txt", "hello\n"},
		{"create with parents", map[string]any{"path": "a/b/c.txt", "content": "x"}, "Created a/b/c.txt", "a/b/c.txt", "x"},
		{"overwrite", map[string]any{"path": "old.txt", "content": "new\n"}, "Overwrote old.txt", "old.txt", "new\n"},
		{"empty content", map[string]any{"path": "old.txt", "content": ""}, "Overwrote old.txt (0 lines, 0 bytes).", "old.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newTestSet(t, map[string]string{"old.txt": "old\n"}, Options{})
			checkResult(t, run(t, s, "write_file", tt.args), false, tt.wantText)
			if got := readFileT(t, filepath.Join(dir, filepath.FromSlash(tt.file))); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.file, got, tt.want)
			}
		})
	}
}

func TestWriteFileErrors(t *testing.T) {
	s, _ := newTestSet(t, map[string]string{"dir/": "", "file.txt": "x"}, Options{})
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"no content", map[string]any{"path": "a.txt"}, "content is required"},
		{"no path", map[string]any{"content": "x"}, "path is required"},
		{"directory", map[string]any{"path": "dir", "content": "x"}, "dir is a directory"},
		{"parent is a file", map[string]any{"path": "file.txt/x", "content": "x"}, "cannot write file.txt/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkResult(t, run(t, s, "write_file", tt.args), true, tt.want)
		})
	}
}

func TestWriteFileKeepsMode(t *testing.T) {
	s, dir := newTestSet(t, map[string]string{"run.sh": "echo 1\n"}, Options{})
	p := filepath.Join(dir, "run.sh")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	checkResult(t, run(t, s, "write_file", map[string]any{"path": "run.sh", "content": "echo 2\n"}), false)
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o755 {
		t.Errorf("mode = %v, want 0755", info.Mode().Perm())
	}
}

func TestWriteFilePreview(t *testing.T) {
	s, _ := newTestSet(t, map[string]string{"old.txt": "a\nb\n"}, Options{})
	tool, _ := s.Lookup("write_file")
	tests := []struct {
		name string
		args map[string]any
		want Preview
	}{
		{"new file is all additions", map[string]any{"path": "n.txt", "content": "x\ny\n"}, Preview{
			Title: "Create n.txt", Detail: "2 lines, 4 bytes",
			Diff: "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n",
		}},
		{"overwrite shows the diff", map[string]any{"path": "old.txt", "content": "a\nc\n"}, Preview{
			Title: "Overwrite old.txt", Detail: "2 lines, 4 bytes",
			Diff: "--- a/old.txt\n+++ b/old.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tool.Preview(args(t, tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("preview =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(s.roots.projectDir, "n.txt")); err == nil {
		t.Error("Preview wrote the file")
	}
}

func TestEditFile(t *testing.T) {
	const original = "alpha\nbeta\nalpha\ngamma\n"
	tests := []struct {
		name    string
		args    map[string]any
		wantErr bool
		text    string // fragment of the result
		want    string // file content afterwards
	}{
		{"unique match", map[string]any{"old_string": "beta", "new_string": "BETA"}, false,
			"Edited f.txt: replaced 1 occurrence.", "alpha\nBETA\nalpha\ngamma\n"},
		{"multi-line match", map[string]any{"old_string": "beta\nalpha", "new_string": "x"}, false,
			"replaced 1 occurrence", "alpha\nx\ngamma\n"},
		{"replace all", map[string]any{"old_string": "alpha", "new_string": "A", "replace_all": true}, false,
			"replaced 2 occurrences", "A\nbeta\nA\ngamma\n"},
		{"delete text", map[string]any{"old_string": "gamma\n", "new_string": ""}, false,
			"replaced 1 occurrence", "alpha\nbeta\nalpha\n"},
		{"no match", map[string]any{"old_string": "delta", "new_string": "x"}, true,
			"old_string was not found in f.txt", original},
		{"whitespace must match", map[string]any{"old_string": " beta", "new_string": "x"}, true,
			"old_string was not found", original},
		{"two matches", map[string]any{"old_string": "alpha", "new_string": "x"}, true,
			"old_string occurs 2 times in f.txt", original},
		{"empty old_string", map[string]any{"old_string": "", "new_string": "x"}, true,
			"old_string is empty", original},
		{"no change", map[string]any{"old_string": "beta", "new_string": "beta"}, true,
			"are the same", original},
		{"missing file", map[string]any{"path": "nope.txt", "old_string": "a", "new_string": "b"}, true,
			"nope.txt does not exist; create it with write_file", original},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newTestSet(t, map[string]string{"f.txt": original}, Options{})
			a := map[string]any{"path": "f.txt"}
			for k, v := range tt.args {
				a[k] = v
			}
			checkResult(t, run(t, s, "edit_file", a), tt.wantErr, tt.text)
			if got := readFileT(t, filepath.Join(dir, "f.txt")); got != tt.want {
				t.Errorf("file = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEditFilePreview(t *testing.T) {
	s, dir := newTestSet(t, map[string]string{"f.txt": "one\ntwo\nthree\n"}, Options{})
	tool, _ := s.Lookup("edit_file")
	got, err := tool.Preview(args(t, map[string]any{"path": "f.txt", "old_string": "two", "new_string": "2"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Preview{
		Title: "Edit f.txt", Detail: "replaced 1 occurrence",
		Diff: "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
	}
	if got != want {
		t.Errorf("preview =\n%#v\nwant\n%#v", got, want)
	}
	if _, err := tool.Preview(args(t, map[string]any{"path": "f.txt", "old_string": "zzz", "new_string": "2"})); err == nil {
		t.Error("Preview of an edit that cannot apply returned no error")
	}
	if got := readFileT(t, filepath.Join(dir, "f.txt")); got != "one\ntwo\nthree\n" {
		t.Errorf("Preview changed the file to %q", got)
	}
}

// TestDiffHeaderQuotesNewlinesInNames: a newline in a file name cannot
// split the approval's diff header into forged lines.
func TestDiffHeaderQuotesNewlinesInNames(t *testing.T) {
	s, _ := newTestSet(t, nil, Options{})
	tool, _ := s.Lookup("write_file")
	p, err := tool.Preview(args(t, map[string]any{"path": "x\n+++ b/other.txt", "content": "hi\n"}))
	if err != nil {
		t.Fatal(err)
	}
	header := strings.SplitN(p.Diff, "\n", 3)
	if len(header) < 2 || header[1] != `+++ "b/x\n+++ b/other.txt"` {
		t.Fatalf("diff header = %q", header)
	}
}
