package gittest

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// Single makes a repository whose main branch (and HEAD) holds files.
func Single(t testing.TB, files map[string]File) *Repo {
	t.Helper()
	r := NewRepo(t)
	r.Commit(t, "main", "initial", files)
	r.SetHEAD(t, "main")
	return r
}

// ReadDir reads the files under root (a plugin in testdata) into
// repository files, executable bits kept.
func ReadDir(t testing.TB, root string) map[string]File {
	t.Helper()
	files := map[string]File{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = File{Body: string(body), Mode: mode}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Plugin builds a small valid plugin's files: name, one SessionStart
// hook running hookScript (none when ""), and a skill when skill is set.
func Plugin(name, hookScript string, skill bool) map[string]File {
	files := map[string]File{
		".codex-plugin/plugin.json": {Body: `{"name":"` + name + `","version":"1.0.0","description":"test plugin"}`},
	}
	if hookScript != "" {
		files["hooks/hooks.json"] = File{Body: `{"hooks":{"` + lifecycle.EventSessionStart + `":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh"}]}]}}`}
		files["hooks/run.sh"] = File{Body: "#!/bin/sh\n" + hookScript + "\n", Mode: 0o755}
	}
	if skill {
		files["skills/"+name+"-skill/SKILL.md"] = File{Body: "---\nname: " + name + "-skill\ndescription: does things\n---\nbody\n"}
	}
	return files
}

// With returns files with extra added (extra wins).
func With(files, extra map[string]File) map[string]File {
	out := maps.Clone(files)
	maps.Copy(out, extra)
	return out
}

// Tree lists what is on disk under each root/sub, as slash paths relative
// to root, at most three levels below root (tests check that a store,
// its staging and data folders hold exactly what they should).
func Tree(root string, subs ...string) []string {
	var out []string
	for _, sub := range subs {
		filepath.WalkDir(filepath.Join(root, sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			if strings.Count(rel, string(filepath.Separator)) <= 2 && rel != sub {
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
	}
	return out
}

// MarketplacePlugin is a hook-free plugin as a large marketplace holds
// them: two skills, an agent and a command, each with a description (the
// benchmarks' whole-marketplace fixture).
func MarketplacePlugin(name string) map[string]File {
	desc := "Helps with " + name + " work: reviews, plans and explains the parts of a project that " + name + " covers, step by step."
	files := map[string]File{
		".claude-plugin/plugin.json":     {Body: `{"name":"` + name + `","version":"1.0.0","description":"` + desc + `"}`},
		"agents/" + name + "-expert.md":  {Body: "---\nname: " + name + "-expert\ndescription: " + desc + "\n---\nYou are an expert in " + name + ".\n"},
		"commands/" + name + "-check.md": {Body: "---\ndescription: " + desc + "\n---\nCheck the project for " + name + " issues: $ARGUMENTS\n"},
	}
	for _, s := range []string{"-basics", "-patterns"} {
		files["skills/"+name+s+"/SKILL.md"] = File{Body: "---\nname: " + name + s + "\ndescription: " + desc + "\n---\n# " + name + s + "\n\nBody.\n"}
	}
	return files
}
