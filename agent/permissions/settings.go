package permissions

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// maxSettingsBytes bounds one settings file.
const maxSettingsBytes = 1 << 20

// Settings is what AgentDesk reads from a project's own Claude Code
// settings (.claude/settings.json, then .claude/settings.local.json).
// Only the project's files are read: never ~/.claude or another host's.
type Settings struct {
	Rules []Rule // allow, ask and deny, in file order, each with its source
	// AdditionalDirectories, Env and DefaultMode apply only once the
	// folder is trusted: the directories become working folders of the
	// file tools, Env reaches commands and the project's hooks and
	// servers, DefaultMode is shown and never lowers the user's approvals.
	AdditionalDirectories []string
	Env                   map[string]string
	DefaultMode           string
	// Diagnostics name what could not be read (a broken file, a rule that
	// does not parse); the rest still applies.
	Diagnostics []string
}

type settingsFile struct {
	Permissions struct {
		Allow                 []string `json:"allow"`
		Ask                   []string `json:"ask"`
		Deny                  []string `json:"deny"`
		AdditionalDirectories []string `json:"additionalDirectories"`
		DefaultMode           string   `json:"defaultMode"`
	} `json:"permissions"`
	Env map[string]string `json:"env"`
}

// LoadProject reads project's .claude/settings.json and
// .claude/settings.local.json through an os.Root on project, so a
// symlink out of the project is not followed. Missing files are no
// error; a broken one is a diagnostic.
func LoadProject(project string) Settings {
	var s Settings
	root, err := os.OpenRoot(project)
	if err != nil {
		s.Diagnostics = append(s.Diagnostics, fmt.Sprintf("project settings: %v", err))
		return s
	}
	defer root.Close()
	for _, f := range []struct {
		name   string
		source Source
	}{{".claude/settings.json", SourceProject}, {".claude/settings.local.json", SourceProjectLocal}} {
		s.add(root, f.name, f.source)
	}
	return s
}

func (s *Settings) add(root *os.Root, name string, source Source) {
	raw, err := readBounded(root, filepath.FromSlash(name))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var f settingsFile
	if err == nil {
		err = json.Unmarshal(raw, &f)
	}
	if err != nil {
		s.Diagnostics = append(s.Diagnostics, fmt.Sprintf("%s: %v", name, err))
		return
	}
	p := f.Permissions
	for _, list := range []struct {
		b     Behavior
		rules []string
	}{{Allow, p.Allow}, {Ask, p.Ask}, {Deny, p.Deny}} {
		for _, text := range list.rules {
			r, err := Parse(text)
			if err != nil {
				s.Diagnostics = append(s.Diagnostics, fmt.Sprintf("%s: %v", name, err))
				continue
			}
			r.Behavior, r.Source = list.b, source
			s.Rules = append(s.Rules, r)
		}
	}
	s.AdditionalDirectories = append(s.AdditionalDirectories, p.AdditionalDirectories...)
	if p.DefaultMode != "" {
		s.DefaultMode = p.DefaultMode // the local file, read last, wins as in Claude Code
	}
	for k, v := range f.Env {
		if s.Env == nil {
			s.Env = map[string]string{}
		}
		s.Env[k] = v
	}
}

func readBounded(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxSettingsBytes+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxSettingsBytes {
		return nil, fmt.Errorf("larger than %d KiB", maxSettingsBytes>>10)
	}
	return raw, nil
}

// EnvNames are the names of Env, sorted (for display).
func (s Settings) EnvNames() []string {
	names := make([]string, 0, len(s.Env))
	for k := range s.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Sources are everything that decides a project's rules.
type Sources struct {
	Project Settings // LoadProject's result
	// Trusted is the folder-trust answer for the project's settings
	// (extensions/project): until it is given the project's allow and ask
	// rules wait, while its deny rules always apply (they only narrow).
	Trusted bool
	User    []Rule // the user's own rules saved in AgentDesk: always apply
}

// Effective is the rules that apply now: the user's, the project's deny
// rules, and the project's allow and ask rules when Trusted.
func (src Sources) Effective() []Rule {
	rules := append([]Rule(nil), src.User...)
	for _, r := range src.Project.Rules {
		if r.Behavior == Deny || src.Trusted {
			rules = append(rules, r)
		}
	}
	return rules
}

// Directories resolves AdditionalDirectories as Claude Code does: "~/"
// from home, a relative path from the project, an absolute one as given;
// each clean and once, in file order. Whether they exist is the caller's
// question.
func (s Settings) Directories(project, home string) []string {
	var out []string
	for _, d := range s.AdditionalDirectories {
		d = strings.TrimSpace(d)
		switch {
		case d == "":
			continue
		case d == "~" || strings.HasPrefix(d, "~/"):
			if home == "" {
				continue
			}
			d = filepath.Join(home, strings.TrimPrefix(d, "~"))
		case !filepath.IsAbs(d):
			d = filepath.Join(project, d)
		}
		d = filepath.Clean(d)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}
