// Package manifest is the extension package contract: it loads and
// validates an extracted Claude Code / Codex style plugin tree (manifest,
// skills, command hooks) without ever executing anything from it.
//
// Load is strict where a mistake could run code the user did not review
// (paths, hook commands, the extension id) and lenient where it only
// affects presentation: an odd "version" becomes a diagnostic, not a
// failed install.
package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/agent/skills"
)

// Limits on what a package may hand us.
const (
	MaxManifestBytes    = 256 << 10
	MaxDescriptionBytes = 1 << 10 // longer descriptions are truncated for display
	MaxHooksFileBytes   = 1 << 20
)

// RulesVersion changes whenever what validation decides can run changes
// (v2: shebang-less scripts run through /bin/sh, both manifests read,
// default and manifest hooks added; v3: PreToolUse, PostToolUse, Stop,
// SessionEnd and PreCompact hooks run; v4: slash commands read; v5:
// PostToolUseFailure, PermissionRequest, Notification and
// UserPromptExpansion hooks run, agents read, SubagentStop hooks and MCP
// servers run; v6: output styles read). Stored packages validated under
// an older version are validated again at start;
// an enabled extension whose runnable hooks changed goes back to review.
const RulesVersion = 6

// NamePattern is the rule for an extension's name, which is also its id.
var NamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// The two manifests. When both exist the Claude one decides (its
// semantics are the ones real plugins are written and tested against) and
// the Codex one only fills in fields the Claude one lacks.
const (
	claudeManifest = ".claude-plugin/plugin.json"
	codexManifest  = ".codex-plugin/plugin.json"
)

// Manifest holds the presentation fields of plugin.json.
type Manifest struct {
	Name             string // the extension id
	Version          string // shown only, never used to decide updates
	Description      string // at most MaxDescriptionBytes
	Homepage         string
	Repository       string
	License          string
	Keywords         []string
	Author           Author
	DisplayName      string // interface.displayName
	ShortDescription string // interface.shortDescription
	Path             string // the manifest file used, relative to the package
}

// Author is written either as a string or as {name, email, url}.
type Author struct {
	Name, Email, URL string
}

// Package is a validated extension package.
type Package struct {
	// Rules is the RulesVersion the package was validated under: a
	// package validated under older rules is validated again.
	Rules       int
	Manifest    Manifest
	Hooks       []Hook         // manifest order, one per command handler of a dispatched event
	Skills      []skills.Skill // validated; Source left empty; Dir absolute under the root
	SkillRoots  []string       // absolute skill root folders, for the read-tool allowlist
	Diagnostics []string       // user-visible notes: unsupported capabilities, skipped skills, …
	Stamps      []FileStamp    // every package file a hook argv names, hashed at load
	UserConfig  []Option       // values the plugin asks the user for, manifest order
	Commands    []Command      `json:",omitempty"` // slash commands, commands/ first, then the manifest's paths
	Agents      []Agent        `json:",omitempty"` // subagent types, agents/ first, then the manifest's paths
	// MCPServers are its MCP servers: .mcp.json first, then the manifest's.
	MCPServers []MCPServer `json:",omitempty"`
	// LSPServers are its language servers: .lsp.json first, then the
	// manifest's "lspServers".
	LSPServers []LSPServer `json:",omitempty"`
	// OutputStyles are its output styles: output-styles/ first, then the
	// manifest's "outputStyles" paths.
	OutputStyles []OutputStyle `json:",omitempty"`
}

// Load validates the package extracted at root. Errors name the file and
// field at fault; problems that leave the rest of the package usable are
// returned as Diagnostics instead.
func Load(root string) (*Package, error) {
	r, err := openPackageRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.close()
	l := &loader{root: r, pkg: &Package{Rules: RulesVersion}}
	fields, path, err := l.readManifests()
	if err != nil {
		return nil, err
	}
	if err := l.load(path, fields); err != nil {
		return nil, err
	}
	return l.pkg, nil
}

