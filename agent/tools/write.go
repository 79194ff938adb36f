package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// newFileMode and newDirMode are used for files and parent directories
// write_file creates; the umask still applies.
const (
	newFileMode = 0o644
	newDirMode  = 0o755
)

// change is a planned file write: computed for the preview, then again
// at run time, so what runs matches the file as it is then.
type change struct {
	loc     location
	shown   string
	before  string
	existed bool
	after   string
}

// diff is the change as a unified diff; a created file is all additions.
func (c change) diff() string {
	oldLabel := diffLabel("a/" + c.shown)
	if !c.existed {
		oldLabel = "/dev/null"
	}
	return unifiedDiff(oldLabel, diffLabel("b/"+c.shown), c.before, c.after)
}

// diffLabel quotes a diff header's file name the way git does when it
// holds a control character, a quote or a backslash, so a newline in a
// name cannot end the header and forge the lines after it.
func diffLabel(name string) string {
	if strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '"' || r == '\\' }) < 0 {
		return name
	}
	return strconv.Quote(name)
}

// apply writes the new content atomically, creating parent directories:
// the content goes to a temporary file in the same folder, which is
// synced, given the old file's mode and renamed over it, so a failed
// write (a full disk, an I/O error) leaves the old file whole. A symlink
// inside the project is written through: its target gets the content.
// Another hard link to the file keeps the old content, as after any
// editor's atomic save.
func (c change) apply() error {
	if dir := filepath.Dir(c.loc.name); dir != "." {
		if err := c.loc.root.MkdirAll(dir, newDirMode); err != nil {
			return pathProblem("create the directory for", c.shown, err)
		}
	}
	name, err := c.target()
	if err != nil {
		return pathProblem("write", c.shown, err)
	}
	if err := writeAtomic(c.loc.root, name, c.after); err != nil {
		if c.existed {
			return fmt.Errorf("%w; %s is unchanged", pathProblem("write", c.shown, err), c.shown)
		}
		return pathProblem("write", c.shown, err)
	}
	return nil
}

// maxLinks bounds the symlinks followed to the file a write replaces.
const maxLinks = 40

// target is the name the write replaces: the change's own, or the file
// its symlinks lead to (which the root keeps inside the project).
func (c change) target() (string, error) {
	name := c.loc.name
	for range maxLinks {
		info, err := c.loc.root.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		link, err := c.loc.root.Readlink(name)
		if err != nil {
			return "", err
		}
		next := filepath.Join(filepath.Dir(name), link)
		if filepath.IsAbs(link) || !filepath.IsLocal(next) {
			return "", fmt.Errorf("the symlink leads outside the project (%s)", link)
		}
		name = next
	}
	return "", fmt.Errorf("more than %d symlinks", maxLinks)
}

// writeAtomic replaces name in root with content through a synced
// temporary file renamed over it, keeping an existing file's mode.
func writeAtomic(root *os.Root, name, content string) (err error) {
	mode := fs.FileMode(newFileMode)
	info, statErr := root.Stat(name)
	if statErr == nil {
		mode = info.Mode().Perm()
	}
	tmp, f, err := createTemp(root, name)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			root.Remove(tmp)
		}
	}()
	if statErr == nil {
		if err := f.Chmod(mode); err != nil {
			return err
		}
	}
	if _, err := f.WriteString(content); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := root.Rename(tmp, name); err != nil {
		return err
	}
	syncDir(root, filepath.Dir(name))
	return nil
}

// createTemp makes a new, empty file beside name.
func createTemp(root *os.Root, name string) (string, *os.File, error) {
	for range 10 {
		var b [6]byte
		rand.Read(b[:])
		tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".agentdesk-"+hex.EncodeToString(b[:]))
		f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, newFileMode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, errors.New("no free temporary name")
}

// syncDir makes the rename durable where the system allows syncing a
// folder (not Windows); the content is already synced either way.
func syncDir(root *os.Root, dir string) {
	if d, err := root.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// planChange resolves a project path and reads what it holds now.
func planChange(r *roots, p string) (change, error) {
	loc, err := r.resolve(p, forWrite)
	if err != nil {
		return change{}, err
	}
	c := change{loc: loc, shown: loc.show(loc.name)}
	info, err := loc.root.Stat(loc.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return change{}, pathProblem("write", c.shown, err)
	case info.IsDir():
		return change{}, fmt.Errorf("%s is a directory", c.shown)
	case info.Size() > MaxEditBytes:
		return change{}, fmt.Errorf("%s is larger than %d MiB; change it with run_command instead", c.shown, MaxEditBytes>>20)
	}
	data, err := loc.root.ReadFile(loc.name)
	if err != nil {
		return change{}, pathProblem("read", c.shown, err)
	}
	c.before, c.existed = string(data), true
	return c, nil
}

// writeFile is the write_file tool.
type writeFile struct {
	roots *roots
}

type writeFileArgs struct {
	Path    string  `json:"path" jsonschema:"required" jsonschema_description:"The file to write; it must be inside the project root."`
	Content *string `json:"content" jsonschema:"required" jsonschema_description:"The complete new content of the file."`
}

func (t *writeFile) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "write_file",
		Description: "Create a file, or replace a file's whole content, inside the project. Parent directories are " +
			"created. The user sees a diff and approves each write. To change part of an existing file, use edit_file.",
		Parameters: schemaOf(writeFileArgs{}),
	}
}

func (t *writeFile) Kind() Kind { return Edit }

