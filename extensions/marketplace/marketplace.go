// Package marketplace reads a Claude Code or Codex plugin marketplace: a
// repository whose .claude-plugin/marketplace.json (or Codex's
// .agents/plugins/marketplace.json) lists plugins, each in a folder of the
// same repository or in another git repository. It only parses and
// validates; installing a picked plugin is the extensions package's job.
//
// Like a manifest, the file is bounded and validated before anything is
// offered: a hostile marketplace (a source escaping the repository,
// duplicate names, an oversized file) is refused whole, while an entry of
// a kind AgentDesk does not install (npm, pip) is listed with its reason.
package marketplace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// MaxBytes bounds marketplace.json, like a plugin manifest.
const MaxBytes = 256 << 10

// Paths are where a marketplace file may live, Claude Code's first.
var Paths = []string{".claude-plugin/marketplace.json", ".agents/plugins/marketplace.json"}

// githubRepo is the "owner/repo" of a github source.
var githubRepo = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// namePattern is the extension id rule (manifest.NamePattern).
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// Kinds of plugin source.
const (
	SourcePath = "path" // a folder of the marketplace's own repository
	SourceGit  = "git"  // another git repository, optionally a folder of it
)

// Source is where a plugin's files come from.
type Source struct {
	Kind string `json:"kind"`
	// SourcePath: the folder, relative and clean ("." for the root).
	// SourceGit: the folder inside the other repository ("" for its root).
	Path string `json:"path,omitempty"`
	URL  string `json:"url,omitempty"` // SourceGit: an https URL
	Ref  string `json:"ref,omitempty"` // SourceGit: branch or tag; "" = default branch
	SHA  string `json:"sha,omitempty"` // SourceGit: a pinned commit, which wins over Ref
}

// String is how the source is shown and compared across updates.
func (s Source) String() string {
	if s.Kind == SourcePath {
		return "./" + strings.TrimPrefix(s.Path, ".")
	}
	out := s.URL
	if ref := firstNonEmpty(s.SHA, s.Ref); ref != "" {
		out += "@" + ref
	}
	if s.Path != "" {
		out += "#" + s.Path
	}
	return out
}

// Plugin is one entry of the marketplace.
type Plugin struct {
	Name        string
	Description string
	Version     string
	Source      Source
	// Unsupported, when set, says why this entry cannot be installed
	// (an npm or pip source, an ssh URL, …); Source is then empty.
	Unsupported string
	// Manifest is the entry itself when it has "strict": false: it then
	// stands for the plugin's plugin.json.
	Manifest json.RawMessage
	// Raw is the entry as written; it stands for the manifest of a plugin
	// that has none (Claude Code allows that).
	Raw json.RawMessage
}

// Marketplace is a validated marketplace file.
type Marketplace struct {
	Name    string
	Path    string // the file it was read from, relative to the repository
	Plugins []Plugin
}

// Find returns the marketplace file of the repository at root, if any.
func Find(root string) (string, bool) {
	for _, p := range Paths {
		if info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil && info.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// Load reads and validates the marketplace of the repository at root.
func Load(root string) (*Marketplace, error) {
	rel, ok := Find(root)
	if !ok {
		return nil, errors.New("no marketplace file (" + strings.Join(Paths, " or ") + ")")
	}
	data, err := readBounded(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	m, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	m.Path = rel
	return m, nil
}

func readBounded(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("larger than %d KiB: refused", MaxBytes>>10)
	}
	return data, nil
}

// file is marketplace.json as written.
type file struct {
	Name     string `json:"name"`
	Metadata struct {
		PluginRoot string `json:"pluginRoot"`
	} `json:"metadata"`
	PluginRoot string            `json:"pluginRoot"` // some write it at the top
	Plugins    []json.RawMessage `json:"plugins"`
}

type entry struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Version     string          `json:"version"`
	Source      json.RawMessage `json:"source"`
	Strict      *bool           `json:"strict"`
}

// Parse validates a marketplace file's bytes.
func Parse(data []byte) (*Marketplace, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("larger than %d KiB: refused", MaxBytes>>10)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if len(f.Plugins) == 0 {
		return nil, errors.New(`lists no "plugins"`)
	}
	root := firstNonEmpty(f.Metadata.PluginRoot, f.PluginRoot)
	m := &Marketplace{Name: f.Name}
	seen := map[string]bool{}
	for i, raw := range f.Plugins {
		p, err := parseEntry(raw, root)
		if err != nil {
			return nil, fmt.Errorf("plugins[%d]: %w", i, err)
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("plugins[%d]: the name %q is listed twice", i, p.Name)
		}
		seen[p.Name] = true
		m.Plugins = append(m.Plugins, p)
	}
	return m, nil
}

func parseEntry(raw json.RawMessage, pluginRoot string) (Plugin, error) {
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Plugin{}, fmt.Errorf("not an object: %w", err)
	}
	if !namePattern.MatchString(e.Name) {
		return Plugin{}, fmt.Errorf("invalid plugin name %q (a-z, 0-9, '.', '_', '-', at most 64)", e.Name)
	}
	p := Plugin{Name: e.Name, Description: e.Description, Version: e.Version, Raw: raw}
	if e.Strict != nil && !*e.Strict {
		p.Manifest = raw
	}
	src, unsupported, err := parseSource(e.Source, pluginRoot)
	if err != nil {
		return Plugin{}, fmt.Errorf("plugin %q: %w", e.Name, err)
	}
	p.Source, p.Unsupported = src, unsupported
	return p, nil
}

