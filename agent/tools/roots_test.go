package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfinement checks that no tool reads or writes outside the project
// root and the read roots, whatever form the path takes.
func TestConfinement(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.txt": "secret\n", "sub/deep.txt": "deep\n"})
	skills := t.TempDir()
	writeTree(t, skills, map[string]string{"skill/SKILL.md": "# Skill\n"})

	s, dir := newTestSet(t, map[string]string{"in.txt": "inside\n"}, Options{
		ReadRoots: func() []ReadRoot { return []ReadRoot{{Dir: skills}} },
	})
	mustSymlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "abs-link"))
	mustSymlink(t, filepath.Join("..", filepath.Base(outside), "secret.txt"), filepath.Join(dir, "rel-link"))
	mustSymlink(t, outside, filepath.Join(dir, "dir-link"))
	mustSymlink(t, "in.txt", filepath.Join(dir, "ok-link"))

	outsideSecret := filepath.Join(outside, "secret.txt")
	skillFile := filepath.Join(skills, "skill", "SKILL.md")
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		wantErr bool
		want    string // fragment of the result text
	}{
		{"relative inside", "read_file", map[string]any{"path": "in.txt"}, false, "inside"},
		{"absolute inside", "read_file", map[string]any{"path": filepath.Join(dir, "in.txt")}, false, "inside"},
		{"symlink staying inside", "read_file", map[string]any{"path": "ok-link"}, false, "inside"},
		{"dot-dot", "read_file", map[string]any{"path": "../x"}, true, "outside the project root"},
		{"dot-dot after a directory", "read_file", map[string]any{"path": "a/../../x"}, true, "outside the project root"},
		{"absolute outside", "read_file", map[string]any{"path": outsideSecret}, true, "outside the project root"},
		{"absolute symlink out", "read_file", map[string]any{"path": "abs-link"}, true, "cannot read abs-link"},
		{"relative symlink out", "read_file", map[string]any{"path": "rel-link"}, true, "cannot read rel-link"},
		{"through symlinked dir", "read_file", map[string]any{"path": "dir-link/secret.txt"}, true, "cannot read dir-link/secret.txt"},
		{"list symlinked dir", "list_dir", map[string]any{"path": "dir-link"}, true, "cannot open dir-link"},
		{"grep symlinked dir", "grep", map[string]any{"pattern": "deep", "path": "dir-link/sub"}, true, "cannot search dir-link/sub"},
		{"read root file", "read_file", map[string]any{"path": skillFile}, false, "# Skill"},
		{"list read root", "list_dir", map[string]any{"path": filepath.Join(skills, "skill")}, false, "SKILL.md"},
		{"grep read root", "grep", map[string]any{"pattern": "Skill", "path": skills}, false, skillFile + ":1:# Skill"},
		{"glob read root", "glob", map[string]any{"pattern": filepath.ToSlash(skills) + "/**/*.md"}, false, skillFile},
		{"read root escape", "read_file", map[string]any{"path": filepath.Join(skills, "..", filepath.Base(outside), "secret.txt")}, true, "outside the project root"},
		{"write dot-dot", "write_file", map[string]any{"path": "../new.txt", "content": "x"}, true, "outside the project root"},
		{"write absolute outside", "write_file", map[string]any{"path": filepath.Join(outside, "new.txt"), "content": "x"}, true, "outside the project root"},
		{"write through symlink", "write_file", map[string]any{"path": "abs-link", "content": "x"}, true, "cannot write abs-link"},
		{"write into symlinked dir", "write_file", map[string]any{"path": "dir-link/new.txt", "content": "x"}, true, "cannot write dir-link/new.txt"},
		{"edit through symlink", "edit_file", map[string]any{"path": "rel-link", "old_string": "secret", "new_string": "x"}, true, "cannot write rel-link"},
		{"write read root", "write_file", map[string]any{"path": skillFile, "content": "x"}, true, "read-only skill folder"},
		{"edit read root", "edit_file", map[string]any{"path": skillFile, "old_string": "Skill", "new_string": "x"}, true, "read-only skill folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkResult(t, run(t, s, tt.tool, tt.args), tt.wantErr, tt.want)
		})
	}

	if got := readFileT(t, outsideSecret); got != "secret\n" {
		t.Errorf("file outside the project changed to %q", got)
	}
	if got := readFileT(t, skillFile); got != "# Skill\n" {
		t.Errorf("read-root file changed to %q", got)
	}
	for _, p := range []string{filepath.Join(outside, "new.txt"), filepath.Join(filepath.Dir(dir), "new.txt")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created outside the project", p)
		}
	}
}

