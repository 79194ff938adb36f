package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// maxGrepLineBytes caps how much of one matching line grep prints, so a
// match in minified code does not flood the result.
const maxGrepLineBytes = 500

// maxSkippedNames is how many skipped large files grep names.
const maxSkippedNames = 5

// grep is the grep tool.
type grep struct {
	roots  *roots
	limits *limits
}

type grepArgs struct {
	Pattern         string `json:"pattern" jsonschema:"required" jsonschema_description:"The regular expression (Go RE2 syntax)."`
	Path            string `json:"path" jsonschema_description:"The file or directory to search. Default: the project root."`
	Glob            string "json:\"glob\" jsonschema_description:\"Only search files matching this glob, e.g. `*.go`.\""
	CaseInsensitive bool   `json:"case_insensitive" jsonschema_description:"Ignore case. Default false."`
}

// grepQuery is a parsed grep call.
type grepQuery struct {
	re     *regexp.Regexp
	filter fileFilter
}

func (a *grepArgs) parse(raw json.RawMessage) (grepQuery, error) {
	if err := decodeArgs(raw, a); err != nil {
		return grepQuery{}, err
	}
	if a.Pattern == "" {
		return grepQuery{}, errRequired("pattern")
	}
	if a.Path == "" {
		a.Path = "."
	}
	expr := a.Pattern
	if a.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return grepQuery{}, fmt.Errorf("invalid arguments: pattern is not a valid Go regular expression: %w", err)
	}
	filter, err := parseFileFilter(a.Glob)
	if err != nil {
		return grepQuery{}, err
	}
	return grepQuery{re: re, filter: filter}, nil
}

func (t *grep) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "grep",
		Description: fmt.Sprintf("Search file contents with a Go (RE2) regular expression. Returns matching lines as "+
			"path:line:text. Searches one file, or every file below a directory; glob limits which files: a glob "+
			"without '/' matches file names (`*.go`), one with '/' matches paths below path (`cmd/**/*.go`). "+
			"Binary files, files over %d KiB, symlinks and .git are skipped. Fails if more than %d lines match "+
			"or more than %d entries would be visited: narrow the pattern, path or glob.",
			MaxGrepFileBytes>>10, MaxSearchResults, MaxVisitEntries),
		Parameters: schemaOf(grepArgs{}),
	}
}

func (t *grep) Kind() Kind { return ReadOnly }

func (t *grep) summary(raw json.RawMessage) string {
	var a grepArgs
	if _, err := a.parse(raw); err != nil {
		return "grep (invalid arguments)"
	}
	s := "grep " + a.Pattern
	if a.Path != "." {
		s += " in " + a.Path
	}
	if a.Glob != "" {
		s += " (" + a.Glob + ")"
	}
	return s
}

func (t *grep) Preview(raw json.RawMessage) (Preview, error) {
	var a grepArgs
	if _, err := a.parse(raw); err != nil {
		return Preview{}, err
	}
	return Preview{Title: t.summary(raw)}, nil
}

func (t *grep) Run(ctx context.Context, raw json.RawMessage) Result {
	var a grepArgs
	q, err := a.parse(raw)
	if err != nil {
		return failure(err)
	}
	loc, err := t.roots.resolve(a.Path, forRead)
	if err != nil {
		return failure(err)
	}
	defer loc.release()
	if insideGit(loc.name) {
		return failure(errInsideGit(loc.show(loc.name)))
	}
	info, err := loc.root.Stat(loc.name)
	if err != nil {
		return failure(pathProblem("search", a.Path, err))
	}
	if !info.IsDir() {
		return t.searchOneFile(loc, q.re)
	}
	return t.searchTree(ctx, loc, q)
}

// searchOneFile greps a single named file; unlike in a tree search, a file
// that cannot be searched is an error, not a skip.
func (t *grep) searchOneFile(loc location, re *regexp.Regexp) Result {
	s := &grepSearch{loc: loc, re: re, maxResults: t.limits.searchResults}
	shown := loc.show(loc.name)
	data, err := s.read(loc.name)
	if err != nil {
		return failure(err)
	}
	if len(data) > MaxGrepFileBytes || isBinary(data) {
		return failure(fmt.Errorf("%s is binary or larger than %d KiB; grep only searches text files up to that size",
			shown, MaxGrepFileBytes>>10))
	}
	if err := s.lines(shown, data); err != nil {
		return failure(searchLimitError("grep", err, t.limits))
	}
	return s.result(nil)
}