// parseSource reads the source forms of Claude Code and Codex. A hostile
// path is an error; a kind AgentDesk does not install is "unsupported".
func parseSource(raw json.RawMessage, pluginRoot string) (Source, string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return pathSource(s, pluginRoot)
	}
	var obj struct {
		Source string `json:"source"`
		Repo   string `json:"repo"`
		URL    string `json:"url"`
		Path   string `json:"path"`
		Ref    string `json:"ref"`
		SHA    string `json:"sha"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return Source{}, "", errors.New(`"source" must be a path or an object`)
	}
	switch obj.Source {
	case "local":
		return pathSource(obj.Path, "")
	case "github":
		if !githubRepo.MatchString(obj.Repo) {
			return Source{}, "", fmt.Errorf("github source %q is not owner/repo", obj.Repo)
		}
		return gitSource("https://github.com/"+obj.Repo+".git", "", obj.Ref, obj.SHA)
	case "url":
		return gitSource(obj.URL, "", obj.Ref, obj.SHA)
	case "git-subdir":
		url := obj.URL
		if url == "" && obj.Repo != "" {
			url = "https://github.com/" + obj.Repo + ".git"
		}
		return gitSource(url, obj.Path, obj.Ref, obj.SHA)
	case "":
		return Source{}, "", errors.New(`"source" object has no "source" kind`)
	}
	return Source{}, fmt.Sprintf("its source is %q, which AgentDesk does not install (only git repositories over HTTPS and folders of this repository)", obj.Source), nil
}

// pathSource is a folder of the marketplace's repository: relative, no
// "..", bare names under pluginRoot.
func pathSource(p, pluginRoot string) (Source, string, error) {
	if p == "" {
		return Source{}, "", errors.New("empty source path")
	}
	if path.IsAbs(p) || filepath.IsAbs(p) || strings.Contains(p, `\`) {
		return Source{}, "", fmt.Errorf("source %q is not a relative path inside the repository", p)
	}
	if !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") && p != "." && pluginRoot != "" {
		p = path.Join(pluginRoot, p)
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") || path.IsAbs(clean) {
		return Source{}, "", fmt.Errorf("source %q escapes the repository", p)
	}
	return Source{Kind: SourcePath, Path: clean}, "", nil
}

// gitSource is another repository: HTTPS only.
func gitSource(url, sub, ref, sha string) (Source, string, error) {
	switch {
	case strings.HasPrefix(url, "git@") || strings.HasPrefix(url, "ssh://"):
		return Source{}, fmt.Sprintf("its source %s is an SSH URL; AgentDesk installs over HTTPS only (use the https:// address of the same repository)", url), nil
	case !strings.HasPrefix(url, "https://"):
		return Source{}, fmt.Sprintf("its source %q is not an https:// git URL", url), nil
	}
	if sub != "" {
		s, _, err := pathSource(sub, "")
		if err != nil {
			return Source{}, "", err
		}
		sub = s.Path
		if sub == "." {
			sub = ""
		}
	}
	return Source{Kind: SourceGit, URL: url, Path: sub, Ref: ref, SHA: sha}, "", nil
}

// Plugin returns the entry named name.
func (m *Marketplace) Plugin(name string) (Plugin, error) {
	var names []string
	for _, p := range m.Plugins {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	const shown = 12 // a big marketplace's whole list would bury the error
	list := strings.Join(names[:min(len(names), shown)], ", ")
	if len(names) > shown {
		list += fmt.Sprintf(" and %d more (agentdesk ext install URL lists them)", len(names)-shown)
	}
	return Plugin{}, fmt.Errorf("the marketplace lists no plugin %q; it lists %s", name, list)
}

// Self reports whether the marketplace lists only the repository itself
// (source "./"): such a repository is a plain plugin.
func (m *Marketplace) Self() bool {
	return len(m.Plugins) == 1 && m.Plugins[0].Source.Kind == SourcePath && m.Plugins[0].Source.Path == "."
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
