package manifest

import (
	"regexp"
	"strings"

	"github.com/google/shlex"
)

// inlineShell is Claude Code's "run this and paste its output" syntax in
// a command body: !`git status`. AgentDesk never runs it.
var inlineShell = regexp.MustCompile("!`([^`\n]*)`")

// argumentRef is $ARGUMENTS or a $-number; only $1…$9 are positional
// ("$150" in a price is left alone).
var argumentRef = regexp.MustCompile(`\$ARGUMENTS|\$[0-9]+`)

// positional is the index of a $1…$9 reference, or -1.
func positional(ref string) int {
	if len(ref) == 2 && ref[1] >= '1' && ref[1] <= '9' {
		return int(ref[1] - '1')
	}
	return -1
}

// usesArguments reports whether body names $ARGUMENTS or a positional.
func usesArguments(body string) bool {
	for _, ref := range argumentRef.FindAllString(body, -1) {
		if ref == "$ARGUMENTS" || positional(ref) >= 0 {
			return true
		}
	}
	return false
}

// Expand makes the body into the prompt for args, the text typed after
// the command name: $ARGUMENTS is args as typed, $1…$9 its words split
// like a shell does (quotes group; a missing one stays as written, as in
// Claude Code, so "$1,500" without arguments is intact), and the
// documented variables are replaced (${CLAUDE_PLUGIN_ROOT},
// ${CLAUDE_PLUGIN_DATA}, ${CLAUDE_PROJECT_DIR}, ${user_config.KEY}). A
// body that uses no argument gets them appended as "ARGUMENTS: …", as
// Claude Code does. Inline shell commands are replaced by a "(not run: …)"
// marker and returned. Values are inserted literally, never expanded
// again.
func (c Command) Expand(args string, v Vars) (prompt string, notRun []string) {
	args = strings.TrimSpace(args)
	words, err := shlex.Split(args)
	if err != nil { // an unclosed quote: plain words are the best guess
		words = strings.Fields(args)
	}
	body := inlineShell.ReplaceAllStringFunc(c.Body, func(m string) string {
		cmd := inlineShell.FindStringSubmatch(m)[1]
		notRun = append(notRun, cmd)
		return "(not run: " + cmd + ")"
	})
	usesArgs := usesArguments(body)
	prompt = expandRefs(body, args, words, v)
	if !usesArgs && args != "" {
		prompt += "\n\nARGUMENTS: " + args
	}
	return prompt, notRun
}

// commandRef is an argument reference or a variable reference, matched in
// one pass so no inserted value is read again.
var commandRef = regexp.MustCompile(argumentRef.String() + `|` + variableRef.String())

func expandRefs(body, args string, words []string, v Vars) string {
	return commandRef.ReplaceAllStringFunc(body, func(ref string) string {
		switch {
		case ref == "$ARGUMENTS":
			return args
		case ref[1] >= '0' && ref[1] <= '9':
			if n := positional(ref); n >= 0 && n < len(words) {
				return words[n]
			}
			return ref
		}
		return ExpandArgv([]string{ref}, v)[0]
	})
}
