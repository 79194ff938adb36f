package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/tools"
)

func descriptor(name string, schemaBytes int, readOnly bool) lifecycle.ToolDescriptor {
	schema := `{"type":"object","description":"` + strings.Repeat("x", schemaBytes) + `"}`
	return lifecycle.ToolDescriptor{Name: name, Description: "d", Schema: json.RawMessage(schema), ReadOnlyHint: readOnly, Label: "Ext › srv: " + name,
		Call: func(context.Context, json.RawMessage) lifecycle.ToolResult {
			return lifecycle.ToolResult{Text: "called " + name}
		}}
}

func TestMCPToolsFitTheirBudgetAndAllowlist(t *testing.T) {
	descs := []lifecycle.ToolDescriptor{descriptor("a", 100, false), descriptor("big", 1000, false), descriptor("c", 100, false)}
	fit, left := fitMCPTools(descs, nil, 600)
	var names []string
	for _, tl := range fit {
		names = append(names, tl.Spec().Name)
	}
	if !slices.Equal(names, []string{"a", "c"}) || !slices.Equal(left, []string{"big"}) {
		t.Fatalf("fit %q, left %q", names, left)
	}
	if fit, _ := fitMCPTools(descs, map[string]bool{"c": true}, 1<<20); len(fit) != 1 || fit[0].Spec().Name != "c" {
		t.Fatalf("allowlist not applied: %d tools", len(fit))
	}
}

func TestMCPToolAlwaysAsksAndWordsItsRisk(t *testing.T) {
	fit, _ := fitMCPTools([]lifecycle.ToolDescriptor{descriptor("w", 0, false), descriptor("r", 0, true)}, nil, 1<<20)
	for _, tl := range fit {
		if tl.Kind() != tools.Command {
			t.Errorf("%s: kind %v, want Command (asks unless always allowed)", tl.Spec().Name, tl.Kind())
		}
		p, err := tl.Preview(json.RawMessage(`{"q":"x"}`))
		if err != nil || p.Command != "" || !strings.Contains(p.Detail, `"q": "x"`) {
			t.Errorf("%s preview %+v, %v (an empty Command makes 'always' cover the tool)", tl.Spec().Name, p, err)
		}
		if _, err := tl.Preview(json.RawMessage(`[1]`)); err == nil {
			t.Errorf("%s accepted non-object arguments", tl.Spec().Name)
		}
		if r := tl.Run(context.Background(), json.RawMessage(`{}`)); r.Text != "called "+tl.Spec().Name {
			t.Errorf("run = %+v", r)
		}
	}
	w, _ := fit[0].Preview(json.RawMessage(`{}`))
	r, _ := fit[1].Preview(json.RawMessage(`{}`))
	if !strings.Contains(w.Detail, "may change") || !strings.Contains(r.Detail, "says this tool only reads") {
		t.Errorf("risk wording: %q / %q", w.Detail, r.Detail)
	}
	if grantKey(tools.Command, "w", w) == grantKey(tools.Command, "r", r) {
		t.Error("'always' for one MCP tool would cover another")
	}
}
