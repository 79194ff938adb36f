package manifest

import (
	"slices"
	"strings"
	"testing"
)

func TestExpandArgv(t *testing.T) {
	v := Vars{PluginRoot: "/store/p/abc", PluginData: "/data/p", ProjectDir: "/work/proj"}
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"braced root", []string{"node", "${CLAUDE_PLUGIN_ROOT}/hooks/a.js"}, []string{"node", "/store/p/abc/hooks/a.js"}},
		{"bare root", []string{"$CLAUDE_PLUGIN_ROOT/a.js"}, []string{"/store/p/abc/a.js"}},
		{"all root spellings", []string{"${PLUGIN_ROOT}", "$AGENTDESK_PLUGIN_ROOT"}, []string{"/store/p/abc", "/store/p/abc"}},
		{"data spellings", []string{"--data=${CLAUDE_PLUGIN_DATA}", "$PLUGIN_DATA/x", "${AGENTDESK_PLUGIN_DATA}"},
			[]string{"--data=/data/p", "/data/p/x", "/data/p"}},
		{"project", []string{"--cwd", "$CLAUDE_PROJECT_DIR"}, []string{"--cwd", "/work/proj"}},
		{"several in one token", []string{"${CLAUDE_PLUGIN_ROOT}:${CLAUDE_PROJECT_DIR}"}, []string{"/store/p/abc:/work/proj"}},
		{"unknown left literal", []string{"$HOME", "${FOO}/x", "$CLAUDE_PLUGIN_ROOTX", "${CLAUDE_PLUGIN_ROOT"},
			[]string{"$HOME", "${FOO}/x", "$CLAUDE_PLUGIN_ROOTX", "${CLAUDE_PLUGIN_ROOT"}},
		{"lone dollar", []string{"$", "a$", "$1"}, []string{"$", "a$", "$1"}},
		{"no variables", []string{"a b", ""}, []string{"a b", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExpandArgv(tt.in, v); !slices.Equal(got, tt.want) {
				t.Fatalf("ExpandArgv(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestExpandArgvInsertsValuesLiterally(t *testing.T) {
	got := ExpandArgv([]string{"${PLUGIN_ROOT}/x"}, Vars{PluginRoot: "/a/$PLUGIN_DATA"})
	if !slices.Equal(got, []string{"/a/$PLUGIN_DATA/x"}) {
		t.Fatalf("got %q", got)
	}
	in := []string{"${PLUGIN_ROOT}"}
	ExpandArgv(in, Vars{PluginRoot: "/r"})
	if in[0] != "${PLUGIN_ROOT}" {
		t.Fatal("ExpandArgv modified its input")
	}
}

func TestUnknownVariables(t *testing.T) {
	got := unknownVariables([]string{"$HOME/a", "${FOO}", "$HOME", "${CLAUDE_PLUGIN_ROOT}", "$PLUGIN_DATA"})
	if !slices.Equal(got, []string{"$HOME", "${FOO}"}) {
		t.Fatalf("got %q", got)
	}
}

func TestPackagePath(t *testing.T) {
	tests := []struct {
		tok     string
		want    string
		ok      bool
		wantErr string
	}{
		{tok: "${CLAUDE_PLUGIN_ROOT}/hooks/a.js", want: "hooks/a.js", ok: true},
		{tok: "$PLUGIN_ROOT/a", want: "a", ok: true},
		{tok: "${AGENTDESK_PLUGIN_ROOT}//a", want: "a", ok: true},
		{tok: "${CLAUDE_PLUGIN_ROOT}", want: ".", ok: true},
		{tok: "${CLAUDE_PLUGIN_ROOT}/", want: ".", ok: true},
		{tok: "${CLAUDE_PLUGIN_ROOT}/../x", want: "../x", ok: true}, // resolve rejects it
		{tok: "node"},
		{tok: "${CLAUDE_PLUGIN_DATA}/x"},
		{tok: "--f=${CLAUDE_PLUGIN_ROOT}/x"},
		{tok: "$HOME/x"},
		{tok: "${CLAUDE_PLUGIN_ROOT}x", wantErr: "must be followed by '/'"},
		{tok: "${CLAUDE_PLUGIN_ROOT}.js", wantErr: "must be followed by '/'"},
	}
	for _, tt := range tests {
		rel, ok, err := packagePath(tt.tok)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("packagePath(%q) err = %v, want %q", tt.tok, err, tt.wantErr)
			}
			continue
		}
		if err != nil || rel != tt.want || ok != tt.ok {
			t.Errorf("packagePath(%q) = %q, %v, %v; want %q, %v", tt.tok, rel, ok, err, tt.want, tt.ok)
		}
	}
}
