package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/skills"
)

// defaultSkillsDir is used when the manifest has no "skills" field.
const defaultSkillsDir = "skills"

// loadSkills validates every skill root the manifest names (or the default
// skills/ folder) and collects its skills. A root outside the package is an
// error; a broken skill inside one is a diagnostic.
func (l *loader) loadSkills(manifestPath string, raw json.RawMessage) error {
	paths, err := skillPaths(raw, l.root)
	if err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	for _, p := range paths {
		if err := l.loadSkillRoot(p); err != nil {
			return fmt.Errorf("%s: %w", manifestPath, err)
		}
	}
	return nil
}

func skillPaths(raw json.RawMessage, r pkgRoot) ([]string, error) {
	if isNull(raw) {
		if r.exists(defaultSkillsDir) {
			return []string{defaultSkillsDir}, nil
		}
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New(`"skills" must be a path or a list of paths`)
	}
	return list, nil
}

func (l *loader) loadSkillRoot(rel string) error {
	real, _, err := l.root.resolve(rel)
	if err != nil {
		return fmt.Errorf("skills path %w", err)
	}
	info, err := os.Stat(real)
	if err == nil && info.Mode().IsRegular() && filepath.Base(real) == skills.FileName {
		real = filepath.Dir(real) // a SKILL.md named directly: its folder is the skill
	} else if err != nil || !info.IsDir() {
		l.note("skipped skills path %s: neither a folder nor a %s", rel, skills.FileName)
		return nil
	}
	found, notes, err := skills.Discover(real, "")
	if err != nil {
		return fmt.Errorf("skills path %s: %w", rel, err)
	}
	for _, n := range notes {
		// Discover names absolute paths; inside a package the relative
		// ones are what the author recognises.
		l.note("%s", strings.ReplaceAll(n, l.root.dir+string(filepath.Separator), ""))
	}
	for _, s := range found {
		if err := l.addSkill(s); err != nil {
			return err
		}
	}
	if !slices.Contains(l.pkg.SkillRoots, real) {
		l.pkg.SkillRoots = append(l.pkg.SkillRoots, real)
	}
	return nil
}

// addSkill keeps the first skill of each name. A skill folder reached
// through a symlink must still be inside the package, because its files
// become readable to the model.
func (l *loader) addSkill(s skills.Skill) error {
	_, err := filepath.EvalSymlinks(s.File())
	if err != nil || !l.root.inside(s.File()) {
		rel, _ := filepath.Rel(l.root.dir, s.Dir)
		return fmt.Errorf("skill %s resolves outside the package", filepath.ToSlash(rel))
	}
	for _, kept := range l.pkg.Skills {
		if kept.Name == s.Name {
			l.note("skill %q is defined twice (%s and %s); using the first", s.Name, kept.Dir, s.Dir)
			return nil
		}
	}
	l.pkg.Skills = append(l.pkg.Skills, s)
	return nil
}
