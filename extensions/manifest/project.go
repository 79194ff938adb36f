package manifest

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ProjectID is the extension id of a project's own Claude Code
// configuration. No installed extension may take it.
const ProjectID = "project"

// The files and folders of a project's own configuration, relative to
// the project root, as Claude Code reads them.
const (
	ProjectSettings      = ".claude/settings.json"
	ProjectLocalSettings = ".claude/settings.local.json"
	projectCommandsDir   = ".claude/commands"
	projectAgentsDir     = ".claude/agents"
	projectSkillsDir     = ".claude/skills"
)

// LoadProject reads the project at root as the extension "project": the
// hooks of .claude/settings.json and .claude/settings.local.json,
// .claude/commands/**/*.md (a subfolder names the command "sub:name"),
// .claude/agents/*.md, .claude/skills/*/SKILL.md, .claude/output-styles/*.md
// and .mcp.json. It uses
// the loaders plugins use, with the project root as the package root and
// ${CLAUDE_PROJECT_DIR} as its variable. Unlike a plugin, which the user
// installs on purpose and whose author can fix it, a project is whatever
// the user opened: a hook or file that cannot be used is a diagnostic,
// never a failure of the whole folder. Nothing is run.
func LoadProject(root string) (*Package, error) {
	r, err := openPackageRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.close()
	l := &loader{root: r, project: true, pkg: &Package{Rules: RulesVersion,
		Manifest: Manifest{Name: ProjectID, DisplayName: "Project settings", Path: ProjectSettings}}}
	for _, f := range []string{ProjectSettings, ProjectLocalSettings} {
		l.loadSettingsHooks(f)
	}
	if l.root.exists(defaultMCPFile) {
		l.loadMCPFile(defaultMCPFile)
	}
	l.loadProjectMarkdown()
	l.loadProjectStyles()
	if l.root.exists(projectSkillsDir) {
		if err := l.loadSkillRoot(projectSkillsDir); err != nil {
			l.note("%v", err)
		}
	}
	if err := l.stampHookFiles(); err != nil {
		return nil, err
	}
	return l.pkg, nil
}

// Declares reports whether p declares anything that runs or reaches the
// model once trusted (instructions are not part of a Package).
func (p *Package) Declares() bool {
	return len(p.Hooks)+len(p.MCPServers)+len(p.Commands)+len(p.Agents)+len(p.Skills)+len(p.OutputStyles) > 0
}

// loadSettingsHooks reads the "hooks" of one settings file; a broken
// file is a diagnostic.
func (l *loader) loadSettingsHooks(rel string) {
	if !l.root.exists(rel) {
		return
	}
	real, clean, err := l.root.resolve(rel)
	if err == nil {
		var data []byte
		if data, err = readRegular(real, clean, MaxHooksFileBytes); err == nil {
			err = l.settingsHooks(clean, data)
		}
	}
	if err != nil {
		l.note("%v", err)
	}
}

func (l *loader) settingsHooks(rel string, data []byte) error {
	members, err := parseObject(data)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	for _, m := range members {
		if m.key != "hooks" || isNull(m.value) {
			continue
		}
		if err := l.parseHooksConfig(m.value); err != nil {
			return fmt.Errorf("%s: hooks: %w", rel, err)
		}
	}
	return nil
}

// loadProjectMarkdown reads .claude/commands and .claude/agents. Errors
// (a file that resolves outside the project) are diagnostics.
func (l *loader) loadProjectMarkdown() {
	if files, err := l.collectMarkdown("commands", projectCommandsDir, nil); err != nil {
		l.note("%v", err)
	} else {
		seen := map[string]bool{}
		for _, f := range files {
			if err := l.addCommand(f, seen); err != nil {
				l.note("%v", err)
			}
		}
	}
	files, err := l.collectMarkdown("agents", projectAgentsDir, nil)
	if err != nil {
		l.note("%v", err)
		return
	}
	seen := map[string]bool{}
	for _, f := range files {
		real, err := filepath.EvalSymlinks(f)
		if err != nil || !l.root.inside(f) {
			l.note("skipped agent %s: it resolves outside the project", l.rel(f))
			continue
		}
		if !seen[real] {
			seen[real] = true
			l.addAgent(real, l.rel(f))
		}
	}
}

// loadProjectStyles reads .claude/output-styles; a file that resolves
// outside the project is a diagnostic.
func (l *loader) loadProjectStyles() {
	files, err := l.collectMarkdown("outputStyles", projectStylesDir, nil)
	if err == nil {
		err = l.addOutputStyles(files)
	}
	if err != nil {
		l.note("%v", err)
	}
}

// projectCommandName is a project command's name: its path below
// .claude/commands without ".md", folders joined by ':' (Claude Code's
// /frontend:component). ok is false when a part is not a usable name.
func projectCommandName(rel string) (name string, ok bool) {
	inner, found := strings.CutPrefix(rel, projectCommandsDir+"/")
	if !found {
		return "", false
	}
	parts := strings.Split(strings.TrimSuffix(inner, ".md"), "/")
	for _, p := range parts {
		if !commandName.MatchString(p) {
			return strings.Join(parts, ":"), false
		}
	}
	return strings.Join(parts, ":"), true
}

// lenient is how a hook problem ends: a plugin fails to install, a
// project notes it and goes on without that hook.
func (l *loader) forgive(where string, err error) error {
	if err == nil || !l.project {
		return err
	}
	l.note("hook %s skipped: %v", where, err)
	return nil
}

// rootVar is the variable that names the package root in a command:
// ${CLAUDE_PLUGIN_ROOT} for a plugin, ${CLAUDE_PROJECT_DIR} for the
// project.
func (l *loader) rootVar() string {
	if l.project {
		return projectDirVar
	}
	return pluginRootVars[0]
}

// packagePath is packagePath for this package: in a project,
// ${CLAUDE_PROJECT_DIR}/x names the project's file x.
func (l *loader) packagePath(tok string) (rel string, ok bool, err error) {
	if l.project {
		if rest, found := cutRootVar(tok, projectDirVar); found {
			return rest, true, nil
		}
	}
	return packagePath(tok)
}

// cutRootVar is the root-relative path after $NAME or ${NAME} at the
// start of tok ("." for the bare variable).
func cutRootVar(tok, name string) (string, bool) {
	for _, prefix := range []string{"${" + name + "}", "$" + name} {
		rest, ok := strings.CutPrefix(tok, prefix)
		if !ok || (rest != "" && rest[0] != '/') {
			continue
		}
		if rest = strings.TrimLeft(rest, "/"); rest == "" {
			rest = "."
		}
		return rest, true
	}
	return "", false
}

// projectFiles are the project files argv names by a relative path
// whatever runs them ("uv run .claude/hooks/check.py", "make -f
// tools/x.mk"): they run from the project root, so their content is part
// of what the user trusts. A plugin's relative scripts are anchored and
// stamped already (anchorScripts).
func (l *loader) projectFiles(argv []string) []string {
	if !l.project {
		return nil
	}
	var out []string
	for _, tok := range argv {
		if !relativePath(tok) || strings.HasPrefix(tok, "-") {
			continue
		}
		if real, clean, err := l.root.resolve(tok); err == nil && isRegularFile(real) {
			out = append(out, clean)
		}
	}
	return out
}
