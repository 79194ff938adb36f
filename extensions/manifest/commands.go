package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/skills"
)

// Command is one slash command of the package: a Markdown file whose body
// becomes the user's prompt when the user types /NAME.
type Command struct {
	Name         string   // the file stem: commands/review.md is "review"
	Path         string   // package-relative, slash-separated
	Description  string   `json:",omitempty"`
	ArgumentHint string   `json:",omitempty"`
	AllowedTools []string `json:",omitempty"` // shown only: never used to skip approval
	Body         string   // the text after the front matter
}

// Limits on commands: a bigger file is skipped with a note, never cut,
// so a prompt is never sent half.
const (
	MaxCommandBytes = skills.MaxFileBytes
	maxCommands     = 500
)

// defaultCommandsDir is read whether or not the manifest names more
// command paths: in Claude Code custom paths add to commands/.
const defaultCommandsDir = "commands"

// commandName is what may follow "/": no spaces, no ':' (it separates the
// extension from the name), nothing a shell or a completion list would
// mangle.
var commandName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// loadCommands reads commands/ and the paths the manifest's "commands"
// names. A path outside the package is an error (its text would reach the
// model); a file that cannot be used is a diagnostic.
func (l *loader) loadCommands(manifestPath string, raw json.RawMessage) error {
	files, err := l.collectMarkdown("commands", defaultCommandsDir, raw)
	if err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if err := l.addCommand(f, seen); err != nil {
			return fmt.Errorf("%s: %w", manifestPath, err)
		}
	}
	return nil
}

// collectMarkdown lists the .md files of the default folder (when it
// exists) and of the paths the manifest field names, in that order: in
// Claude Code custom paths add to the default folder. Each path is one
// .md file or a folder walked for them (subfolders only group). A path
// outside the package is an error; one that is missing or holds no .md
// file is a diagnostic.
func (l *loader) collectMarkdown(field, defaultDir string, raw json.RawMessage) ([]string, error) {
	paths, err := commandPaths(raw)
	if err != nil {
		l.note("ignored %q: %v", field, err)
	}
	if l.root.exists(defaultDir) {
		paths = append([]string{defaultDir}, paths...)
	}
	var files []string
	for _, p := range paths {
		found, err := l.markdownPath(field, defaultDir, p)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	return files, nil
}

func commandPaths(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("not a path or a list of paths")
	}
	return list, nil
}

// markdownPath lists one .md file or every .md file under a folder.
func (l *loader) markdownPath(field, defaultDir, rel string) ([]string, error) {
	if !l.root.exists(rel) {
		if _, err := cleanRelative(rel); err != nil {
			return nil, fmt.Errorf("%s path %w", field, err)
		}
		l.note("skipped %s path %s: it does not exist", field, rel)
		return nil, nil
	}
	real, _, err := l.root.resolve(rel)
	if err != nil {
		return nil, fmt.Errorf("%s path %w", field, err)
	}
	var files []string
	walkErr := filepath.WalkDir(real, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir() && strings.HasSuffix(d.Name(), ".md"):
			files = append(files, path)
		}
		return nil
	})
	if walkErr != nil {
		l.note("%s path %s: %v", field, rel, walkErr)
	}
	if len(files) == 0 && rel != defaultDir { // commands/ of Gemini .toml files is not ours to report
		l.note("skipped %s path %s: no .md files", field, rel)
	}
	return files, nil
}

// addCommand reads one command file; the first file of each name wins.
func (l *loader) addCommand(path string, seen map[string]bool) error {
	// WalkDir does not follow symlinks below the root, but a file named
	// directly, or a symlinked file inside a folder, is checked here.
	real, err := filepath.EvalSymlinks(path)
	if err != nil || !l.root.inside(path) {
		return fmt.Errorf("command %s resolves outside the package", l.rel(path))
	}
	if seen[real] {
		return nil // commands/ and a manifest path naming the same file
	}
	seen[real] = true
	rel := l.rel(path)
	c, problem := l.readCommand(real, rel)
	if problem != "" {
		l.note("skipped command %s: %s", rel, problem)
		return nil
	}
	for _, kept := range l.pkg.Commands {
		if kept.Name == c.Name {
			l.note("command /%s is defined twice (%s and %s); using the first", c.Name, kept.Path, rel)
			return nil
		}
	}
	if len(l.pkg.Commands) >= maxCommands {
		l.note("skipped command %s: more than %d commands", rel, maxCommands)
		return nil
	}
	l.pkg.Commands = append(l.pkg.Commands, c)
	return nil
}

func (l *loader) rel(path string) string {
	if r, err := filepath.Rel(l.root.dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// readCommand parses one command file; problem says why it is unusable.
func (l *loader) readCommand(real, rel string) (Command, string) {
	name := strings.TrimSuffix(filepath.Base(rel), ".md")
	usable := commandName.MatchString(name)
	if l.project {
		name, usable = projectCommandName(rel)
	}
	if !usable {
		return Command{}, fmt.Sprintf("%q is not a usable command name (letters, digits, '.', '_', '-')", name)
	}
	data, err := readRegular(real, rel, MaxCommandBytes)
	if err != nil {
		return Command{}, err.Error()
	}
	header, body, err := skills.SplitFrontMatter(data)
	if err != nil && !errors.Is(err, skills.ErrNoFrontMatter) {
		return Command{}, err.Error()
	}
	c := Command{Name: name, Path: rel, Body: strings.TrimSpace(body)}
	if err := l.readCommandHeader(&c, header); err != nil {
		return Command{}, err.Error()
	}
	if c.Body == "" {
		return Command{}, "its body is empty"
	}
	return c, ""
}

// readCommandHeader reads the front matter keys AgentDesk uses.
func (l *loader) readCommandHeader(c *Command, header []byte) error {
	fields, err := frontMatterFields(header)
	if err != nil {
		return err
	}
	c.Description = truncateForDisplay(scalarText(fields["description"]))
	c.ArgumentHint = hintText(fields["argument-hint"])
	c.AllowedTools = toolList(fields["allowed-tools"])
	if model := scalarText(fields["model"]); model != "" {
		l.note("command /%s asks for model %q: ignored, commands use the session's model", c.Name, model)
	}
	return nil
}

// scalarText is a front matter value as one line of text.
func scalarText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(v)
	case []any, map[string]any:
		return ""
	}
	return fmt.Sprint(v)
}

// hintText accepts the usual "[file] [count]" text, which strict YAML
// reads as a list when it is a single "[file]".
func hintText(v any) string {
	list, ok := v.([]any)
	if !ok {
		return scalarText(v)
	}
	var parts []string
	for _, item := range list {
		parts = append(parts, "["+scalarText(item)+"]")
	}
	return strings.Join(parts, " ")
}

// toolList accepts a list or the comma-separated text Claude Code allows
// ("Bash(git add:*), Read").
func toolList(v any) []string {
	var items []string
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			items = append(items, scalarText(item))
		}
	default:
		items = strings.Split(scalarText(v), ",")
	}
	var out []string
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" && !slices.Contains(out, it) {
			out = append(out, it)
		}
	}
	return out
}
