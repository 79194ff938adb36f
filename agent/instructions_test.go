package agent

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree writes files (path → text) under dir.
func tree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loaded lists the found files as paths relative to base, in prompt order.
func loaded(t *testing.T, base string, files []agentsFile) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		rel, _ := filepath.Rel(base, f.Path)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func TestInstructionsWalkOrder(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "p")
	tree(t, home, map[string]string{
		"CLAUDE.md":                 "home claude",
		".claude/CLAUDE.md":         "Claude Code's own user file: never read",
		"src/CLAUDE.local.md":       "src local",
		"src/p/AGENTS.md":           "agents",
		"src/p/CLAUDE.md":           "claude",
		"src/p/.claude/CLAUDE.md":   "dot claude",
		"src/p/CLAUDE.local.md":     "local",
		"src/p/sub/CLAUDE.md":       "a subfolder is not read at start",
		"src/p/.claude/settings.md": "not an instruction file",
	})
	got := loaded(t, home, findAgentsMD(project, home))
	want := []string{"CLAUDE.md", "src/CLAUDE.local.md", "src/p/AGENTS.md", "src/p/CLAUDE.md", "src/p/.claude/CLAUDE.md", "src/p/CLAUDE.local.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %q, want %q (outermost first, local last)", got, want)
	}
}

func TestInstructionsSymlinkedClaudeMDNotRead(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{"secret": "TOKEN=abc", "p/README.md": "readme"})
	project := filepath.Join(dir, "p")
	os.Symlink(filepath.Join(dir, "secret"), filepath.Join(project, "CLAUDE.md"))
	os.Symlink(filepath.Join(dir, "secret"), filepath.Join(project, "CLAUDE.local.md"))
	tree(t, dir, map[string]string{"elsewhere/CLAUDE.md": "OUTSIDE"})
	os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(project, ".claude"))
	if got := findAgentsMD(project, dir); len(got) != 0 {
		t.Fatalf("a symlinked CLAUDE.md, or one in a .claude linked out of the project, was read: %+v", got)
	}
	// A .claude linked to a folder inside the project is the project's own.
	os.Remove(filepath.Join(project, ".claude"))
	tree(t, project, map[string]string{".agents/CLAUDE.md": "INSIDE"})
	os.Symlink(".agents", filepath.Join(project, ".claude"))
	if got := loaded(t, project, findAgentsMD(project, dir)); len(got) != 1 || got[0] != ".claude/CLAUDE.md" {
		t.Fatalf("loaded %q, want .claude/CLAUDE.md through the in-project link", got)
	}
}

func TestInstructionsSameFileOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		link func(project string)
		want []string
	}{
		{"CLAUDE.md symlinks to AGENTS.md", func(p string) {
			tree(t, p, map[string]string{"AGENTS.md": "rules"})
			os.Symlink("AGENTS.md", filepath.Join(p, "CLAUDE.md"))
		}, []string{"AGENTS.md"}},
		{"AGENTS.md symlinks to CLAUDE.md", func(p string) {
			tree(t, p, map[string]string{"CLAUDE.md": "rules"})
			os.Symlink("CLAUDE.md", filepath.Join(p, "AGENTS.md"))
		}, []string{"CLAUDE.md"}},
		{"hard link", func(p string) {
			tree(t, p, map[string]string{"AGENTS.md": "rules"})
			os.Link(filepath.Join(p, "AGENTS.md"), filepath.Join(p, "CLAUDE.md"))
		}, []string{"CLAUDE.md"}},
		{"identical text", func(p string) {
			tree(t, p, map[string]string{"AGENTS.md": "rules", "CLAUDE.md": "rules"})
		}, []string{"CLAUDE.md"}},
		{"CLAUDE.md imports AGENTS.md", func(p string) {
			tree(t, p, map[string]string{"AGENTS.md": "rules", "CLAUDE.md": "@AGENTS.md\nmore"})
		}, []string{"AGENTS.md", "CLAUDE.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project := t.TempDir()
			tc.link(project)
			files := findAgentsMD(project, "")
			if got := loaded(t, project, files); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("loaded %q, want %q", got, tc.want)
			}
			if n := strings.Count(agentsSection(files), "rules"); n != 1 {
				t.Errorf("the text appears %d times, want once:\n%s", n, agentsSection(files))
			}
		})
	}
}

func TestInstructionsIdenticalTextNamesBoth(t *testing.T) {
	project := t.TempDir()
	tree(t, project, map[string]string{"AGENTS.md": "rules", "CLAUDE.md": "rules"})
	sec := agentsSection(findAgentsMD(project, ""))
	if !strings.Contains(sec, "CLAUDE.md (same text as "+filepath.Join(project, "AGENTS.md")+")") {
		t.Errorf("the one section should name both files:\n%s", sec)
	}
}

