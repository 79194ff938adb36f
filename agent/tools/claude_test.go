package tools

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

func TestClaudeInputBothWays(t *testing.T) {
	project := filepath.FromSlash("/home/u/proj")
	tests := []struct {
		tool, ours, claude string
	}{
		{"run_command", `{"command":"go test ./...","timeout_seconds":30}`, `{"command":"go test ./...","timeout":30000}`},
		{"write_file", `{"path":"src/a.go","content":"x"}`, `{"content":"x","file_path":"` + filepath.ToSlash(filepath.Join(project, "src", "a.go")) + `"}`},
		{"edit_file", `{"path":"a.go","old_string":"a","new_string":"b","replace_all":true}`,
			`{"file_path":"` + filepath.ToSlash(filepath.Join(project, "a.go")) + `","new_string":"b","old_string":"a","replace_all":true}`},
		{"read_file", `{"path":"a.go","offset":3,"limit":10}`, `{"file_path":"` + filepath.ToSlash(filepath.Join(project, "a.go")) + `","limit":10,"offset":3}`},
		{"grep", `{"pattern":"TODO","case_insensitive":true}`, `{"-i":true,"pattern":"TODO"}`},
		{"list_dir", `{"path":"src"}`, `{"path":"` + filepath.ToSlash(filepath.Join(project, "src")) + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			if got := ToClaudeInput(tt.tool, json.RawMessage(tt.ours), project); !sameJSON(t, got, tt.claude) {
				t.Errorf("ToClaudeInput = %s, want %s", got, tt.claude)
			}
			if back := FromClaudeInput(tt.tool, json.RawMessage(tt.claude), project); !sameJSON(t, back, tt.ours) {
				t.Errorf("FromClaudeInput = %s, want %s", back, tt.ours)
			}
		})
	}
}

func TestClaudeInputOutsideTheProjectStaysAbsolute(t *testing.T) {
	got := FromClaudeInput("write_file", json.RawMessage(`{"file_path":"/etc/passwd","content":"x"}`), "/home/u/proj")
	if !sameJSON(t, got, `{"path":"/etc/passwd","content":"x"}`) {
		t.Fatalf("got %s: a path outside the project must reach the tool's own check unchanged", got)
	}
	if got := ToClaudeInput("glob", json.RawMessage(`not json`), "/p"); string(got) != "{}" {
		t.Fatalf("bad arguments = %s, want {}", got)
	}
}

func TestClaudeNames(t *testing.T) {
	for ours, claude := range map[string]string{"run_command": "Bash", "write_file": "Write", "edit_file": "Edit",
		"read_file": "Read", "glob": "Glob", "grep": "Grep", "list_dir": "LS", "unknown": ""} {
		if got := ClaudeName(ours); got != claude {
			t.Errorf("ClaudeName(%s) = %q, want %q", ours, got, claude)
		}
	}
}

func sameJSON(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("invalid JSON %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatalf("invalid want %s: %v", want, err)
	}
	return reflect.DeepEqual(a, b)
}