// TestReadRootsConsultedPerCall checks that disabling a skill folder takes
// effect on the next call.
func TestReadRootsConsultedPerCall(t *testing.T) {
	skills := t.TempDir()
	writeTree(t, skills, map[string]string{"SKILL.md": "enabled\n"})
	enabled := true
	s, _ := newTestSet(t, nil, Options{ReadRoots: func() []ReadRoot {
		if enabled {
			return []ReadRoot{{Dir: skills}}
		}
		return nil
	}})
	file := filepath.Join(skills, "SKILL.md")
	checkResult(t, run(t, s, "read_file", map[string]any{"path": file}), false, "enabled")
	enabled = false
	checkResult(t, run(t, s, "read_file", map[string]any{"path": file}), true, "outside the project root")
}

// TestProjectThroughSymlink accepts absolute paths written with either the
// project path as given or its resolved form.
func TestProjectThroughSymlink(t *testing.T) {
	realDir := t.TempDir()
	writeTree(t, realDir, map[string]string{"f.txt": "hello\n"})
	link := filepath.Join(t.TempDir(), "project")
	mustSymlink(t, realDir, link)
	s, err := New(link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resolved, err := filepath.EvalSymlinks(realDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(link, "f.txt"), filepath.Join(resolved, "f.txt")} {
		checkResult(t, run(t, s, "read_file", map[string]any{"path": p}), false, "hello")
	}
}

func TestNewRejectsMissingDirectory(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Fatal("New on a missing directory succeeded")
	}
}

// TestReadRootExpandsWhatReadFileReturns: a read root's Expand rewrites
// read_file's text for files below it and heads it with its note; the
// project's files and other tools are left alone.
func TestReadRootExpandsWhatReadFileReturns(t *testing.T) {
	skills := t.TempDir()
	writeTree(t, skills, map[string]string{"s/SKILL.md": "run ${X}/go.sh\n", "s/other.md": "plain ${X}\n"})
	var asked []string
	expand := func(file, text string) (string, string) {
		asked = append(asked, file)
		if filepath.Base(file) != "SKILL.md" {
			return text, ""
		}
		return strings.ReplaceAll(text, "${X}", "/real"), "X replaced"
	}
	s, _ := newTestSet(t, map[string]string{"p.md": "${X}\n"}, Options{ReadRoots: func() []ReadRoot { return []ReadRoot{{Dir: skills, Expand: expand}} }})
	skill := filepath.Join(skills, "s", "SKILL.md")
	if got := run(t, s, "read_file", map[string]any{"path": skill}).Text; got != "[X replaced]\n     1\trun /real/go.sh\n" {
		t.Errorf("SKILL.md read = %q", got)
	}
	if got := run(t, s, "read_file", map[string]any{"path": filepath.Join(skills, "s", "other.md")}).Text; !strings.Contains(got, "plain ${X}") || strings.HasPrefix(got, "[") {
		t.Errorf("other.md read = %q", got)
	}
	if got := run(t, s, "read_file", map[string]any{"path": "p.md"}).Text; !strings.Contains(got, "${X}") {
		t.Errorf("a project file was rewritten: %q", got)
	}
	if len(asked) != 2 || asked[0] != skill {
		t.Errorf("Expand was asked about %q, want the two skill-folder files by absolute path", asked)
	}
}

// TestWritableReadRoot: an additional directory may be written and
// edited; a symlink inside it still cannot lead out.
func TestWritableReadRoot(t *testing.T) {
	docs, outside := t.TempDir(), t.TempDir()
	writeTree(t, docs, map[string]string{"notes.md": "old notes\n"})
	writeTree(t, outside, map[string]string{"secret.txt": "secret\n"})
	mustSymlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(docs, "out-link"))
	s, _ := newTestSet(t, nil, Options{ReadRoots: func() []ReadRoot { return []ReadRoot{{Dir: docs, Writable: true}} }})
	checkResult(t, run(t, s, "edit_file", map[string]any{"path": filepath.Join(docs, "notes.md"), "old_string": "old", "new_string": "new"}), false, "")
	checkResult(t, run(t, s, "write_file", map[string]any{"path": filepath.Join(docs, "sub", "added.md"), "content": "added\n"}), false, "")
	checkResult(t, run(t, s, "write_file", map[string]any{"path": filepath.Join(docs, "out-link"), "content": "x"}), true, "cannot write")
	if got := readFileT(t, filepath.Join(docs, "notes.md")); got != "new notes\n" {
		t.Errorf("notes.md is %q", got)
	}
	if got := readFileT(t, filepath.Join(docs, "sub", "added.md")); got != "added\n" {
		t.Errorf("added.md is %q", got)
	}
	if got := readFileT(t, filepath.Join(outside, "secret.txt")); got != "secret\n" {
		t.Errorf("the file behind the link changed to %q", got)
	}
}
