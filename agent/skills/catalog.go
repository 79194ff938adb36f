package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Root is one place skills come from.
type Root struct {
	Dir    string
	Source string // "user", "project", "extension ponytail", …
	// PluginRoot is, for an extension's skill root, the extension's
	// installed folder: its skills name files through Claude Code's
	// ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_SKILL_DIR} (ExpandSkill). Empty
	// for the user's and the project's skills, which are read as written.
	PluginRoot string
	// Version, when set, names the folder's content: an installed
	// extension's version record, which an update or a re-stamp changes.
	// Cache.Build lists such a folder once per Version.
	Version string
	// Listed, when set, are the folder's skills as already read and
	// validated (an installed extension's package lists them at
	// install): Build takes them instead of reading the folder, so a new
	// process reads no SKILL.md of a whole marketplace. Source is set
	// from the root.
	Listed *Listing
}

// Listing is a root's skills as read before (Root.Listed).
type Listing struct{ Skills []Skill }

// ExpandSkill replaces, in text read from file (an absolute path below
// r.Dir), ${CLAUDE_SKILL_DIR} with the folder holding file and
// ${CLAUDE_PLUGIN_ROOT} with r.PluginRoot, in one pass (an inserted path
// is never read again), so the model reading an extension's skill sees
// paths it can use. Only a SKILL.md of an extension's root is rewritten;
// note tells what was replaced, "" when nothing was.
func (r Root) ExpandSkill(file, text string) (expanded, note string) {
	if r.PluginRoot == "" || filepath.Base(file) != FileName || !strings.Contains(text, "${CLAUDE_") {
		return text, ""
	}
	skillDir := filepath.Dir(file)
	expanded = strings.NewReplacer("${CLAUDE_SKILL_DIR}", skillDir, "${CLAUDE_PLUGIN_ROOT}", r.PluginRoot).Replace(text)
	if expanded == text {
		return text, ""
	}
	return expanded, fmt.Sprintf("%s of %s: ${CLAUDE_SKILL_DIR} is shown as %s and ${CLAUDE_PLUGIN_ROOT} as %s",
		FileName, r.Source, skillDir, r.PluginRoot)
}

// Conflict records a skill name defined by more than one root. The winner
// is the definition from the earliest root; the losers are never offered
// to the model but stay visible in diagnostics.
type Conflict struct {
	Name   string
	Winner Skill
	Losers []Skill
}

// Catalog is the merged, conflict-free set of skills offered to the model.
type Catalog struct {
	Skills    []Skill // sorted by name
	Conflicts []Conflict
	Notes     []string
}

// Build merges roots given in priority order (the user's skills, then the
// project's, then extensions in installation order). The first definition
// of a name wins; every later one is recorded as a conflict, so the result
// is deterministic and never silently drops a skill. A root that cannot be
// read becomes a note.
func Build(roots []Root) Catalog { return build(roots, ParseFile) }

// Cache is Build with what it read kept: a root with a Version is
// listed once per Version (an installed extension's folder changes only
// with its record), and the other roots (the user's, the project's) are
// listed again each time, a SKILL.md parsed again only when its size or
// modification time changed. So a new session with a whole marketplace
// enabled reads nothing of it again, and sees a skill the user added.
// The zero value is ready; it is safe for concurrent use.
type Cache struct {
	mu     sync.Mutex
	parsed map[string]cachedSkill // by SKILL.md path
	listed map[Root]listedRoot    // roots with a Version
}

type listedRoot struct {
	skills []Skill
	notes  []string
	err    error
}

type cachedSkill struct {
	size  int64
	mtime time.Time
	skill Skill
}

// Build is Build(roots), reading only what may have changed.
func (c *Cache) Build(roots []Root) Catalog {
	return buildWith(roots, func(r Root) ([]Skill, []string, error) {
		if r.Version == "" {
			return discover(r.Dir, r.Source, c.parseFile)
		}
		c.mu.Lock()
		l, ok := c.listed[r]
		c.mu.Unlock()
		if !ok {
			l.skills, l.notes, l.err = discover(r.Dir, r.Source, c.parseFile)
			c.mu.Lock()
			if c.listed == nil {
				c.listed = map[Root]listedRoot{}
			}
			c.listed[r] = l
			c.mu.Unlock()
		}
		return slices.Clone(l.skills), l.notes, l.err
	})
}

func (c *Cache) parseFile(path string) (Skill, error) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return ParseFile(path) // it words the error
	}
	c.mu.Lock()
	hit, ok := c.parsed[path]
	c.mu.Unlock()
	if ok && hit.size == info.Size() && hit.mtime.Equal(info.ModTime()) {
		return hit.skill, nil
	}
	s, err := ParseFile(path)
	if err != nil {
		return s, err
	}
	c.mu.Lock()
	if c.parsed == nil {
		c.parsed = map[string]cachedSkill{}
	}
	c.parsed[path] = cachedSkill{size: info.Size(), mtime: info.ModTime(), skill: s}
	c.mu.Unlock()
	return s, nil
}

func build(roots []Root, parseFile func(string) (Skill, error)) Catalog {
	return buildWith(roots, func(r Root) ([]Skill, []string, error) { return discover(r.Dir, r.Source, parseFile) })
}

func buildWith(roots []Root, list func(Root) ([]Skill, []string, error)) Catalog {
	var cat Catalog
	winners := map[string]int{} // name -> index in cat.Skills
	conflicts := map[string]int{}
	for _, root := range roots {
		var found []Skill
		var notes []string
		var err error
		if root.Listed != nil {
			found = slices.Clone(root.Listed.Skills)
			for i := range found {
				found[i].Source = root.Source
			}
			notes = truncatedNotes(found)
		} else {
			found, notes, err = list(root)
		}
		cat.Notes = append(cat.Notes, notes...)
		if err != nil {
			cat.Notes = append(cat.Notes, err.Error())
		}
		for _, s := range found {
			cat.add(s, winners, conflicts)
		}
	}
	sortSkills(cat.Skills)
	return cat
}

func (c *Catalog) add(s Skill, winners, conflicts map[string]int) {
	w, taken := winners[s.Name]
	if !taken {
		winners[s.Name] = len(c.Skills)
		c.Skills = append(c.Skills, s)
		return
	}
	i, seen := conflicts[s.Name]
	if !seen {
		i = len(c.Conflicts)
		conflicts[s.Name] = i
		c.Conflicts = append(c.Conflicts, Conflict{Name: s.Name, Winner: c.Skills[w]})
	}
	c.Conflicts[i].Losers = append(c.Conflicts[i].Losers, s)
}

// Only is the catalog narrowed to the named skills (a subagent's
// "skills"), keeping the order.
func (c Catalog) Only(names []string) Catalog {
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	out := Catalog{Notes: c.Notes}
	for _, s := range c.Skills {
		if keep[s.Name] {
			out.Skills = append(out.Skills, s)
		}
	}
	return out
}
