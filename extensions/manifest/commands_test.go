package manifest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadCommands(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "x", "commands": ["./extra/deploy.md", "more"]}`,
		"commands/review.md": "---\ndescription: Review a pull request\nargument-hint: [pr-number] [priority]\n" +
			"allowed-tools: Bash(git diff:*), Read\nmodel: claude-3-haiku\n---\n\nReview PR #$1 with priority $2.\n",
		"commands/git/commit.md":     "---\ndescription: \"Commit: staged files\"\nargument-hint: [message]\nallowed-tools: [Bash, Read]\n---\nCommit with $ARGUMENTS\n",
		"commands/plain.md":          "No front matter at all, ${CLAUDE_PLUGIN_ROOT}.\r\n",
		"commands/notes.txt":         "not a command",
		"commands/empty.md":          "---\ndescription: nothing\n---\n",
		"commands/bad name.md":       "text",
		"commands/open.md":           "---\ndescription: never closed\n",
		"extra/deploy.md":            "---\ndescription: Deploy: now\n---\nDeploy.\n",
		"more/git/commit.md":         "A second /commit.\n",
		"more/status.md":             "Status.\n",
		"commands/review.md.bak.txt": "ignored",
	})
	pkg := mustLoad(t, root)
	var names []string
	for _, c := range pkg.Commands {
		names = append(names, c.Name)
	}
	if want := []string{"commit", "plain", "review", "deploy", "status"}; !slices.Equal(names, want) {
		t.Fatalf("commands %q, want %q; diagnostics %q", names, want, pkg.Diagnostics)
	}
	review := pkg.Commands[2]
	if review.Description != "Review a pull request" || review.ArgumentHint != "[pr-number] [priority]" ||
		!slices.Equal(review.AllowedTools, []string{"Bash(git diff:*)", "Read"}) ||
		review.Body != "Review PR #$1 with priority $2." || review.Path != "commands/review.md" {
		t.Errorf("review = %+v", review)
	}
	commit := pkg.Commands[0]
	if commit.Description != "Commit: staged files" || commit.ArgumentHint != "[message]" || !slices.Equal(commit.AllowedTools, []string{"Bash", "Read"}) {
		t.Errorf("commit = %+v", commit)
	}
	if plain := pkg.Commands[1]; plain.Body != "No front matter at all, ${CLAUDE_PLUGIN_ROOT}." || plain.Description != "" {
		t.Errorf("plain = %+v", plain)
	}
	if deploy := pkg.Commands[3]; deploy.Description != "Deploy: now" {
		t.Errorf("deploy (not strict YAML) = %+v", deploy)
	}
	for _, want := range []string{
		`command /review asks for model "claude-3-haiku": ignored`,
		"skipped command commands/empty.md: its body is empty",
		`skipped command commands/bad name.md: "bad name" is not a usable command name`,
		"skipped command commands/open.md: front matter is not closed",
		"command /commit is defined twice (commands/git/commit.md and more/git/commit.md); using the first",
	} {
		if !hasDiagnostic(pkg, want) {
			t.Errorf("missing diagnostic %q in %q", want, pkg.Diagnostics)
		}
	}
	if hasDiagnostic(pkg, "declares commands") {
		t.Errorf("commands still reported as not supported: %q", pkg.Diagnostics)
	}
}

func TestLoadCommandPathProblems(t *testing.T) {
	tests := []struct {
		name, commands string
		files          map[string]string
		wantErr, note  string
	}{
		{name: "missing path is a note", commands: `"nope"`, note: "skipped commands path nope: it does not exist"},
		{name: "wrong type is a note", commands: `{"a": 1}`, note: `ignored "commands": not a path or a list of paths`},
		{name: "traversal fails", commands: `"../x.md"`, wantErr: "contains a '..' component"},
		{name: "absolute fails", commands: `["/etc/passwd"]`, wantErr: "absolute path"},
		{name: "no markdown is a note", commands: `"c"`, files: map[string]string{"c/a.toml": "x"}, note: "skipped commands path c: no .md files"},
		{name: "too big is a note", commands: `"big.md"`, files: map[string]string{"big.md": strings.Repeat("x", MaxCommandBytes+1)},
			note: "skipped command big.md: big.md is larger than 256 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{".claude-plugin/plugin.json": `{"name": "x", "commands": ` + tt.commands + `}`}
			for k, v := range tt.files {
				files[k] = v
			}
			pkg, err := Load(writeTree(t, t.TempDir(), files))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !hasDiagnostic(pkg, tt.note) {
				t.Errorf("missing %q in %q", tt.note, pkg.Diagnostics)
			}
		})
	}
}

func TestLoadCommandSymlinkOutsideFails(t *testing.T) {
	outside := writeTree(t, t.TempDir(), map[string]string{"secret.md": "secret"})
	root := writeTree(t, t.TempDir(), map[string]string{".claude-plugin/plugin.json": `{"name": "x"}`})
	symlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "commands", "leak.md"))
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "commands/leak.md resolves outside the package") {
		t.Fatalf("err = %v", err)
	}
}