func (t *grep) searchTree(ctx context.Context, loc location, q grepQuery) Result {
	w := &walker{root: loc.root, maxVisit: t.limits.visitEntries}
	s := &grepSearch{loc: loc, re: q.re, maxResults: t.limits.searchResults}
	err := w.walk(ctx, loc.name, func(rel string, d fs.DirEntry) (bool, error) {
		if d.IsDir() {
			return q.filter.mayMatchBelow(rel), nil
		}
		if !d.Type().IsRegular() || !q.filter.match(rel) {
			return false, nil
		}
		return false, s.file(filepath.Join(loc.name, filepath.FromSlash(rel)))
	})
	if err != nil {
		return failure(searchLimitError("grep", err, t.limits))
	}
	return s.result(w)
}

// grepSearch collects matches and skipped files across one grep call.
type grepSearch struct {
	loc        location
	re         *regexp.Regexp
	maxResults int
	matches    []string
	binary     int      // binary files skipped
	large      []string // files over MaxGrepFileBytes, as shown
	unreadable int
}

// file greps one root-relative file.
func (s *grepSearch) file(name string) error {
	shown := s.loc.show(name)
	data, err := s.read(name)
	if err != nil {
		s.unreadable++
		return nil
	}
	if len(data) > MaxGrepFileBytes {
		s.large = append(s.large, shown)
		return nil
	}
	if isBinary(data) {
		s.binary++
		return nil
	}
	return s.lines(shown, data)
}

// read returns the file's contents, or one byte more than MaxGrepFileBytes
// when it is larger, so a growing file cannot exceed the bound.
func (s *grepSearch) read(name string) ([]byte, error) {
	f, err := openRegular(location{root: s.loc.root, name: name, base: s.loc.base}, "search")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxGrepFileBytes+1))
}

func (s *grepSearch) lines(shown string, data []byte) error {
	for n := 1; len(data) > 0; n++ {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if !s.re.Match(line) {
			continue
		}
		if len(s.matches) == s.maxResults {
			return errResultLimit
		}
		s.matches = append(s.matches, fmt.Sprintf("%s:%d:%s", shown, n, clip(line)))
	}
	return nil
}

// clip shortens a matching line to maxGrepLineBytes.
func clip(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) <= maxGrepLineBytes {
		return string(line)
	}
	return string(line[:maxGrepLineBytes]) + " …[line cut]"
}

// result is the grep output plus notes on what was skipped.
func (s *grepSearch) result(w *walker) Result {
	text := strings.Join(s.matches, "\n")
	if len(s.matches) == 0 {
		text = "no matches"
	}
	for _, note := range s.notes(w) {
		text += "\n" + note
	}
	return Result{Text: text}
}

func (s *grepSearch) notes(w *walker) []string {
	var notes []string
	if n := len(s.large); n > 0 {
		names := s.large[:min(n, maxSkippedNames)]
		notes = append(notes, fmt.Sprintf("note: skipped %d files larger than %d KiB: %s",
			n, MaxGrepFileBytes>>10, strings.Join(names, ", ")+more(n-len(names))))
	}
	if s.binary > 0 {
		notes = append(notes, fmt.Sprintf("note: skipped %d binary files", s.binary))
	}
	if s.unreadable > 0 {
		notes = append(notes, fmt.Sprintf("note: %d files could not be read", s.unreadable))
	}
	if w != nil && w.note() != "" {
		notes = append(notes, w.note())
	}
	return notes
}

// more is the " and N more" tail of a shortened list.
func more(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// fileFilter is grep's glob argument. A pattern without '/' matches file
// names anywhere, like ripgrep's --glob; one with '/' matches the path
// below the search directory.
type fileFilter struct {
	pattern  *globPattern // nil: every file
	nameOnly bool
}

func parseFileFilter(glob string) (fileFilter, error) {
	if glob == "" {
		return fileFilter{}, nil
	}
	slashed := filepath.ToSlash(glob)
	pat, err := parseGlob(slashed)
	if err != nil {
		return fileFilter{}, fmt.Errorf("invalid arguments: glob: %w", err)
	}
	return fileFilter{pattern: &pat, nameOnly: !strings.Contains(slashed, "/")}, nil
}

func (f fileFilter) match(rel string) bool {
	switch {
	case f.pattern == nil:
		return true
	case f.nameOnly:
		return f.pattern.match([]string{path.Base(rel)})
	}
	return f.pattern.match(strings.Split(rel, "/"))
}

func (f fileFilter) mayMatchBelow(dir string) bool {
	if f.pattern == nil || f.nameOnly {
		return true
	}
	return f.pattern.mayMatchBelow(strings.Split(dir, "/"))
}