// loader carries the package being built and collects its diagnostics.
type loader struct {
	root pkgRoot
	pkg  *Package
	// fromCodex marks the fields the Codex manifest supplied beside a
	// Claude one: a broken one is noted and ignored, never fatal.
	fromCodex map[string]bool
	codexOnly bool
	// project: the package is a project's own configuration
	// (LoadProject), not an installed plugin.
	project bool
}

func (l *loader) note(format string, args ...any) {
	l.pkg.Diagnostics = append(l.pkg.Diagnostics, fmt.Sprintf(format, args...))
}

func (l *loader) load(path string, fields map[string]json.RawMessage) error {
	if err := l.readManifestFields(path, fields); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	l.reportNotRun(fields)
	l.loadUserConfig(fields["userConfig"])
	l.loadMCPServers(path, fields)
	l.loadLSPServers(path, fields)
	if err := l.loadSkills(path, l.lenient("skills", fields)); err != nil {
		return err
	}
	if err := l.loadCommands(path, l.lenient("commands", fields)); err != nil {
		return err
	}
	if err := l.loadAgents(path, l.lenient("agents", fields)); err != nil {
		return err
	}
	if err := l.loadOutputStyles(path, l.lenient("outputStyles", fields)); err != nil {
		return err
	}
	if err := l.loadHooks(path, fields["hooks"]); err != nil {
		return err
	}
	return l.stampHookFiles()
}

// lenient returns a field, or null when the Codex manifest supplied a
// path field that does not resolve: the Claude manifest's default then
// applies, as in Claude Code.
func (l *loader) lenient(key string, fields map[string]json.RawMessage) json.RawMessage {
	raw := fields[key]
	if !l.fromCodex[key] {
		return raw
	}
	var path string
	if json.Unmarshal(raw, &path) == nil && !l.root.exists(path) {
		l.note("ignored %q of %s: %s does not exist", key, codexManifest, path)
		return nil
	}
	return raw
}

// readManifests reads the Claude manifest, the Codex one, or both, and
// returns the fields that apply and the manifest that decides.
func (l *loader) readManifests() (map[string]json.RawMessage, string, error) {
	claude, err := l.readFields(claudeManifest)
	if err != nil {
		return nil, "", err
	}
	codex, err := l.readFields(codexManifest)
	if err != nil && claude == nil {
		return nil, "", err
	}
	switch {
	case claude == nil && codex == nil:
		return nil, "", errors.New("no plugin manifest (.claude-plugin/plugin.json or .codex-plugin/plugin.json)")
	case claude == nil:
		l.codexOnly = true
		return codex, codexManifest, nil
	case err != nil:
		l.note("ignored %s: %v", codexManifest, err)
	}
	l.fillFromCodex(claude, codex)
	return claude, claudeManifest, nil
}

// fillFromCodex adds the Codex manifest's fields the Claude one lacks; an
// empty Codex value ({}, [], "") never counts.
func (l *loader) fillFromCodex(claude, codex map[string]json.RawMessage) {
	l.fromCodex = map[string]bool{}
	var supplied []string
	for key, v := range codex {
		if !isNull(claude[key]) || isEmptyJSON(v) {
			continue
		}
		claude[key] = v
		l.fromCodex[key] = true
		supplied = append(supplied, key)
	}
	if len(supplied) > 0 {
		slices.Sort(supplied)
		l.note("read %s; %s supplied %s", claudeManifest, codexManifest, strings.Join(supplied, ", "))
	}
}

// readFields reads one manifest's top-level fields; nil when it is absent.
func (l *loader) readFields(rel string) (map[string]json.RawMessage, error) {
	if !l.root.exists(rel) {
		return nil, nil
	}
	real, _, err := l.root.resolve(rel)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	data, err := readRegular(real, rel, MaxManifestBytes)
	if err != nil {
		return nil, err
	}
	members, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	fields := map[string]json.RawMessage{}
	for _, m := range members {
		fields[m.key] = m.value
	}
	return fields, nil
}

func isEmptyJSON(v json.RawMessage) bool {
	switch strings.Join(strings.Fields(string(v)), "") {
	case "", "null", "{}", "[]", `""`:
		return true
	}
	return false
}

