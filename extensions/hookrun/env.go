package hookrun

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// EnvInput is what a hook's environment is built from.
type EnvInput struct {
	// Parent is the app's environment (os.Environ()); only allowlisted
	// names are copied from it.
	Parent []string
	// HookPATH is the PATH hooks get: the login shell's PATH or the
	// Preferences override.
	HookPATH string
	// PluginRoot is the extension's active version folder.
	PluginRoot string
	// PluginData is the extension's absolute data dir, which survives
	// updates. Prepare it with PrepareDataDir.
	PluginData string
	// ProjectDir is the canonical project root.
	ProjectDir string
	SessionID  string
	// Event is the hook event name, such as "SessionStart".
	Event string
	// Options are the extension's userConfig values by variable name
	// (CLAUDE_PLUGIN_OPTION_<KEY>), sensitive ones included: the
	// environment is the one place those reach a hook.
	Options map[string]string
}

// parentAllowlist names the app variables a hook may see; LC_* is allowed
// by prefix. Everything else, API keys included, stays out.
var parentAllowlist = map[string]bool{
	"HOME": true, "USER": true, "LOGNAME": true, "LANG": true, "TZ": true, "TMPDIR": true,
}

// windowsAllowlist adds what Windows programs cannot start or find their
// profile without.
var windowsAllowlist = map[string]bool{
	"SYSTEMROOT": true, "SYSTEMDRIVE": true, "WINDIR": true, "TEMP": true, "TMP": true,
	"USERPROFILE": true, "USERNAME": true, "PATHEXT": true,
}

// Variables naming the same folders under every host's spelling.
var (
	pluginRootVars = []string{"CLAUDE_PLUGIN_ROOT", "PLUGIN_ROOT", "AGENTDESK_PLUGIN_ROOT"}
	pluginDataVars = []string{"CLAUDE_PLUGIN_DATA", "PLUGIN_DATA", "AGENTDESK_PLUGIN_DATA"}
	projectDirVars = []string{"CLAUDE_PROJECT_DIR", "AGENTDESK_PROJECT_DIR"}
)

// dataDirRedirects point config, data, state and cache lookups into the
// extension's data dir, so a package never reads or writes another host's
// configuration (~/.claude, ~/.codex, ~/.config/...).
var dataDirRedirects = []struct{ envVar, dir string }{
	{"XDG_CONFIG_HOME", ".config"},
	{"XDG_DATA_HOME", filepath.Join(".local", "share")},
	{"XDG_STATE_HOME", filepath.Join(".local", "state")},
	{"XDG_CACHE_HOME", ".cache"},
	{"CLAUDE_CONFIG_DIR", ".claude"},
	{"CODEX_HOME", ".codex"},
}

// Environ builds the complete environment of a hook: the allowlisted
// parent variables, PATH, TERM=dumb, the plugin, project and session
// variables, and the data dir redirects.
func Environ(in EnvInput) []string {
	env := allowedParentVars(in.Parent)
	env = append(env, "PATH="+in.HookPATH, "TERM=dumb")
	env = appendAll(env, pluginRootVars, in.PluginRoot)
	env = appendAll(env, pluginDataVars, in.PluginData)
	env = appendAll(env, projectDirVars, in.ProjectDir)
	env = append(env, "AGENTDESK_SESSION_ID="+in.SessionID, "AGENTDESK_HOOK_EVENT="+in.Event)
	for _, r := range dataDirRedirects {
		env = append(env, r.envVar+"="+filepath.Join(in.PluginData, r.dir))
	}
	for _, name := range slices.Sorted(maps.Keys(in.Options)) {
		env = append(env, name+"="+in.Options[name])
	}
	return env
}

// PrepareDataDir creates pluginData and the folders Environ redirects
// into it, private to the user.
func PrepareDataDir(pluginData string) error {
	for _, dir := range dataDirs(pluginData) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("prepare hook data dir %s: %w", pluginData, err)
		}
	}
	return nil
}

func dataDirs(pluginData string) []string {
	dirs := []string{pluginData}
	for _, r := range dataDirRedirects {
		dirs = append(dirs, filepath.Join(pluginData, r.dir))
	}
	return dirs
}

func appendAll(env, names []string, value string) []string {
	for _, name := range names {
		env = append(env, name+"="+value)
	}
	return env
}

func allowedParentVars(parent []string) []string {
	var env []string
	for _, kv := range parent {
		name, _, ok := strings.Cut(kv, "=")
		if ok && allowedParentVar(name) {
			env = append(env, kv)
		}
	}
	return env
}

func allowedParentVar(name string) bool {
	if runtime.GOOS == "windows" {
		name = strings.ToUpper(name)
		if windowsAllowlist[name] {
			return true
		}
	}
	return parentAllowlist[name] || strings.HasPrefix(name, "LC_")
}

// envValue returns the last value of name in env, as the child would see
// it (os/exec keeps the last duplicate).
func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		key, value, ok := strings.Cut(env[i], "=")
		if ok && envNameEqual(key, name) {
			return value
		}
	}
	return ""
}

func envNameEqual(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
