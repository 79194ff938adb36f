//go:build unix

package dispatch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
)

// A prompt over the hook input cap reaches UserPromptSubmit hooks cut, with
// prompt_truncated, and is never a recorded failure.
func TestALongPromptIsTruncatedForHooksNotAFailure(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"keep"}`},
		"hooks/hooks.json":           {Body: `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/keep.sh"}]}]}}`},
		"hooks/keep.sh":              {Body: "#!/bin/sh\ncat > \"$CLAUDE_PLUGIN_DATA/in.json\"\necho got it\n", Mode: 0o755},
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"keep": repo(t, files)})
	e.install("keep", "")
	e.enable("keep")
	d := New(e.m, Config{HookPATH: func() string { return testPATH }})
	ctx := context.Background()
	prompt := strings.Repeat("é\"\\", 700_000) // 2.8 MB, and every character grows in JSON

	res := d.UserPromptSubmit(ctx, lifecycle.PromptEvent{SessionID: "s", ProjectDir: t.TempDir(), Prompt: prompt})
	if len(res.Blocks) != 1 || len(res.Notices) != 0 {
		t.Fatalf("the hook must run and succeed: %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(e.paths.Extensions(), "data", "keep", "in.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		Prompt    string `json:"prompt"`
		Truncated bool   `json:"prompt_truncated"`
	}
	if err := json.Unmarshal(data, &in); err != nil || len(data) > hookrun.MaxStdin || !in.Truncated || !strings.HasPrefix(prompt, in.Prompt) || len(in.Prompt) < 100_000 {
		t.Fatalf("hook input: %d bytes, truncated %v, a prefix %v (%d bytes), %v", len(data), in.Truncated, strings.HasPrefix(prompt, in.Prompt), len(in.Prompt), err)
	}
	if info, _ := e.m.Show(ctx, "keep"); info.LastError != "" || info.RecentRuns[0].Error != "" {
		t.Fatalf("a long prompt was recorded as a failure: %q %q", info.LastError, info.RecentRuns[0].Error)
	}
}
