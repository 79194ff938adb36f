package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
)

type extraTool struct{ name string }

func (e extraTool) Spec() llm.ToolSpec { return llm.ToolSpec{Name: e.name, Description: "extra"} }
func (extraTool) Kind() tools.Kind     { return tools.Command }
func (extraTool) Preview(json.RawMessage) (tools.Preview, error) {
	return tools.Preview{Title: "extra"}, nil
}
func (extraTool) Run(context.Context, json.RawMessage) tools.Result { return tools.Result{Text: "ran"} }
func (e extraTool) Describe(args json.RawMessage) string            { return e.name + " described\nsecond line" }

func TestToolboxNarrowsBuiltinsAndAddsExtras(t *testing.T) {
	set, err := tools.New(t.TempDir(), tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	box := &toolbox{set: set, only: map[string]bool{"read_file": true, "grep": true}, extra: []tools.Tool{extraTool{"task"}}}

	var names []string
	for _, spec := range box.Specs() {
		names = append(names, spec.Name)
	}
	if got, want := strings.Join(names, ","), "read_file,grep,task"; got != want {
		t.Fatalf("specs = %s, want %s", got, want)
	}
	if _, ok := box.Lookup("run_command"); ok {
		t.Fatal("a built-in outside the allowlist was found")
	}
	if _, ok := box.Lookup("task"); !ok {
		t.Fatal("the extra tool was not found")
	}
	if got := box.Describe("task", json.RawMessage(`{}`)); got != "task described …" {
		t.Fatalf("Describe(task) = %q", got)
	}
	if got := box.Describe("read_file", json.RawMessage(`{"path":"a.go"}`)); !strings.Contains(got, "a.go") {
		t.Fatalf("Describe(read_file) = %q", got)
	}

	all := &toolbox{set: set}
	if len(all.Specs()) != len(set.Specs()) {
		t.Fatalf("an unnarrowed toolbox offers %d tools, the set %d", len(all.Specs()), len(set.Specs()))
	}
}
