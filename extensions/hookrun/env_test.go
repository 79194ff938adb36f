package hookrun

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestEnviron(t *testing.T) {
	in := EnvInput{
		Parent: []string{
			"HOME=/home/u", "USER=u", "LOGNAME=u", "LANG=en_US.UTF-8", "LC_ALL=C", "LC_TIME=C", "TZ=UTC", "TMPDIR=/tmp/u",
			"PATH=/app/only", "TERM=xterm-256color", "OPENAI_API_KEY=sk-1", "ANTHROPIC_API_KEY=sk-2", "AGENTDESK_API_KEY=k",
			"DISPLAY=:0", "SSH_AUTH_SOCK=/run/agent", "CLAUDE_CONFIG_DIR=/home/u/.claude", "XDG_CONFIG_HOME=/home/u/.config",
			"NOEQUALS", "HOMEBREW_PREFIX=/opt/homebrew",
		},
		HookPATH: "/opt/homebrew/bin:/usr/bin", PluginRoot: "/s/p/c1", PluginData: "/d/p",
		ProjectDir: "/proj", SessionID: "sess", Event: "UserPromptSubmit",
	}
	got := Environ(in)
	want := []string{
		"HOME=/home/u", "USER=u", "LOGNAME=u", "LANG=en_US.UTF-8", "LC_ALL=C", "LC_TIME=C", "TZ=UTC", "TMPDIR=/tmp/u",
		"PATH=/opt/homebrew/bin:/usr/bin", "TERM=dumb",
		"CLAUDE_PLUGIN_ROOT=/s/p/c1", "PLUGIN_ROOT=/s/p/c1", "AGENTDESK_PLUGIN_ROOT=/s/p/c1",
		"CLAUDE_PLUGIN_DATA=/d/p", "PLUGIN_DATA=/d/p", "AGENTDESK_PLUGIN_DATA=/d/p",
		"CLAUDE_PROJECT_DIR=/proj", "AGENTDESK_PROJECT_DIR=/proj",
		"AGENTDESK_SESSION_ID=sess", "AGENTDESK_HOOK_EVENT=UserPromptSubmit",
		"XDG_CONFIG_HOME=" + filepath.Join("/d/p", ".config"),
		"XDG_DATA_HOME=" + filepath.Join("/d/p", ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join("/d/p", ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join("/d/p", ".cache"),
		"CLAUDE_CONFIG_DIR=" + filepath.Join("/d/p", ".claude"),
		"CODEX_HOME=" + filepath.Join("/d/p", ".codex"),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Environ =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPrepareDataDir(t *testing.T) {
	data := filepath.Join(t.TempDir(), "extensions", "data", "ponytail")
	for range 2 { // idempotent
		if err := PrepareDataDir(data); err != nil {
			t.Fatalf("PrepareDataDir: %v", err)
		}
	}
	redirected := 0
	for _, kv := range Environ(EnvInput{PluginData: data}) {
		name, dir, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(dir, data) {
			continue
		}
		redirected++
		info, err := os.Stat(dir)
		if err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
			t.Errorf("%s=%s: %v, %v", name, dir, info, err)
		}
	}
	// Three data-dir names plus six redirects.
	if redirected != 9 {
		t.Fatalf("%d variables point into the data dir, want 9", redirected)
	}
}

func TestPrepareDataDirError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := PrepareDataDir(file); err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("PrepareDataDir on a file: %v", err)
	}
}
