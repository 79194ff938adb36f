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
	fit, deferred := fitMCPTools(descs, nil, 600)
	var names, waiting []string
	for _, tl := range fit {
		names = append(names, tl.Spec().Name)
	}
	for _, d := range deferred {
		waiting = append(waiting, d.Name)
	}
	if !slices.Equal(names, []string{"a", "c"}) || !slices.Equal(waiting, []string{"big"}) {
		t.Fatalf("fit %q, deferred %q", names, waiting)
	}
}

func TestMCPToolsFollowAChildsAllowlist(t *testing.T) {
	const srv = "mcp__plugin_fx_db"
	descs := []lifecycle.ToolDescriptor{descriptor(srv+"__query", 10, true), descriptor(srv+"__drop", 10, false),
		descriptor("mcp__plugin_fx_web__fetch", 10, true)}
	tests := []struct {
		name        string
		allow, deny []string
		want        []string
	}{
		{name: "no list: all, as in Claude Code", want: []string{srv + "__query", srv + "__drop", "mcp__plugin_fx_web__fetch"}},
		{name: "built-ins only: none", allow: []string{"Read", "Grep"}},
		{name: "one tool by name", allow: []string{"Read", srv + "__query"}, want: []string{srv + "__query"}},
		{name: "a server's prefix", allow: []string{srv}, want: []string{srv + "__query", srv + "__drop"}},
		{name: "a prefix is no substring match", allow: []string{"mcp__plugin_fx_d"}},
		{name: "disallowed wins", allow: []string{srv}, deny: []string{srv + "__drop"}, want: []string{srv + "__query"}},
		{name: "disallowed from everything", deny: []string{"mcp__plugin_fx_web"}, want: []string{srv + "__query", srv + "__drop"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			only, unavailable, _ := childTools(tc.allow, tc.deny)
			fit, _ := fitMCPTools(descs, only, 1<<20)
			var names []string
			for _, tl := range fit {
				names = append(names, tl.Spec().Name)
			}
			if !slices.Equal(names, tc.want) || len(unavailable) != 0 {
				t.Errorf("tools %q (unavailable %q), want %q", names, unavailable, tc.want)
			}
		})
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
