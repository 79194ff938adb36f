package hookrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// loginShellTimeout bounds the login shell started to learn its PATH.
const loginShellTimeout = 2 * time.Second

// pathMarker brackets the PATH in the login shell's output, which may also
// carry whatever the user's profile prints.
const pathMarker = "__AGENTDESK_PATH__"

// LoginShellPATH returns the PATH hooks, MCP and LSP servers get when
// Preferences do not override it: the app's own PATH first (so
// `agentdesk run` from a terminal finds what that terminal finds: `nvm
// use`, a venv, ~/go/bin), then the login shell's entries it lacks (GUI
// apps on macOS do not inherit them; $SHELL is asked as a login shell,
// bounded by a 2 s timeout), then common install locations that exist.
// Call it once at start.
func LoginShellPATH(ctx context.Context) string {
	home, _ := os.UserHomeDir()
	probe := pathProbe{
		shell:      os.Getenv("SHELL"),
		env:        os.Environ(),
		home:       home,
		timeout:    loginShellTimeout,
		commonDirs: commonBinDirs(home),
	}
	return probe.resolve(ctx)
}

// pathProbe holds everything LoginShellPATH reads from the app's
// surroundings, so tests can supply their own.
type pathProbe struct {
	shell      string   // the user's login shell; empty means none
	env        []string // the app's environment, which the shell starts from
	home       string   // the shell's working directory
	timeout    time.Duration
	commonDirs []string // fallback locations, used when they exist
}

func (p pathProbe) resolve(ctx context.Context) string {
	var login string
	if p.shell != "" {
		path, err := p.askLoginShell(ctx)
		if err != nil {
			slog.Warn("hook PATH: login shell did not report PATH; using the app's PATH and common locations",
				"shell", p.shell, "err", err)
		}
		login = path
	}
	return p.merged(login)
}

// askLoginShell runs the user's own shell, not a hook: this is the one
// place a shell is used, to learn the user's environment.
func (p pathProbe) askLoginShell(ctx context.Context) (string, error) {
	script := fmt.Sprintf(`printf '%s%%s%s' "$PATH"`, pathMarker, pathMarker)
	res := Run(ctx, Spec{Argv: []string{p.shell, "-l", "-c", script}, Dir: p.home, Env: p.env, Timeout: p.timeout})
	if res.Err != nil {
		return "", res.Err
	}
	return extractPATH(res.Stdout)
}

func extractPATH(out []byte) (string, error) {
	_, rest, found := bytes.Cut(out, []byte(pathMarker))
	value, _, closed := bytes.Cut(rest, []byte(pathMarker))
	path := strings.TrimSpace(string(value))
	if !found || !closed || path == "" {
		return "", errors.New("login shell printed no PATH")
	}
	return path, nil
}

// merged is the app's PATH, then the entries of login it lacks, then the
// common locations that exist, without duplicates or relative entries.
func (p pathProbe) merged(login string) string {
	var dirs []string
	seen := map[string]bool{}
	add := func(dir string) {
		if filepath.IsAbs(dir) && !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	for _, dir := range filepath.SplitList(envValue(p.env, "PATH")) {
		add(dir)
	}
	for _, dir := range filepath.SplitList(login) {
		add(dir)
	}
	for _, dir := range p.commonDirs {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			add(dir)
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// commonBinDirs are where Homebrew, system packages and per-user installers
// (pipx, uv, Volta) put programs hooks commonly need.
func commonBinDirs(home string) []string {
	dirs := []string{"/opt/homebrew/bin", "/usr/local/bin", "/usr/bin", "/bin"}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".local", "bin"), filepath.Join(home, ".volta", "bin"))
	}
	return dirs
}