func (t *writeFile) parse(raw json.RawMessage) (writeFileArgs, error) {
	var a writeFileArgs
	if err := decodeArgs(raw, &a); err != nil {
		return a, err
	}
	if a.Path == "" {
		return a, errRequired("path")
	}
	if a.Content == nil {
		return a, errRequired("content")
	}
	return a, nil
}

func (t *writeFile) summary(raw json.RawMessage) string {
	a, err := t.parse(raw)
	if err != nil {
		return "write_file (invalid arguments)"
	}
	return "write_file " + a.Path
}

func (t *writeFile) plan(raw json.RawMessage) (change, error) {
	a, err := t.parse(raw)
	if err != nil {
		return change{}, err
	}
	c, err := planChange(t.roots, a.Path)
	if err != nil {
		return change{}, err
	}
	c.after = *a.Content
	return c, nil
}

func (t *writeFile) Preview(raw json.RawMessage) (Preview, error) {
	c, err := t.plan(raw)
	if err != nil {
		return Preview{}, err
	}
	title := "Create " + c.shown
	if c.existed {
		title = "Overwrite " + c.shown
	}
	return Preview{Title: title, Detail: sizeLine(c.after), Diff: c.diff()}, nil
}

func (t *writeFile) Run(_ context.Context, raw json.RawMessage) Result {
	c, err := t.plan(raw)
	if err != nil {
		return failure(err)
	}
	if err := c.apply(); err != nil {
		return failure(err)
	}
	verb := "Created"
	if c.existed {
		verb = "Overwrote"
	}
	return Result{Text: fmt.Sprintf("%s %s (%s).", verb, c.shown, sizeLine(c.after))}
}

// sizeLine describes content as "N lines, M bytes".
func sizeLine(content string) string {
	lines := strings.Count(content, "\n")
	if content != "" && !strings.HasSuffix(content, "\n") {
		lines++ // the last line has no newline
	}
	return fmt.Sprintf("%d lines, %d bytes", lines, len(content))
}

// editFile is the edit_file tool.
type editFile struct {
	roots *roots
}

type editFileArgs struct {
	Path       string `json:"path" jsonschema:"required" jsonschema_description:"The file to edit; it must be inside the project root."`
	OldString  string `json:"old_string" jsonschema:"required" jsonschema_description:"The exact text to replace."`
	NewString  string `json:"new_string" jsonschema:"required" jsonschema_description:"The text to put in its place."`
	ReplaceAll bool   `json:"replace_all" jsonschema_description:"Replace every occurrence instead of exactly one. Default false."`
}

func (t *editFile) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "edit_file",
		Description: "Replace exact text in a file inside the project. old_string must match the file exactly, " +
			"including whitespace and indentation, and must occur exactly once unless replace_all is true: include " +
			"enough surrounding lines to make it unique. Read the file first. The user sees a diff and approves each edit.",
		Parameters: schemaOf(editFileArgs{}),
	}
}

func (t *editFile) Kind() Kind { return Edit }

func (t *editFile) parse(raw json.RawMessage) (editFileArgs, error) {
	var a editFileArgs
	if err := decodeArgs(raw, &a); err != nil {
		return a, err
	}
	switch {
	case a.Path == "":
		return a, errRequired("path")
	case a.OldString == "":
		return a, fmt.Errorf("invalid arguments: old_string is empty; to create or replace a whole file use write_file")
	case a.OldString == a.NewString:
		return a, fmt.Errorf("invalid arguments: old_string and new_string are the same, so there is nothing to change")
	}
	return a, nil
}

func (t *editFile) summary(raw json.RawMessage) string {
	a, err := t.parse(raw)
	if err != nil {
		return "edit_file (invalid arguments)"
	}
	return "edit_file " + a.Path
}

// plan finds old_string and computes the edited content.
func (t *editFile) plan(raw json.RawMessage) (change, int, error) {
	a, err := t.parse(raw)
	if err != nil {
		return change{}, 0, err
	}
	c, err := planChange(t.roots, a.Path)
	if err != nil {
		return change{}, 0, err
	}
	if !c.existed {
		return change{}, 0, fmt.Errorf("%s does not exist; create it with write_file", c.shown)
	}
	count := strings.Count(c.before, a.OldString)
	switch {
	case count == 0:
		return change{}, 0, fmt.Errorf("old_string was not found in %s; read the file again and copy the text exactly, including whitespace", c.shown)
	case count > 1 && !a.ReplaceAll:
		return change{}, 0, fmt.Errorf("old_string occurs %d times in %s; include more surrounding lines to make it unique, or set replace_all to change every occurrence", count, c.shown)
	}
	c.after = strings.ReplaceAll(c.before, a.OldString, a.NewString)
	return c, count, nil
}

func (t *editFile) Preview(raw json.RawMessage) (Preview, error) {
	c, count, err := t.plan(raw)
	if err != nil {
		return Preview{}, err
	}
	return Preview{Title: "Edit " + c.shown, Detail: replacements(count), Diff: c.diff()}, nil
}

func (t *editFile) Run(_ context.Context, raw json.RawMessage) Result {
	c, count, err := t.plan(raw)
	if err != nil {
		return failure(err)
	}
	if err := c.apply(); err != nil {
		return failure(err)
	}
	return Result{Text: fmt.Sprintf("Edited %s: %s.", c.shown, replacements(count))}
}

func replacements(count int) string {
	if count == 1 {
		return "replaced 1 occurrence"
	}
	return fmt.Sprintf("replaced %d occurrences", count)
}
