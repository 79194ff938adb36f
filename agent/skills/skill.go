// Package skills reads the Agent Skills format: folders holding a SKILL.md
// whose YAML front matter names and describes the skill. The agent uses it
// for the user's and the project's skills, and extensions use it for the
// skill roots their packages declare.
package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Limits of the format. Names and descriptions are counted in characters
// (runes), as the Agent Skills specification does.
const (
	MaxNameLen        = 64
	MaxDescriptionLen = 1024
	// MaxFileBytes bounds a SKILL.md; a bigger one is rejected rather than
	// truncated so its front matter is never parsed from a partial read.
	MaxFileBytes = 256 << 10
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

const frontMatterDelimiter = "---"

// Skill is one validated skill.
type Skill struct {
	Name        string
	Description string
	Dir         string // absolute folder holding SKILL.md
	Source      string // "user", "project", "extension ponytail", … set by the caller
	// Truncated: the description was longer than MaxDescriptionLen and
	// was cut (Discover notes it).
	Truncated bool `json:",omitempty"`
}

// File is the path of the skill's SKILL.md.
func (s Skill) File() string { return filepath.Join(s.Dir, FileName) }

// ParseFile reads and validates one SKILL.md. Dir is set to the folder
// holding path as given (the caller decides whether it is absolute);
// Source is left empty.
func ParseFile(path string) (Skill, error) {
	data, err := readBounded(path)
	if err != nil {
		return Skill{}, err
	}
	s, err := parse(data)
	if err != nil {
		return Skill{}, fmt.Errorf("%s: %w", path, err)
	}
	s.Dir = filepath.Dir(path)
	return s, nil
}

// readBounded reads a regular file of at most MaxFileBytes.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read skill: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read skill: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read skill %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d KiB", path, MaxFileBytes>>10)
	}
	return data, nil
}

// frontMatter is the part of the header the catalog uses; other keys
// (license, allowed-tools, metadata, …) are allowed and ignored.
type frontMatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// parse extracts and validates the front matter of a SKILL.md.
func parse(data []byte) (Skill, error) {
	header, err := extractFrontMatter(data)
	if err != nil {
		return Skill{}, err
	}
	var fm frontMatter
	if err := yaml.Unmarshal(header, &fm); err != nil {
		// Claude Code reads "description: Use when: …" as text, though
		// strict YAML refuses a plain scalar containing ": ".
		lenient, ok := plainFrontMatter(header)
		if !ok {
			return Skill{}, fmt.Errorf("front matter: %w", err)
		}
		fm = lenient
	}
	s := Skill{Name: strings.TrimSpace(fm.Name), Description: strings.TrimSpace(fm.Description)}
	if utf8.RuneCountInString(s.Description) > MaxDescriptionLen {
		s.Description = string([]rune(s.Description)[:MaxDescriptionLen-1]) + "…"
		s.Truncated = true
	}
	if err := validate(s); err != nil {
		return Skill{}, err
	}
	return s, nil
}

// plainFrontMatter reads name and description the way Claude Code treats
// front matter that is not strict YAML (see PlainFields).
func plainFrontMatter(header []byte) (frontMatter, bool) {
	fields := PlainFields(header)
	fm := frontMatter{Name: fields["name"], Description: fields["description"]}
	return fm, fm.Name != "" && fm.Description != ""
}

// PlainFields reads front matter as "key: rest of the line" pairs, the way
// Claude Code treats a header that is not strict YAML ("description: Use
// when: …"); surrounding quotes are removed and indented lines skipped.
func PlainFields(header []byte) map[string]string {
	fields := map[string]string{}
	for _, line := range strings.Split(string(header), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(key) != key || key == "" {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		fields[key] = value
	}
	return fields
}

// ErrNoFrontMatter: the file does not start with a '---' line.
var ErrNoFrontMatter = errors.New("no front matter: the file must start with a '---' line")

var errNoSkillFrontMatter = errors.New("no front matter: SKILL.md must start with a '---' line, then name and description, then '---'")

// extractFrontMatter returns the YAML header of a SKILL.md.
func extractFrontMatter(data []byte) ([]byte, error) {
	header, _, err := SplitFrontMatter(data)
	if errors.Is(err, ErrNoFrontMatter) {
		return nil, errNoSkillFrontMatter
	}
	return header, err
}

// SplitFrontMatter returns the YAML between the leading "---" line and the
// next one, and the text after it. CRLF line endings and a UTF-8 byte order
// mark are accepted because editors on Windows produce them; the body comes
// back with "\n" line endings.
func SplitFrontMatter(data []byte) (header []byte, body string, err error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	first, rest, found := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != frontMatterDelimiter {
		return nil, text, ErrNoFrontMatter
	}
	if !found {
		return nil, "", errors.New("front matter is not closed: no second '---' line")
	}
	var b strings.Builder
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimRight(line, " \t") == frontMatterDelimiter {
			return []byte(b.String()), rest, nil
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return nil, "", errors.New("front matter is not closed: no second '---' line")
}

func validate(s Skill) error {
	switch {
	case s.Name == "":
		return errors.New("front matter has no name")
	case utf8.RuneCountInString(s.Name) > MaxNameLen:
		return fmt.Errorf("name is longer than %d characters", MaxNameLen)
	case strings.IndexFunc(s.Name, unicode.IsControl) >= 0:
		return errors.New("name must be a single line without control characters")
	case s.Description == "":
		return fmt.Errorf("skill %q: front matter has no description", s.Name)
	case utf8.RuneCountInString(s.Description) > MaxDescriptionLen:
		return fmt.Errorf("skill %q: description is longer than %d characters", s.Name, MaxDescriptionLen)
	}
	return nil
}
