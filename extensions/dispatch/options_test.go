//go:build unix

package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"

	"github.com/zalando/go-keyring"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

func optionsPlugin() map[string]gittest.File {
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"opts","version":"1.0.0","userConfig":{
			"api_token":{"title":"API token","description":"Your token","sensitive":true,"required":true},
			"region":{"title":"Region","type":"string","default":"eu"},
			"verbose":{"type":"boolean","default":false},
			"bad key":{"title":"x"}}}`},
		"hooks/hooks.json": {Body: `{"hooks":{"SessionStart":[{"hooks":[{"type":"command",
			"command":"${CLAUDE_PLUGIN_ROOT}/hooks/show.sh ${user_config.region} ${user_config.api_token}"}]}]}}`},
		"hooks/show.sh": {Body: "#!/bin/sh\necho \"env region=$CLAUDE_PLUGIN_OPTION_REGION token=$CLAUDE_PLUGIN_OPTION_API_TOKEN args=$*\"\n", Mode: 0o755},
	}
}

func TestUserConfigOptions(t *testing.T) {
	for _, tt := range []struct {
		name    string
		keyring error // nil: a working keyring; else none (the file is used)
	}{{"system keyring", nil}, {"no keyring: a private file", errors.New("no secret service")}} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.keyring == nil {
				keyring.MockInit()
			} else {
				keyring.MockInitWithError(tt.keyring)
			}
			testUserConfig(t, tt.keyring == nil)
		})
	}
}

func testUserConfig(t *testing.T, withKeyring bool) {
	e := newTestEnv(t, map[string]*gittest.Repo{"opts": repo(t, optionsPlugin())})
	ctx := context.Background()
	info := e.install("opts", "")
	if !containsText(info.Diagnostics, "${user_config.api_token} is sensitive and never put in a command") || !containsText(info.Diagnostics, `ignored userConfig "bad key"`) {
		t.Fatalf("diagnostics = %q", info.Diagnostics)
	}
	info = e.enable("opts")
	if info.Status != extensions.StatusError || !strings.Contains(info.LastError, "needs a value for api_token") {
		t.Fatalf("a required value is missing: status %s, %q", info.Status, info.LastError)
	}
	d := New(e.m, Config{HookPATH: func() string { return testPATH }})
	if res := d.SessionStart(ctx, sessionStartEvent(t.TempDir())); len(res.Blocks) != 0 {
		t.Fatalf("an extension missing a required value ran: %+v", res)
	}

	const secret = "sekret-7f3a"
	if err := e.m.SetOptions(ctx, "opts", map[string]string{"api_token": secret, "region": "us"}); err != nil {
		t.Fatal(err)
	}
	if err := e.m.SetOptions(ctx, "opts", map[string]string{"verbose": "maybe"}); err == nil {
		t.Fatal("a boolean option took 'maybe'")
	}
	res := d.SessionStart(ctx, sessionStartEvent(t.TempDir()))
	want := "env region=us token=" + secret + " args=us ${user_config.api_token}"
	if len(res.Blocks) != 1 || res.Blocks[0].Text != want {
		t.Fatalf("hook saw %+v, want %q", res, want)
	}
	info, _ = e.m.Show(ctx, "opts")
	body, _ := json.Marshal(info)
	if info.Status != extensions.StatusEnabled || strings.Contains(string(body), secret) {
		t.Fatalf("ext show leaks the secret or is not enabled (%s): %s", info.Status, body)
	}
	for _, f := range []string{e.paths.Database(), e.paths.Database() + "-wal"} {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), secret) {
			t.Fatalf("the secret is in %s", filepath.Base(f))
		}
	}
	file := filepath.Join(e.paths.Extensions(), "secrets.json")
	data, err := os.ReadFile(file)
	if withKeyring != (err != nil || !strings.Contains(string(data), secret)) {
		t.Fatalf("keyring %v, but the file holds %q (%v)", withKeyring, data, err)
	}
	if st, err := os.Stat(file); err == nil && st.Mode().Perm() != 0o600 {
		t.Fatalf("secrets file mode %v", st.Mode().Perm())
	}
	if err := e.m.Uninstall(ctx, "opts"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(file); strings.Contains(string(data), secret) {
		t.Fatal("uninstall left the secret behind")
	}
	// The Manager's keyring service and account names for the option.
	if v, err := keyring.Get("AgentDesk extensions", "opts/api_token"); err == nil {
		t.Fatalf("uninstall left the secret in the keyring: %q", v)
	}
}
