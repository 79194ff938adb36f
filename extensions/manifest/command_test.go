package manifest

import (
	"slices"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		name       string
		command    string
		args       []string
		wantArgv   []string
		ignoreExit bool
		needsShell bool
	}{
		{name: "plain", command: "node x.js", wantArgv: []string{"node", "x.js"}},
		{name: "ponytail suffix", command: `node "${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-activate.js"; exit 0`,
			wantArgv: []string{"node", "${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-activate.js"}, ignoreExit: true},
		{name: "suffix without spaces", command: `node "x.js";exit 0`, wantArgv: []string{"node", "x.js"}, ignoreExit: true},
		{name: "suffix glued to token", command: `node x.js; exit 0`, wantArgv: []string{"node", "x.js"}, ignoreExit: true},
		{name: "suffix with extra spaces", command: "node x.js ;  exit   0  ", wantArgv: []string{"node", "x.js"}, ignoreExit: true},
		{name: "or true", command: "node x.js || true", wantArgv: []string{"node", "x.js"}, ignoreExit: true},
		{name: "or true glued", command: "node x.js||true", wantArgv: []string{"node", "x.js"}, ignoreExit: true},
		{name: "quoted operators are one argument", command: `echo "a && b" 'c | d' "e; exit 0"`,
			wantArgv: []string{"echo", "a && b", "c | d", "e; exit 0"}},
		{name: "single-quoted substitution is literal", command: `echo '$(x)' '` + "`y`" + `'`,
			wantArgv: []string{"echo", "$(x)", "`y`"}},
		{name: "escaped semicolon", command: `echo a\; exit 0`, wantArgv: []string{"echo", "a;", "exit", "0"}},
		{name: "comment hides operators", command: "node x.js # a && b", wantArgv: []string{"node", "x.js"}},
		{name: "hash inside a word", command: "echo a#b", wantArgv: []string{"echo", "a#b"}},
		{name: "and", command: "a && b", wantArgv: []string{"a", "&&", "b"}, needsShell: true},
		{name: "and glued", command: "a&&b", wantArgv: []string{"a&&b"}, needsShell: true},
		{name: "pipe", command: "a | b", wantArgv: []string{"a", "|", "b"}, needsShell: true},
		{name: "or", command: "a || b", wantArgv: []string{"a", "||", "b"}, needsShell: true},
		{name: "semicolon", command: "a; b", wantArgv: []string{"a;", "b"}, needsShell: true},
		{name: "background", command: "a &", wantArgv: []string{"a", "&"}, needsShell: true},
		{name: "redirect out", command: "a > f", wantArgv: []string{"a", ">", "f"}, needsShell: true},
		{name: "append", command: "a >> f", wantArgv: []string{"a", ">>", "f"}, needsShell: true},
		{name: "redirect in", command: "a < f", wantArgv: []string{"a", "<", "f"}, needsShell: true},
		{name: "stderr to stdout", command: "a 2>&1", wantArgv: []string{"a", "2>&1"}, needsShell: true},
		{name: "command substitution", command: "echo $(x)", wantArgv: []string{"echo", "$(x)"}, needsShell: true},
		{name: "substitution in double quotes", command: `echo "$(x)"`, wantArgv: []string{"echo", "$(x)"}, needsShell: true},
		{name: "backticks", command: "echo `x`", wantArgv: []string{"echo", "`x`"}, needsShell: true},
		{name: "backticks in double quotes", command: "echo \"`x`\"", wantArgv: []string{"echo", "`x`"}, needsShell: true},
		{name: "leading assignment", command: "FOO=1 cmd", wantArgv: []string{"FOO=1", "cmd"}, needsShell: true},
		{name: "later assignment is an argument", command: "cmd FOO=1", wantArgv: []string{"cmd", "FOO=1"}},
		{name: "newline separates commands", command: "a\nb", wantArgv: []string{"a", "b"}, needsShell: true},
		{name: "newline after comment", command: "a # c\nb", wantArgv: []string{"a", "b"}, needsShell: true},
		{name: "shell before the suffix", command: "a | b; exit 0", wantArgv: []string{"a", "|", "b"}, ignoreExit: true, needsShell: true},
		{name: "exit 1 is not the exception", command: "a; exit 1", wantArgv: []string{"a;", "exit", "1"}, needsShell: true},
		{name: "and true is not the exception", command: "a && true", wantArgv: []string{"a", "&&", "true"}, needsShell: true},
		// Forms the hand-written scanner missed: each would run with a
		// literal argument instead of what the author meant.
		{name: "glob", command: "rm -f *.tmp", wantArgv: []string{"rm", "-f", "*.tmp"}, needsShell: true},
		{name: "question-mark glob", command: "cat log.?", wantArgv: []string{"cat", "log.?"}, needsShell: true},
		{name: "bracket glob", command: "cat [ab].txt", wantArgv: []string{"cat", "[ab].txt"}, needsShell: true},
		{name: "tilde", command: "node ~/hooks/x.js", wantArgv: []string{"node", "~/hooks/x.js"}, needsShell: true},
		{name: "brace list", command: "touch {a,b}.log", wantArgv: []string{"touch", "{a,b}.log"}, needsShell: true},
		{name: "brace range", command: "echo {1..3}", wantArgv: []string{"echo", "{1..3}"}, needsShell: true},
		{name: "parameter operation", command: "echo ${#X}", wantArgv: []string{"echo", "${#X}"}, needsShell: true},
		{name: "arithmetic", command: "echo $((1+2))", wantArgv: []string{"echo", "$((1+2))"}, needsShell: true},
		{name: "process substitution", command: "diff <(a) b", wantArgv: []string{"diff", "<(a)", "b"}, needsShell: true},
		{name: "quoted glob is literal", command: `rm "*.tmp" 'a{b,c}'`, wantArgv: []string{"rm", "*.tmp", "a{b,c}"}},
		{name: "a default is a plain word", command: `node "${CLAUDE_PLUGIN_ROOT:-.}/x.js"`, wantArgv: []string{"node", "${CLAUDE_PLUGIN_ROOT:-.}/x.js"}},
		{name: "tilde inside a word is literal", command: "echo a~b", wantArgv: []string{"echo", "a~b"}},
		{name: "a lone brace is literal", command: "echo {x}", wantArgv: []string{"echo", "{x}"}},
		{name: "exec form", command: "node", args: []string{"${CLAUDE_PLUGIN_ROOT}/x.js", "a && b"},
			wantArgv: []string{"node", "${CLAUDE_PLUGIN_ROOT}/x.js", "a && b"}},
		{name: "exec form keeps the program unsplit", command: "/opt/my tool", args: []string{},
			wantArgv: []string{"/opt/my tool"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCommand(tt.command, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.argv, tt.wantArgv) || got.ignoreExit != tt.ignoreExit || got.needsShell != tt.needsShell {
				t.Fatalf("got argv %q ignoreExit %v needsShell %v, want %q %v %v",
					got.argv, got.ignoreExit, got.needsShell, tt.wantArgv, tt.ignoreExit, tt.needsShell)
			}
		})
	}
}

