//go:build unix

package dispatch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// localRAGShape is a marketplace laid out as 13W/local-rag is: the plugin
// lives in extensions/claude and its hooks/shared is a symlink to a
// folder of the repository outside the plugin, shared with a sibling.
func localRAGShape() map[string]gittest.File {
	return map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name":"local-rag","owner":{"name":"x"},
			"plugins":[{"name":"local-rag","description":"memory","source":"./extensions/claude"}]}`},
		"extensions/claude/.claude-plugin/plugin.json": {Body: `{"name":"local-rag","version":"2.0.0"}`},
		"extensions/claude/hooks/hooks.json": {Body: `{"hooks":{"SessionStart":[{"hooks":[
			{"type":"command","command":"\"${CLAUDE_PLUGIN_ROOT}/hooks/shared/session-start.sh\""}]}]}}`},
		"extensions/claude/hooks/shared": {Symlink: "../../../shared/hooks"},
		"extensions/gemini/hooks/shared": {Symlink: "../../../shared/hooks"},
		"shared/hooks/session-start.sh": {Mode: 0o755, Body: "#!/bin/sh\n" +
			`printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Memory system active (fixture)"}}'` + "\n"},
		"shared/hooks/recall.sh": {Body: "#!/bin/sh\n", Mode: 0o755},
		"README.md":              {Body: "local-rag\n"},
	}
}

func TestMarketplacePluginWithSymlinkIntoTheRepositoryInstallsAndRuns(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"local-rag": repo(t, localRAGShape())})
	ctx := context.Background()
	info, err := e.m.InstallFrom(ctx, extensions.Source{URL: e.url("local-rag"), Plugin: "local-rag"}, nil)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	shared := filepath.Join(info.Dir, "hooks", "shared")
	if fi, err := os.Lstat(shared); err != nil || !fi.IsDir() {
		t.Fatalf("hooks/shared must be a copied folder in the store: %v %v", fi, err)
	}
	if fi, err := os.Stat(filepath.Join(shared, "session-start.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Fatalf("the copied hook script must keep its executable bit: %v %v", fi, err)
	}
	if len(info.Hooks) != 1 || info.Hooks[0].Event != "SessionStart" || info.Hooks[0].Inactive != "" {
		t.Fatalf("hooks = %+v", info.Hooks)
	}
	e.enable(info.ID)
	d := New(e.m, Config{HookPATH: func() string { return "/usr/bin:/bin" }})
	res := d.SessionStart(ctx, sessionStartEvent(t.TempDir()))
	if len(res.Blocks) != 1 || !strings.Contains(res.Blocks[0].Text, "Memory system active (fixture)") {
		t.Fatalf("SessionStart = %+v", res)
	}
	// An update goes the same way.
	files := localRAGShape()
	files["shared/hooks/recall.sh"] = gittest.File{Body: "#!/bin/sh\necho v2\n", Mode: 0o755}
	e.repos["local-rag"].Commit(t, "main", "v2", files)
	up, err := e.m.Update(ctx, info.ID, "", nil)
	if err != nil || up.UpToDate || up.Info.Status != extensions.StatusEnabled {
		t.Fatalf("update: %+v %v", up, err)
	}
	if got, _ := os.ReadFile(filepath.Join(up.Info.Dir, "hooks", "shared", "recall.sh")); !strings.Contains(string(got), "v2") {
		t.Fatalf("the update's copy is stale: %q", got)
	}
}

func TestMarketplacePluginSymlinksThatCannotBeCopiedAreRefused(t *testing.T) {
	base := localRAGShape()
	link := func(target string) map[string]gittest.File {
		return map[string]gittest.File{"extensions/claude/hooks/shared": {Symlink: target}}
	}
	cases := []struct {
		name  string
		extra map[string]gittest.File
		want  string
	}{
		{"the repository root", link("../../.."), "directory cycle"},
		{"a cycle in the copied folder", map[string]gittest.File{"shared/hooks/lib/back": {Symlink: "../.."}}, "directory cycle"},
		{"a loop", with(link("../../../a"), map[string]gittest.File{"a": {Symlink: "b"}, "b": {Symlink: "a"}}), "loop"},
		{"into .git", link("../../../.git/hooks"), "git metadata"},
		{"a dot-dot chain out of the repository", link("../../../../../../outside"), "outside the repository"},
		{"absolute", link("/etc"), "outside the repository"},
	}
	repos := map[string]*gittest.Repo{}
	for _, c := range cases {
		repos[strings.ReplaceAll(c.name, " ", "-")] = repo(t, with(base, c.extra))
	}
	e := newTestEnv(t, repos)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.m.InstallFrom(context.Background(), extensions.Source{URL: e.url(strings.ReplaceAll(c.name, " ", "-")), Plugin: "local-rag"}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "hooks/shared") && !strings.Contains(err.Error(), "symlink a ->") {
				t.Fatalf("install = %v, want an error naming the link and %q", err, c.want)
			}
			if state := e.storeState(); len(state) != 0 {
				t.Fatalf("a refused install left %v", state)
			}
		})
	}
}

// TestLocalRAGFromItsMirror installs the published 13W/local-rag
// marketplace plugin from a local copy over loopback HTTPS and runs its
// SessionStart hook (node). Point LOCAL_RAG_REPO at a clone or bare
// mirror of https://github.com/13W/local-rag:
//
//	LOCAL_RAG_REPO=/path/to/local-rag.git go test -tags migrated_fynedo -run TestLocalRAGFromItsMirror -v ./extensions/
func TestLocalRAGFromItsMirror(t *testing.T) {
	dir := os.Getenv("LOCAL_RAG_REPO")
	if dir == "" {
		t.Skip("LOCAL_RAG_REPO is unset: set it to a clone of https://github.com/13W/local-rag to run this test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; local-rag's hooks are node scripts")
	}
	e := newTestEnv(t, map[string]*gittest.Repo{"local-rag": {Dir: dir}})
	ctx := context.Background()
	info, err := e.m.InstallFrom(ctx, extensions.Source{URL: e.url("local-rag"), Plugin: "local-rag"}, nil)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	logInstalled(t, "local-rag", info)
	if fi, err := os.Lstat(filepath.Join(info.Dir, "hooks", "shared", "session-start.mjs")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("hooks/shared/session-start.mjs must be copied into the package: %v %v", fi, err)
	}
	var start *extensions.Hook
	for i, h := range info.Hooks {
		if h.Event == "SessionStart" {
			start = &info.Hooks[i]
		}
	}
	if start == nil || start.Inactive != "" {
		t.Fatalf("SessionStart hook missing or inactive: %+v", info.Hooks)
	}
	e.enable(info.ID)
	// Only node's folder on PATH; MEMORY_SERVER_URL is not passed, so the
	// script's POST to its local server fails fast and is ignored.
	d := New(e.m, Config{HookPATH: func() string { return filepath.Dir(node) }})
	res := d.SessionStart(ctx, sessionStartEvent(t.TempDir()))
	if len(res.Blocks) != 1 || !strings.Contains(res.Blocks[0].Text, "Memory system active (local-rag)") {
		t.Fatalf("SessionStart = %+v", res)
	}
}
