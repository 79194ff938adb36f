package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// glob is the glob tool.
type glob struct {
	roots  *roots
	limits *limits
}

type globArgs struct {
	Pattern string `json:"pattern" jsonschema:"required" jsonschema_description:"The pattern, relative to path (or absolute, inside a skill folder or the project)."`
	Path    string `json:"path" jsonschema_description:"The directory to search from. Default: the project root."`
}

// globQuery is a parsed glob call: where to start and what to match there.
type globQuery struct {
	base    string // the directory to walk, as the model would write it
	pattern globPattern
}

func (a *globArgs) parse(raw json.RawMessage) (globQuery, error) {
	if err := decodeArgs(raw, a); err != nil {
		return globQuery{}, err
	}
	if a.Pattern == "" {
		return globQuery{}, errRequired("pattern")
	}
	slashed := filepath.ToSlash(a.Pattern)
	absolute := filepath.IsAbs(a.Pattern) || strings.HasPrefix(slashed, "/")
	if absolute && a.Path != "" && a.Path != "." {
		return globQuery{}, fmt.Errorf("invalid arguments: give path or an absolute pattern, not both")
	}
	pat, err := parseGlob(slashed)
	if err != nil {
		return globQuery{}, err
	}
	prefix, rest := pat.splitLiteral()
	base := path.Join(append([]string{filepath.ToSlash(a.Path)}, prefix...)...)
	if absolute && strings.HasPrefix(slashed, "/") {
		base = "/" + base
	}
	if base == "" {
		base = "."
	}
	return globQuery{base: base, pattern: rest}, nil
}

func (t *glob) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "glob",
		Description: fmt.Sprintf("Find files and directories by path pattern. `*`, `?`, `[abc]` and `{a,b}` match within one "+
			"path segment; a segment that is exactly `**` matches any number of directories, so `**/*.go` finds Go "+
			"files at any depth and `src/**/test_*.py` those under src. Returns matching paths, one per line, "+
			"directories ending in '/'. Symlinked directories are not followed and .git is never searched. "+
			"Fails if more than %d paths match or more than %d entries would be visited: narrow the pattern or path.",
			MaxSearchResults, MaxVisitEntries),
		Parameters: schemaOf(globArgs{}),
	}
}

func (t *glob) Kind() Kind { return ReadOnly }

func (t *glob) summary(raw json.RawMessage) string {
	var a globArgs
	if _, err := a.parse(raw); err != nil {
		return "glob (invalid arguments)"
	}
	if a.Path != "" && a.Path != "." {
		return fmt.Sprintf("glob %s in %s", a.Pattern, a.Path)
	}
	return "glob " + a.Pattern
}

func (t *glob) Preview(raw json.RawMessage) (Preview, error) {
	var a globArgs
	if _, err := a.parse(raw); err != nil {
		return Preview{}, err
	}
	return Preview{Title: t.summary(raw)}, nil
}

func (t *glob) Run(ctx context.Context, raw json.RawMessage) Result {
	var a globArgs
	q, err := a.parse(raw)
	if err != nil {
		return failure(err)
	}
	loc, err := t.roots.resolve(q.base, forRead)
	if err != nil {
		return failure(err)
	}
	defer loc.release()
	if err := statDir(loc); err != nil {
		return failure(err)
	}
	return t.search(ctx, loc, q.pattern, a.Pattern)
}

// search walks loc, pruning directories the pattern cannot reach.
func (t *glob) search(ctx context.Context, loc location, pat globPattern, shownPattern string) Result {
	w := &walker{root: loc.root, maxVisit: t.limits.visitEntries}
	var matches []string
	err := w.walk(ctx, loc.name, func(rel string, d fs.DirEntry) (bool, error) {
		segs := strings.Split(rel, "/")
		if pat.match(segs) {
			if len(matches) == t.limits.searchResults {
				return false, errResultLimit
			}
			matches = append(matches, globEntry(loc, rel, d))
		}
		return pat.mayMatchBelow(segs), nil
	})
	if err != nil {
		return failure(searchLimitError("glob", err, t.limits))
	}
	text := strings.Join(matches, "\n")
	if len(matches) == 0 {
		text = "no paths match " + shownPattern
	}
	if note := w.note(); note != "" {
		text += "\n" + note
	}
	return Result{Text: text}
}

// globEntry shows one match the way read_file and list_dir accept it.
func globEntry(loc location, rel string, d fs.DirEntry) string {
	shown := loc.show(filepath.Join(loc.name, filepath.FromSlash(rel)))
	if d.IsDir() {
		shown += "/"
	}
	return shown
}