func TestParseCommandErrors(t *testing.T) {
	tests := []struct {
		command string
		args    []string
		want    string
	}{
		{command: "", want: "command is empty"},
		{command: "; exit 0", want: "command is empty"},
		{command: "", args: []string{"x"}, want: "command is empty"},
		{command: `a "b`, want: "closing quote"},
		{command: `a \`, want: "escape character"},
	}
	for _, tt := range tests {
		if _, err := parseCommand(tt.command, tt.args); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseCommand(%q, %q) err = %v, want %q", tt.command, tt.args, err, tt.want)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, seed := range []string{
		`node "${CLAUDE_PLUGIN_ROOT}/hooks/a.js"; exit 0`, "a && b || true", `echo "$(x)" '\'`,
		"a # c\nb", "FOO=1 x", `"unclosed`, "x\\", "`", "a;exit 0;exit 0",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		got, err := parseCommand(cmd, nil)
		if err != nil {
			return
		}
		if len(got.argv) == 0 {
			t.Fatalf("parseCommand(%q) returned no argv and no error", cmd)
		}
		if got.ignoreExit && !strings.Contains(cmd, "exit") && !strings.Contains(cmd, "true") {
			t.Fatalf("parseCommand(%q) ignores the exit status without the documented suffix", cmd)
		}
	})
}