func (l *loader) readManifestFields(path string, fields map[string]json.RawMessage) error {
	name, err := parseName(fields["name"])
	if err != nil {
		return err
	}
	m := &l.pkg.Manifest
	*m = Manifest{Name: name, Path: path}
	m.Version = l.optionalString(fields, "version")
	m.Description = truncateForDisplay(l.optionalString(fields, "description"))
	m.Homepage = l.optionalString(fields, "homepage")
	m.Repository = l.repository(fields["repository"])
	m.License = l.optionalString(fields, "license")
	m.Keywords = l.keywords(fields["keywords"])
	m.Author = l.author(fields["author"])
	l.readInterface(fields["interface"])
	return nil
}

func parseName(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", errors.New(`missing "name": every extension needs a name, its id`)
	}
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return "", errors.New(`"name" must be a string`)
	}
	if problem := nameProblem(name); problem != "" {
		return "", fmt.Errorf("invalid name %q: %s", name, problem)
	}
	return name, nil
}

// nameProblem explains which part of NamePattern a name breaks; it is
// empty exactly when the name matches.
func nameProblem(name string) string {
	if NamePattern.MatchString(name) && name != ProjectID {
		return ""
	}
	switch {
	case name == ProjectID:
		return "it is reserved for a project's own settings"
	case name == "":
		return "it is empty"
	case len(name) > 64:
		return "it is longer than 64 characters"
	case !isNameStart(name[0]):
		return "it must start with a lowercase letter or a digit"
	}
	for _, r := range name {
		if r >= utf8.RuneSelf || !isNameChar(byte(r)) {
			return fmt.Sprintf("it contains %q; only a-z, 0-9, '.', '_' and '-' are allowed", r)
		}
	}
	return "it does not match " + NamePattern.String()
}

func isNameStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isNameChar(c byte) bool { return isNameStart(c) || c == '.' || c == '_' || c == '-' }

// optionalString reads a presentation field; a wrong type is noted and
// ignored because it cannot affect what runs.
func (l *loader) optionalString(fields map[string]json.RawMessage, key string) string {
	raw, ok := fields[key]
	if !ok || isNull(raw) {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		l.note("ignored %q: not a string", key)
		return ""
	}
	return s
}

// repository accepts the string form and npm's {"type", "url"} form.
func (l *loader) repository(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct{ URL string }
	if json.Unmarshal(raw, &obj) == nil {
		return obj.URL
	}
	l.note(`ignored "repository": not a string or {"url": …}`)
	return ""
}

func (l *loader) keywords(raw json.RawMessage) []string {
	if isNull(raw) {
		return nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		l.note(`ignored "keywords": not a list of strings`)
		return nil
	}
	return list
}

func (l *loader) author(raw json.RawMessage) Author {
	if isNull(raw) {
		return Author{}
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return Author{Name: name}
	}
	var obj struct{ Name, Email, URL string }
	if err := json.Unmarshal(raw, &obj); err != nil {
		l.note(`ignored "author": not a string or {"name", "email", "url"}`)
		return Author{}
	}
	return Author(obj)
}

func (l *loader) readInterface(raw json.RawMessage) {
	if isNull(raw) {
		return
	}
	var iface struct {
		DisplayName      json.RawMessage `json:"displayName"`
		ShortDescription json.RawMessage `json:"shortDescription"`
	}
	if err := json.Unmarshal(raw, &iface); err != nil {
		l.note(`ignored "interface": not an object`)
		return
	}
	fields := map[string]json.RawMessage{
		"interface.displayName":      iface.DisplayName,
		"interface.shortDescription": iface.ShortDescription,
	}
	l.pkg.Manifest.DisplayName = l.optionalString(fields, "interface.displayName")
	l.pkg.Manifest.ShortDescription = truncateForDisplay(l.optionalString(fields, "interface.shortDescription"))
}

// truncateForDisplay cuts s to at most MaxDescriptionBytes on a rune
// boundary, marking the cut with an ellipsis.
func truncateForDisplay(s string) string {
	if len(s) <= MaxDescriptionBytes {
		return s
	}
	const ellipsis = "…"
	cut := MaxDescriptionBytes - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRightFunc(s[:cut], func(r rune) bool { return r == ' ' || r == '\n' }) + ellipsis
}
