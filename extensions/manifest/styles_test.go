package manifest

import (
	"strings"
	"testing"
)

// The shapes are those of Claude Code's documentation and of real style
// files: full front matter, none at all (the file stem names it), a
// plain-lines header, a manifest path to one file and to a folder.
func TestLoadOutputStyles(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "x", "outputStyles": ["./styles/teacher.md", "more"]}`,
		"output-styles/terse.md": "---\nname: Terse Engineer\ndescription: Short answers, code first\n" +
			"keep-coding-instructions: true\n---\n\n# Terse\n\nAnswer in as few words as the task allows.\n",
		"output-styles/sub/bare.md":   "You are a patient writing assistant.\n",
		"output-styles/plain.md":      "---\ndescription: Use when: writing docs\nkeep-coding-instructions: false\n---\nWrite docs.\n",
		"output-styles/notes.txt":     "not a style",
		"styles/teacher.md":           "---\nname: teacher\nforce-for-plugin: true\n---\nExplain as you go.\n",
		"more/second-terse.md":        "---\nname: terse engineer\n---\nA second one.\n",
		"output-styles/zz-empty.md":   "---\nname: empty\n---\n",
		"output-styles/zz-colon.md":   "---\nname: a:b\n---\nBody.\n",
		"output-styles/zz-keep.md":    "---\nkeep-coding-instructions: sometimes\n---\nBody.\n",
		"output-styles/zz-default.md": "---\nname: Default\n---\nBody.\n",
		"output-styles/zz-open.md":    "---\nname: open\nBody without a closing line.\n",
	})
	pkg := mustLoad(t, root)
	var names []string
	for _, s := range pkg.OutputStyles {
		names = append(names, s.Name)
	}
	if got, want := strings.Join(names, ","), "plain,bare,Terse Engineer,teacher"; got != want {
		t.Fatalf("styles %q, want %q; diagnostics %q", got, want, pkg.Diagnostics)
	}
	plain, bare, terse, teacher := pkg.OutputStyles[0], pkg.OutputStyles[1], pkg.OutputStyles[2], pkg.OutputStyles[3]
	if !terse.KeepCodingInstructions || terse.Description != "Short answers, code first" || terse.Path != "output-styles/terse.md" ||
		terse.Body != "# Terse\n\nAnswer in as few words as the task allows." {
		t.Errorf("terse = %+v", terse)
	}
	if bare.KeepCodingInstructions || bare.Description != "" || bare.Body != "You are a patient writing assistant." || bare.Path != "output-styles/sub/bare.md" {
		t.Errorf("no front matter = %+v", bare)
	}
	if plain.KeepCodingInstructions || plain.Description != "Use when: writing docs" {
		t.Errorf("plain header = %+v", plain)
	}
	if teacher.Path != "styles/teacher.md" || teacher.Body != "Explain as you go." {
		t.Errorf("manifest path = %+v", teacher)
	}
	for _, want := range []string{
		"skipped output style output-styles/zz-empty.md: its body (the style's instructions) is empty",
		`skipped output style output-styles/zz-colon.md: "a:b" is not a usable output style name`,
		`skipped output style output-styles/zz-keep.md: keep-coding-instructions is "sometimes"; write true or false`,
		`skipped output style output-styles/zz-default.md: "Default" is AgentDesk's own output style`,
		"skipped output style output-styles/zz-open.md: front matter is not closed",
		`output style "terse engineer" is defined twice (output-styles/terse.md and more/second-terse.md); using the first`,
		`output style "teacher" asks to be forced on (force-for-plugin): not done`,
	} {
		if !hasDiagnostic(pkg, want) {
			t.Errorf("missing diagnostic %q in %q", want, pkg.Diagnostics)
		}
	}
	if hasDiagnostic(pkg, "declares outputStyles") {
		t.Errorf("output styles still reported as not run: %q", pkg.Diagnostics)
	}
}

func TestLoadOutputStylesRefusesAPathOutsideThePackage(t *testing.T) {
	for _, field := range []string{`"../elsewhere"`, `["/etc/styles"]`} {
		root := writeTree(t, t.TempDir(), map[string]string{".claude-plugin/plugin.json": `{"name": "x", "outputStyles": ` + field + `}`})
		if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "outputStyles path") {
			t.Errorf("outputStyles %s: err = %v", field, err)
		}
	}
	outside := writeTree(t, t.TempDir(), map[string]string{"secret.md": "the outside"})
	root := writeTree(t, t.TempDir(), map[string]string{".claude-plugin/plugin.json": `{"name": "x"}`})
	symlink(t, outside+"/secret.md", root+"/output-styles/leak.md")
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "output style output-styles/leak.md resolves outside the package") {
		t.Errorf("a style linked outside: err = %v", err)
	}
}

func TestLoadOutputStylesMissingPathIsANote(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{".claude-plugin/plugin.json": `{"name": "x", "outputStyles": "gone"}`})
	pkg := mustLoad(t, root)
	if len(pkg.OutputStyles) != 0 || !hasDiagnostic(pkg, "skipped outputStyles path gone: it does not exist") {
		t.Errorf("styles %+v, diagnostics %q", pkg.OutputStyles, pkg.Diagnostics)
	}
}

func TestLoadProjectOutputStyles(t *testing.T) {
	outside := writeTree(t, t.TempDir(), map[string]string{"secret.md": "the outside"})
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude/output-styles/reviewer.md": "---\ndescription: Reviews like a senior engineer\nkeep-coding-instructions: true\n---\nBe blunt.\n",
	})
	symlink(t, outside+"/secret.md", root+"/.claude/output-styles/leak.md")
	pkg, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.OutputStyles) != 1 || pkg.OutputStyles[0].Name != "reviewer" || !pkg.OutputStyles[0].KeepCodingInstructions ||
		pkg.OutputStyles[0].Path != ".claude/output-styles/reviewer.md" {
		t.Fatalf("project styles = %+v; diagnostics %q", pkg.OutputStyles, pkg.Diagnostics)
	}
	if !pkg.Declares() {
		t.Error("a project with only an output style declares nothing")
	}
	if !hasDiagnostic(pkg, "resolves outside the package") {
		t.Errorf("the link out of the project is not reported: %q", pkg.Diagnostics)
	}
}
