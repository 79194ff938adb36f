package manifest

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

func TestConditionMatch(t *testing.T) {
	project := filepath.FromSlash("/home/u/proj")
	bash := func(cmd string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return b
	}
	file := func(rel string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"file_path": filepath.Join(project, filepath.FromSlash(rel))})
		return b
	}
	tests := []struct {
		cond, tool, claude string
		input              json.RawMessage
		want               bool
	}{
		{"", "read_file", "Read", nil, true},
		{"Bash", "run_command", "Bash", bash("ls"), true},
		{"run_command", "run_command", "Bash", bash("ls"), true},
		{"Bash", "read_file", "Read", file("a"), false},
		{"Bash(git commit:*)", "run_command", "Bash", bash("git commit -m 'x'"), true},
		{"Bash(git commit:*)", "run_command", "Bash", bash("git commit"), true},
		{"Bash(git commit:*)", "run_command", "Bash", bash("git committer"), false},
		{"Bash(git commit:*)", "run_command", "Bash", bash("git status"), false},
		{"Bash(git push *)", "run_command", "Bash", bash("go test ./... && git push origin main"), true},
		{"Bash(git push *)", "run_command", "Bash", bash("FOO=bar git push"), true},
		{"Bash(git push *)", "run_command", "Bash", bash("git push"), true},
		{"Bash(git push *)", "run_command", "Bash", bash("echo 'git push x'"), false},
		{"Bash(rm -rf *)", "run_command", "Bash", bash("cd build; rm -rf out"), true},
		{"Bash(npm test)", "run_command", "Bash", bash("npm test"), true},
		{"Bash(npm test)", "run_command", "Bash", bash("npm test --watch"), false},
		{"Edit(src/**)", "edit_file", "Edit", file("src/a/b.go"), true},
		{"Edit(src/**)", "edit_file", "Edit", file("docs/a.md"), false},
		{"Read(./.env)", "read_file", "Read", file(".env"), true},
		{"Read(*.key)", "read_file", "Read", file("certs/server.key"), true},
		{"Write(//etc/**)", "write_file", "Write", json.RawMessage(`{"file_path":"/etc/passwd"}`), true},
		{"Edit(src/**)", "edit_file", "Edit", json.RawMessage(`{"file_path":"/elsewhere/src/a.go"}`), false},
	}
	for _, tt := range tests {
		c, err := CompileCondition(tt.cond)
		if err != nil {
			t.Fatalf("%q: %v", tt.cond, err)
		}
		if got := c.Match(tt.tool, tt.claude, tt.input, project); got != tt.want {
			t.Errorf("%q on %s %s = %v, want %v", tt.cond, tt.claude, tt.input, got, tt.want)
		}
	}
}

func TestConditionRejectsWhatItCannotRead(t *testing.T) {
	for _, bad := range []string{"tool_input.command matches 'git push'", "Bash(", "Edit([)"} {
		if _, err := CompileCondition(bad); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}

func TestLoadIfAndAsync(t *testing.T) {
	root := writeTree(t, t.TempDir(), map[string]string{
		".claude-plugin/plugin.json": `{"name": "sg"}`,
		"hooks/hooks.json": `{"hooks": {
			"PostToolUse": [{"matcher": "Bash", "hooks": [
				{"type": "command", "command": "review", "if": "Bash(git commit:*)"},
				{"type": "command", "command": "review", "if": "Bash(git push:*)"},
				{"type": "command", "command": "review", "if": "Bash(gt submit:*)", "asyncRewake": true},
				{"type": "command", "command": "lint", "if": "tool_input.command matches 'x'"}]}],
			"Stop": [{"hooks": [{"type": "command", "command": "review", "if": "Bash(x)"}]}]}}`,
	})
	pkg := mustLoad(t, root)
	if len(pkg.Hooks) != 5 {
		t.Fatalf("hooks = %+v; one script under several conditions is several hooks", pkg.Hooks)
	}
	if pkg.Hooks[0].If != "Bash(git commit:*)" || pkg.Hooks[1].If != "Bash(git push:*)" || pkg.Hooks[0].Inactive != "" {
		t.Errorf("conditions lost: %+v", pkg.Hooks[:2])
	}
	if pkg.Hooks[2].Inactive != asyncReason {
		t.Errorf("an async hook must be inactive with its reason: %+v", pkg.Hooks[2])
	}
	if pkg.Hooks[3].If != "" || pkg.Hooks[4].If != "" {
		t.Errorf("unreadable or misplaced conditions must be dropped (and noted): %+v", pkg.Hooks[3:])
	}
	for _, want := range []string{"it runs for every call its matcher matches", `"if" applies to tool events only`} {
		if !hasDiagnostic(pkg, want) {
			t.Errorf("missing diagnostic %q in %q", want, pkg.Diagnostics)
		}
	}
	if HooksHash(pkg.Hooks[:1]) == HooksHash([]Hook{{Event: pkg.Hooks[0].Event, Matcher: "Bash", Argv: pkg.Hooks[0].Argv}}) {
		t.Error("the condition must be part of what the user trusts")
	}
}
