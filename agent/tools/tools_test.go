package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestSpecs checks every spec is a valid object schema whose required
// arguments are declared, and that names are unique and in a stable order.
func TestSpecs(t *testing.T) {
	s, _ := newTestSet(t, nil, Options{})
	var names []string
	for _, spec := range s.Specs() {
		names = append(names, spec.Name)
		if strings.TrimSpace(spec.Description) == "" {
			t.Errorf("%s has no description", spec.Name)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
			t.Fatalf("%s parameters are not JSON: %v", spec.Name, err)
		}
		if schema.Type != "object" {
			t.Errorf("%s parameters type = %q, want object", spec.Name, schema.Type)
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Errorf("%s requires undeclared argument %q", spec.Name, r)
			}
		}
	}
	want := []string{"read_file", "list_dir", "glob", "grep", "write_file", "edit_file", "run_command"}
	if !slices.Equal(names, want) {
		t.Errorf("spec names = %v, want %v", names, want)
	}
}

func TestDescribe(t *testing.T) {
	s, _ := newTestSet(t, nil, Options{})
	long := strings.Repeat("x", 200)
	tests := []struct {
		tool string
		args string
		want string
	}{
		{"read_file", `{"path":"src/x.go"}`, "read_file src/x.go"},
		{"read_file", `{"path":"src/x.go","offset":10,"limit":5}`, "read_file src/x.go (lines 10-14)"},
		{"read_file", `{"path":"src/x.go","offset":10}`, "read_file src/x.go (from line 10)"},
		{"read_file", `{}`, "read_file (invalid arguments)"},
		{"list_dir", ``, "list_dir ."},
		{"glob", `{"pattern":"**/*.go"}`, "glob **/*.go"},
		{"glob", `{"pattern":"*.go","path":"cmd"}`, "glob *.go in cmd"},
		{"grep", `{"pattern":"TODO","path":"src","glob":"*.go"}`, "grep TODO in src (*.go)"},
		{"write_file", `{"path":"a.txt","content":""}`, "write_file a.txt"},
		{"edit_file", `{"path":"a.txt","old_string":"a","new_string":"b"}`, "edit_file a.txt"},
		{"run_command", `{"command":"go test ./..."}`, "run_command go test ./..."},
		{"run_command", `{"command":"set -e\nmake"}`, "run_command set -e …"},
		{"run_command", `{"command":"` + long + `"}`, "run_command " + long[:120-len("run_command ")-1] + "…"},
		{"run_command", `not json`, "run_command (invalid arguments)"},
		{"rm_rf", `{}`, "rm_rf (unknown tool)"},
	}
	for _, tt := range tests {
		if got := s.Describe(tt.tool, json.RawMessage(tt.args)); got != tt.want {
			t.Errorf("Describe(%s, %s) = %q, want %q", tt.tool, tt.args, got, tt.want)
		}
	}
}

func TestReadOnlyPreviews(t *testing.T) {
	s, _ := newTestSet(t, nil, Options{})
	for _, name := range []string{"read_file", "list_dir", "glob", "grep"} {
		tool, _ := s.Lookup(name)
		raw := json.RawMessage(`{"path":"a.go","pattern":"x"}`)
		p, err := tool.Preview(raw)
		if err != nil {
			t.Fatalf("%s Preview: %v", name, err)
		}
		if p.Title != s.Describe(name, raw) {
			t.Errorf("%s preview title = %q, want the Describe line", name, p.Title)
		}
		if _, err := tool.Preview(json.RawMessage(`[1]`)); err == nil {
			t.Errorf("%s Preview accepted a JSON array", name)
		}
	}
}

func TestWithoutVariable(t *testing.T) {
	got := withoutVariable([]string{"A=1", apiKeyVariable + "=secret", "B=" + apiKeyVariable, apiKeyVariable + "X=2"}, apiKeyVariable)
	want := []string{"A=1", "B=" + apiKeyVariable, apiKeyVariable + "X=2"}
	if !slices.Equal(got, want) {
		t.Errorf("withoutVariable = %v, want %v", got, want)
	}
}

func TestKindsAndLookup(t *testing.T) {
	s, _ := newTestSet(t, nil, Options{})
	want := map[string]Kind{
		"read_file": ReadOnly, "list_dir": ReadOnly, "glob": ReadOnly, "grep": ReadOnly,
		"write_file": Edit, "edit_file": Edit, "run_command": Command,
	}
	for name, kind := range want {
		tool, ok := s.Lookup(name)
		if !ok {
			t.Fatalf("no %s tool", name)
		}
		if tool.Kind() != kind {
			t.Errorf("%s kind = %v, want %v", name, tool.Kind(), kind)
		}
	}
	if _, ok := s.Lookup("delete_everything"); ok {
		t.Error("Lookup found an unknown tool")
	}
}

func TestCallsAfterCloseFail(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "a\n"})
	s, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkResult(t, run(t, s, "read_file", map[string]any{"path": "a.txt"}), true, "cannot read a.txt")
}
