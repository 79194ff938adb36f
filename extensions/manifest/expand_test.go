package manifest

import (
	"slices"
	"testing"
)

func TestCommandExpand(t *testing.T) {
	v := Vars{PluginRoot: "/store/probe", PluginData: "/data/probe", ProjectDir: "/proj",
		Options: map[string]string{"team": "core"}}
	tests := []struct {
		name, body, args string
		want             string
		notRun           []string
	}{
		{name: "arguments as typed", body: "Fix $ARGUMENTS now.", args: ` issue "42 b" `, want: `Fix issue "42 b" now.`},
		{name: "positional split like a shell", body: "PR $1 prio $2 rest $3.", args: `12 "very high"`, want: "PR 12 prio very high rest $3."},
		{name: "prices are no positionals", body: "Cost $150, stipend ($1,500), $0 $10", args: "x", want: "Cost $150, stipend (x,500), $0 $10"},
		{name: "a price alone is no use of arguments", body: "Cost $150.", args: "x", want: "Cost $150.\n\nARGUMENTS: x"},
		{name: "without arguments positionals stay", body: "Stipend ($1,500) for $2", want: "Stipend ($1,500) for $2"},
		{name: "unclosed quote falls back to words", body: "$1|$2", args: `a "b`, want: `a|"b`},
		{name: "no argument reference appends them", body: "Review the code.", args: "src/x.go", want: "Review the code.\n\nARGUMENTS: src/x.go"},
		{name: "positional use counts as using them", body: "File $1.", args: "a b", want: "File a."},
		{name: "no arguments nothing appended", body: "Review.", want: "Review."},
		{name: "variables", body: "Run ${CLAUDE_PLUGIN_ROOT}/x in ${CLAUDE_PROJECT_DIR}, data $CLAUDE_PLUGIN_DATA, team ${user_config.team}, ${user_config.secret} $HOME",
			want: "Run /store/probe/x in /proj, data /data/probe, team core, ${user_config.secret} $HOME"},
		{name: "values are not expanded again", body: "$ARGUMENTS", args: "${CLAUDE_PLUGIN_ROOT} $1", want: "${CLAUDE_PLUGIN_ROOT} $1"},
		{name: "inline shell not run", body: "Status: !`git status`\nDiff: !`git diff HEAD`\n$ARGUMENTS", args: "x",
			want: "Status: (not run: git status)\nDiff: (not run: git diff HEAD)\nx", notRun: []string{"git status", "git diff HEAD"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notRun := Command{Name: "c", Body: tt.body}.Expand(tt.args, v)
			if got != tt.want || !slices.Equal(notRun, tt.notRun) {
				t.Errorf("Expand = %q, %q\nwant      %q, %q", got, notRun, tt.want, tt.notRun)
			}
		})
	}
}
