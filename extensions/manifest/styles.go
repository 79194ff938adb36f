package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentdesk/agentdesk/agent/skills"
)

// OutputStyle is one output style of the package: a Markdown file whose
// body joins the system prompt when the user chooses the style (in
// Preferences → Providers or with /output-style), as in Claude Code.
type OutputStyle struct {
	Name        string // front matter "name", else the file stem
	Path        string // package-relative, slash-separated
	Description string `json:",omitempty"`
	// KeepCodingInstructions keeps the coding part of the system prompt;
	// false (the default) replaces it with the style.
	KeepCodingInstructions bool `json:",omitempty"`
	Body                   string
}

// Limits on output styles: a bigger file is skipped with a note, never
// cut, so a style is never half applied.
const (
	MaxOutputStyleBytes = skills.MaxFileBytes
	maxOutputStyles     = 100
)

// defaultStylesDir is read whether or not the manifest names more style
// paths, as commands/ and agents/ are; projectStylesDir is a project's.
const (
	defaultStylesDir = "output-styles"
	projectStylesDir = ".claude/output-styles"
)

// styleName is what the user types after /output-style and picks in
// Preferences: words with spaces are fine (Claude Code's built-in
// "Explanatory"), ':' is not (it separates the extension from the name).
var styleName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$`)

// loadOutputStyles reads output-styles/ and the paths the manifest's
// "outputStyles" names: one .md file or a folder of them each. A path
// outside the package is an error (its text would reach the model); a
// file that cannot be used is a diagnostic naming why.
func (l *loader) loadOutputStyles(manifestPath string, raw json.RawMessage) error {
	files, err := l.collectMarkdown("outputStyles", defaultStylesDir, raw)
	if err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	return l.addOutputStyles(files)
}

// addOutputStyles reads each style file once, in order. A file that
// resolves outside fails a plugin and is a diagnostic in a project.
func (l *loader) addOutputStyles(files []string) error {
	seen := map[string]bool{}
	for _, f := range files {
		real, err := filepath.EvalSymlinks(f)
		if err != nil || !l.root.inside(f) {
			err := fmt.Errorf("output style %s resolves outside the package", l.rel(f))
			if !l.project {
				return err
			}
			l.note("skipped %v", err)
			continue
		}
		if !seen[real] {
			seen[real] = true
			l.addOutputStyle(real, l.rel(f))
		}
	}
	return nil
}

// addOutputStyle reads one style file; the first file of each name wins.
func (l *loader) addOutputStyle(real, rel string) {
	s, problem := l.readOutputStyle(real, rel)
	if problem != "" {
		l.note("skipped output style %s: %s", rel, problem)
		return
	}
	for _, kept := range l.pkg.OutputStyles {
		if strings.EqualFold(kept.Name, s.Name) {
			l.note("output style %q is defined twice (%s and %s); using the first", s.Name, kept.Path, rel)
			return
		}
	}
	if len(l.pkg.OutputStyles) >= maxOutputStyles {
		l.note("skipped output style %s: more than %d output styles", rel, maxOutputStyles)
		return
	}
	l.pkg.OutputStyles = append(l.pkg.OutputStyles, s)
}

// readOutputStyle parses one style file; problem says why it is not
// offered. Front matter is optional, as in Claude Code: without it the
// file stem names the style and it replaces the coding instructions.
func (l *loader) readOutputStyle(real, rel string) (OutputStyle, string) {
	data, err := readRegular(real, rel, MaxOutputStyleBytes)
	if err != nil {
		return OutputStyle{}, err.Error()
	}
	header, body, err := skills.SplitFrontMatter(data)
	if err != nil && !errors.Is(err, skills.ErrNoFrontMatter) {
		return OutputStyle{}, err.Error()
	}
	fields, err := frontMatterFields(header)
	if err != nil {
		return OutputStyle{}, err.Error()
	}
	s := OutputStyle{Name: scalarText(fields["name"]), Path: rel, Body: strings.TrimSpace(body),
		Description: truncateForDisplay(scalarText(fields["description"]))}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(rel), ".md")
	}
	switch {
	case !styleName.MatchString(s.Name):
		return OutputStyle{}, fmt.Sprintf("%q is not a usable output style name (up to 64 letters, digits, spaces, '.', '_', '-'; no ':')", s.Name)
	case strings.EqualFold(s.Name, "default"):
		return OutputStyle{}, `"Default" is AgentDesk's own output style`
	case s.Body == "":
		return OutputStyle{}, "its body (the style's instructions) is empty"
	}
	keep, ok := boolField(fields["keep-coding-instructions"])
	if !ok {
		return OutputStyle{}, fmt.Sprintf("keep-coding-instructions is %q; write true or false", scalarText(fields["keep-coding-instructions"]))
	}
	s.KeepCodingInstructions = keep
	if force, _ := boolField(fields["force-for-plugin"]); force {
		l.note("output style %q asks to be forced on (force-for-plugin): not done, choose it in Preferences → Providers or with /output-style", s.Name)
	}
	return s, ""
}

// boolField reads a YAML boolean, or its text when the header was read
// as plain lines; absent is false. ok is false for anything else.
func boolField(v any) (value, ok bool) {
	switch v := v.(type) {
	case nil:
		return false, true
	case bool:
		return v, true
	}
	switch strings.ToLower(scalarText(v)) {
	case "true", "yes":
		return true, true
	case "false", "no", "":
		return false, true
	}
	return false, false
}
