package tools

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestSpecSchemas pins what models receive: each tool's argument names,
// types and required set (as hand-written before the schemas were
// generated), closed objects, and none of the $-keywords a generator adds
// that tool-calling APIs and local servers do not want.
func TestSpecSchemas(t *testing.T) {
	want := map[string]struct {
		types    map[string]string
		required []string
	}{
		"read_file":   {map[string]string{"path": "string", "offset": "integer", "limit": "integer"}, []string{"path"}},
		"list_dir":    {map[string]string{"path": "string"}, nil},
		"glob":        {map[string]string{"pattern": "string", "path": "string"}, []string{"pattern"}},
		"grep":        {map[string]string{"pattern": "string", "path": "string", "glob": "string", "case_insensitive": "boolean"}, []string{"pattern"}},
		"write_file":  {map[string]string{"path": "string", "content": "string"}, []string{"path", "content"}},
		"edit_file":   {map[string]string{"path": "string", "old_string": "string", "new_string": "string", "replace_all": "boolean"}, []string{"path", "old_string", "new_string"}},
		"run_command": {map[string]string{"command": "string", "timeout_seconds": "number"}, []string{"command"}},
	}
	s, _ := newTestSet(t, nil, Options{})
	for _, spec := range s.Specs() {
		t.Run(spec.Name, func(t *testing.T) {
			var schema map[string]any
			if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
				t.Fatal(err)
			}
			for key := range schema {
				if strings.HasPrefix(key, "$") {
					t.Errorf("schema has %s", key)
				}
			}
			if schema["additionalProperties"] != false {
				t.Errorf("additionalProperties = %v, want false", schema["additionalProperties"])
			}
			props, _ := schema["properties"].(map[string]any)
			types := map[string]string{}
			for name, p := range props {
				prop := p.(map[string]any)
				types[name], _ = prop["type"].(string)
				if d, _ := prop["description"].(string); d == "" || name == "path" && !strings.HasSuffix(d, pathNote) {
					t.Errorf("%s has description %q", name, d)
				}
			}
			w := want[spec.Name]
			if !maps.Equal(types, w.types) {
				t.Errorf("argument types = %v, want %v", types, w.types)
			}
			var required []string
			for _, r := range asList(schema["required"]) {
				required = append(required, r.(string))
			}
			if !slices.Equal(required, w.required) {
				t.Errorf("required = %v, want %v", required, w.required)
			}
		})
	}
}

func TestRunCommandTimeoutBounds(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Minimum, Maximum float64
		}
	}
	if err := json.Unmarshal(schemaOf(runCommandArgs{}), &schema); err != nil {
		t.Fatal(err)
	}
	got := schema.Properties["timeout_seconds"]
	if got.Minimum != 1 || got.Maximum != MaxCommandTimeout.Seconds() {
		t.Errorf("timeout_seconds bounds = [%v, %v], want [1, %v]", got.Minimum, got.Maximum, MaxCommandTimeout.Seconds())
	}
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}
