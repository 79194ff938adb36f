package manifest

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// A hook runs in the open project, so "python3 hooks/h.py" would run the
// project's hooks/h.py, code a cloned repository brings, through a plugin
// the user trusted. A relative path that names a script (the program
// itself when it has a '/', or the script an interpreter is given) is
// therefore anchored at the package: it becomes ${CLAUDE_PLUGIN_ROOT}/path
// when the package has that file, and is a validation error otherwise.

// interpreters are the programs whose first operand is a script file.
var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "node": true, "deno": true, "bun": true,
	"bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true, "fish": true,
	"ruby": true, "perl": true, "php": true, "lua": true, "Rscript": true, "tsx": true, "ts-node": true,
}

// inlineFlags take code, a module or an expression instead of a script:
// after one of them no operand is a script file.
var inlineFlags = map[string]bool{"-c": true, "-e": true, "-m": true, "-p": true, "--eval": true, "--print": true, "-E": true}

// scriptTokens are the indices of argv's tokens that name a script file
// by a relative path.
func scriptTokens(argv []string) []int {
	if len(argv) == 0 {
		return nil
	}
	var out []int
	if relativePath(argv[0]) && strings.Contains(filepath.ToSlash(argv[0]), "/") {
		out = append(out, 0)
	}
	if !interpreters[strings.TrimSuffix(path.Base(filepath.ToSlash(argv[0])), ".exe")] {
		return out
	}
	for i, tok := range argv[1:] {
		switch {
		case inlineFlags[tok]:
			return out
		case strings.HasPrefix(tok, "-"):
			continue
		case relativePath(tok):
			out = append(out, i+1)
		}
		return out
	}
	return out
}

// relativePath: a token that names a file relative to the working
// directory (no variable, no home, not absolute).
func relativePath(tok string) bool {
	return tok != "" && !filepath.IsAbs(tok) && !strings.HasPrefix(tok, "/") &&
		!strings.ContainsAny(tok, "$~") && tok != "." && tok != ".."
}

// anchorScripts rewrites argv's relative script paths to the package
// (under base, the package-relative working directory, "" for the root).
func (l *loader) anchorScripts(argv []string, base string) error {
	for _, i := range scriptTokens(argv) {
		rel := path.Join(base, filepath.ToSlash(argv[i]))
		if _, _, err := l.root.resolve(rel); l.project && err != nil {
			return fmt.Errorf("command names the script %s: %w", argv[i], err)
		}
		if _, _, err := l.root.resolve(rel); err != nil || !filepath.IsLocal(filepath.FromSlash(rel)) {
			return fmt.Errorf("command names the script %s, which is not in the package: a plugin's relative paths never run the project's files; ship it and write ${CLAUDE_PLUGIN_ROOT}/%s", argv[i], rel)
		}
		argv[i] = "${" + l.rootVar() + "}/" + rel
	}
	return nil
}

// cwdBase checks a stdio server's declared working directory: inside the
// package (relative, or under ${CLAUDE_PLUGIN_ROOT}), or the open project
// (${CLAUDE_PROJECT_DIR}). It returns the package-relative folder
// relative scripts are anchored at ("" for the root, and for the project,
// whose files a plugin never runs by a relative path).
func (l *loader) cwdBase(cwd string) (string, error) {
	switch {
	case cwd == "":
		return "", nil
	case cwd == "${"+projectDirVar+"}" || strings.HasPrefix(cwd, "${"+projectDirVar+"}/"):
		return "", nil
	}
	rel, ok, err := l.packagePath(cwd)
	if err != nil {
		return "", err
	}
	if !ok {
		if !relativePath(cwd) {
			return "", fmt.Errorf("cwd %q must be inside the package (${CLAUDE_PLUGIN_ROOT}/…) or the project (${CLAUDE_PROJECT_DIR})", cwd)
		}
		rel = filepath.ToSlash(cwd)
	}
	rel = path.Clean(rel)
	if !filepath.IsLocal(filepath.FromSlash(rel)) && rel != "." {
		return "", fmt.Errorf("cwd %q leaves the package", cwd)
	}
	if _, _, err := l.root.resolve(rel); err != nil {
		return "", fmt.Errorf("cwd %q: %w", cwd, err)
	}
	if rel == "." {
		rel = ""
	}
	return rel, nil
}
