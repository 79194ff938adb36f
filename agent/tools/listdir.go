package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// listDir is the list_dir tool.
type listDir struct {
	roots  *roots
	limits *limits
}

type listDirArgs struct {
	Path string `json:"path" jsonschema_description:"The directory to list. Default: the project root."`
}

func (a *listDirArgs) parse(raw json.RawMessage) error {
	if err := decodeArgs(raw, a); err != nil {
		return err
	}
	if a.Path == "" {
		a.Path = "."
	}
	return nil
}

func (t *listDir) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "list_dir",
		Description: fmt.Sprintf("List one directory, not recursively. Subdirectories end in '/', symlinks in '@', "+
			"files show their size. .git is not shown. Fails for a directory of more than %d entries; "+
			"use glob to search a tree or a large directory.", MaxSearchResults),
		Parameters: schemaOf(listDirArgs{}),
	}
}

func (t *listDir) Kind() Kind { return ReadOnly }

func (t *listDir) summary(raw json.RawMessage) string {
	var a listDirArgs
	if err := a.parse(raw); err != nil {
		return "list_dir (invalid arguments)"
	}
	return "list_dir " + a.Path
}

func (t *listDir) Preview(raw json.RawMessage) (Preview, error) {
	var a listDirArgs
	if err := a.parse(raw); err != nil {
		return Preview{}, err
	}
	return Preview{Title: t.summary(raw)}, nil
}

func (t *listDir) Run(_ context.Context, raw json.RawMessage) Result {
	var a listDirArgs
	if err := a.parse(raw); err != nil {
		return failure(err)
	}
	loc, err := t.roots.resolve(a.Path, forRead)
	if err != nil {
		return failure(err)
	}
	defer loc.release()
	if err := statDir(loc); err != nil {
		return failure(err)
	}
	text, err := t.list(loc)
	if err != nil {
		return failure(err)
	}
	return Result{Text: text}
}

func (t *listDir) list(loc location) (string, error) {
	w := &walker{root: loc.root, maxVisit: t.limits.visitEntries}
	entries, err := w.readDir(loc.name)
	if errors.Is(err, errVisitLimit) {
		return "", searchLimitError("list_dir", err, t.limits)
	}
	if err != nil {
		return "", pathProblem("list", loc.show(loc.name), err)
	}
	var lines []string
	for _, d := range entries {
		if d.Name() == gitDir {
			continue
		}
		if len(lines) == t.limits.searchResults {
			return "", searchLimitError("list_dir", errResultLimit, t.limits)
		}
		lines = append(lines, describeEntry(d))
	}
	if len(lines) == 0 {
		return "(empty directory)", nil
	}
	return strings.Join(lines, "\n"), nil
}

// describeEntry is one list_dir line, in the style of `ls -F`.
func describeEntry(d fs.DirEntry) string {
	switch {
	case d.IsDir():
		return d.Name() + "/"
	case d.Type()&fs.ModeSymlink != 0:
		return d.Name() + "@"
	case !d.Type().IsRegular():
		return fmt.Sprintf("%s (%s)", d.Name(), d.Type())
	}
	info, err := d.Info()
	if err != nil {
		return d.Name() + " (size unknown)"
	}
	return fmt.Sprintf("%s (%d bytes)", d.Name(), info.Size())
}
