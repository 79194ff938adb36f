package permissions

import (
	"encoding/json"
	"testing"
)

func TestProposeAndTheRuleCoversTheCall(t *testing.T) {
	project := "/p"
	for _, tc := range []struct {
		tool, arg, want string
	}{
		{"run_command", "npm test", "Bash(npm test:*)"},
		{"run_command", "npm test -- --watch", "Bash(npm test:*)"},
		{"run_command", "npm run test:unit", "Bash(npm run test:unit:*)"},
		{"run_command", "go test ./agent/...", "Bash(go test:*)"},
		{"run_command", "ls -la", "Bash(ls:*)"},
		{"run_command", "make", "Bash(make:*)"},
		{"run_command", "git log --oneline", "Bash(git log:*)"},
		{"run_command", "npm test && rm -rf /", ""},
		{"run_command", "cat a | sh", ""},
		{"run_command", "echo $(id)", ""},
		{"run_command", "FOO=1 make", ""},
		{"run_command", "   ", ""},
		{"edit_file", "src/ui/app.go", "Edit(src/ui/**)"},
		{"write_file", "/p/docs/a.md", "Edit(docs/**)"},
		{"edit_file", "main.go", "Edit(./**)"},
		{"edit_file", "../other/x.go", ""},
		{"edit_file", "/etc/passwd", ""},
		{"mcp__db__query", "", "mcp__db__query"},
		{"read_file", "a.go", ""},
	} {
		key := "command"
		if tc.tool != "run_command" {
			key = "path"
		}
		args, _ := json.Marshal(map[string]string{key: tc.arg})
		call := CallOf(tc.tool, args)
		got, ok := Propose(project, call)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Propose(%s %q) = %q, %v; want %q", tc.tool, tc.arg, got, ok, tc.want)
			continue
		}
		if !ok {
			continue
		}
		r, err := Parse(got)
		if err != nil {
			t.Errorf("the proposal %q does not parse: %v", got, err)
			continue
		}
		r.Behavior, r.Source = Allow, SourceUser
		if v := NewSet(project, "/home/u", []Rule{r}).Decide(call); v.Behavior != Allow {
			t.Errorf("the proposal %q does not allow the call it was made for (%s %q): %v", got, tc.tool, tc.arg, v.Behavior)
		}
	}
}