func TestInstructionsImports(t *testing.T) {
	outside := t.TempDir()
	tree(t, outside, map[string]string{"secret.md": "OUTSIDE"})
	home := t.TempDir()
	project := filepath.Join(home, "p")
	tree(t, home, map[string]string{
		"home.md": "HOME FILE",
		"p/CLAUDE.md": strings.Join([]string{
			"See @docs/a.md and @./docs/b.md, mail me at me@docs/c.md.",
			"Home: @~/home.md and @" + filepath.Join(outside, "secret.md") + " and @../home.md",
			"Absolute inside: @" + filepath.Join(project, "docs", "abs.md"),
			"Inline `@docs/span.md` is code, ``a ` @docs/span2.md`` too.",
			"```",
			"@docs/fenced.md",
			"```",
			"~~~~md",
			"@docs/tilde.md",
			"~~~~",
			"",
			"    @docs/indented.md",
			"",
			"- list item",
			"    - @docs/nested.md",
			"A missing @docs/none.md and @username are text; so is @@docs/a.md.",
			"Trailing punctuation: @docs/punct.md.",
			`Escaped: @docs/with\ space.md`,
			"Binary @docs/bin.md and folder @docs",
		}, "\n"),
		"p/docs/a.md":          "A @b.md",
		"p/docs/b.md":          "B",
		"p/docs/c.md":          "C",
		"p/docs/abs.md":        "ABS",
		"p/docs/span.md":       "SPAN",
		"p/docs/span2.md":      "SPAN2",
		"p/docs/fenced.md":     "FENCED",
		"p/docs/tilde.md":      "TILDE",
		"p/docs/indented.md":   "INDENTED",
		"p/docs/nested.md":     "NESTED",
		"p/docs/punct.md":      "PUNCT",
		"p/docs/with space.md": "SPACE",
		"p/docs/bin.md":        "BIN\x00",
	})
	os.Symlink(outside, filepath.Join(project, "docs", "out"))
	os.WriteFile(filepath.Join(project, "docs", "via.md"), []byte("@out/secret.md"), 0o644)
	os.WriteFile(filepath.Join(project, "CLAUDE.local.md"), []byte("@docs/via.md"), 0o644)
	got := loaded(t, project, findAgentsMD(project, home))
	want := []string{"docs/a.md", "docs/b.md", "docs/abs.md", "docs/nested.md", "docs/punct.md", "docs/with space.md", "CLAUDE.md", "docs/via.md", "CLAUDE.local.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %q,\nwant   %q", got, want)
	}
}

func TestInstructionsImportDepthAndCycles(t *testing.T) {
	project := t.TempDir()
	files := map[string]string{"CLAUDE.md": "@d1.md"}
	for i := 1; i <= 7; i++ {
		files["d"+string(rune('0'+i))+".md"] = "level @d" + string(rune('0'+i+1)) + ".md"
	}
	files["d3.md"] = "level @d4.md @CLAUDE.md @d1.md" // a cycle back up
	tree(t, project, files)
	got := loaded(t, project, findAgentsMD(project, ""))
	want := []string{"d5.md", "d4.md", "d3.md", "d2.md", "d1.md", "CLAUDE.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %q, want %q (5 hops, each file once)", got, want)
	}
}

func TestInstructionsImportsNotFollowedInAgentsMDOrAncestors(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "p")
	tree(t, home, map[string]string{
		"src/CLAUDE.md":   "@p/x.md @other.md",
		"src/other.md":    "OTHER",
		"src/p/AGENTS.md": "@y.md",
		"src/p/x.md":      "X",
		"src/p/y.md":      "Y",
	})
	got := loaded(t, home, findAgentsMD(project, home))
	want := []string{"src/p/x.md", "src/CLAUDE.md", "src/p/AGENTS.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %q, want %q: an ancestor may import a file inside the project, not one beside it; AGENTS.md has no imports", got, want)
	}
}

func TestInstructionsImportsShareTheBudget(t *testing.T) {
	project := t.TempDir()
	tree(t, project, map[string]string{
		"CLAUDE.md": "@big.md @small.md",
		"big.md":    strings.Repeat("x", MaxInstructionBytes),
		"small.md":  "SMALL",
	})
	files := findAgentsMD(project, "")
	total := 0
	for _, f := range files {
		total += len(f.Text)
	}
	if got := loaded(t, project, files); total != MaxInstructionBytes || len(files) != 3 || !files[0].Cut || files[2].Cut {
		t.Errorf("%d bytes in %q (big cut: %v), want CLAUDE.md whole and the big import cut to the budget", total, got, len(files) > 0 && files[0].Cut)
	}
}

func TestImportPathsTokens(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"@a.md", []string{"a.md"}},
		{"x@a.md", nil},
		{"foo@bar.com @b", []string{"b"}},
		{" @c.md\r", []string{"c.md"}},
		{"\t@a.md", nil}, // an indented code block
		{"`@a` @b", []string{"b"}},
		{"```\n@a\n```\n@b", []string{"b"}},
		{"````\n```\n@a\n````\n@b", []string{"b"}},
		{"text\n    @a", []string{"a"}}, // a paragraph's lazy continuation, not code
		{"@", nil},
	} {
		if got := importPaths(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("importPaths(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
