package skills

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Discover lists the skills under root, which is either one skill folder
// (it has a SKILL.md) or a folder of skill folders. A missing root yields
// nothing and no error. A folder without SKILL.md, or a SKILL.md that does
// not validate, becomes a note rather than a failure, so one broken skill
// never hides the others. Skills come back sorted by name, then folder.
func Discover(root, source string) ([]Skill, []string, error) {
	return discover(root, source, ParseFile)
}

func discover(root, source string, parseFile func(string) (Skill, error)) ([]Skill, []string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, fmt.Errorf("skills in %s: %w", root, err)
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("skills in %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("skills in %s: not a folder", root)
	}
	if hasSkillFile(abs) {
		return discoverOne(abs, source, parseFile)
	}
	return discoverChildren(abs, source, parseFile)
}

func discoverOne(dir, source string, parseFile func(string) (Skill, error)) ([]Skill, []string, error) {
	s, err := parseFile(filepath.Join(dir, FileName))
	if err != nil {
		return nil, []string{skipNote(err)}, nil
	}
	s.Source = source
	return []Skill{s}, truncatedNotes([]Skill{s}), nil
}

// truncatedNotes says which skills had their description cut.
func truncatedNotes(list []Skill) []string {
	var notes []string
	for _, s := range list {
		if s.Truncated {
			notes = append(notes, fmt.Sprintf("skill %q: description longer than %d characters, truncated", s.Name, MaxDescriptionLen))
		}
	}
	return notes
}

func discoverChildren(root, source string, parseFile func(string) (Skill, error)) ([]Skill, []string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, fmt.Errorf("skills in %s: %w", root, err)
	}
	var found []Skill
	var notes []string
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if strings.HasPrefix(e.Name(), ".") || !e.IsDir() && (e.Type()&fs.ModeSymlink == 0 || !isDir(dir)) {
			continue // loose files (README.md) and hidden folders are not skills
		}
		if !hasSkillFile(dir) {
			notes = append(notes, fmt.Sprintf("skipped %s: no %s", dir, FileName))
			continue
		}
		s, err := parseFile(filepath.Join(dir, FileName))
		if err != nil {
			notes = append(notes, skipNote(err))
			continue
		}
		s.Source = source
		found = append(found, s)
	}
	sortSkills(found)
	return found, append(notes, truncatedNotes(found)...), nil
}

func skipNote(err error) string { return "skipped skill: " + err.Error() }

// isDir follows symlinks: a linked skill folder is still a skill folder.
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func hasSkillFile(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, FileName))
	return err == nil
}

func sortSkills(list []Skill) {
	slices.SortStableFunc(list, func(a, b Skill) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Dir, b.Dir))
	})
}
