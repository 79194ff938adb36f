package manifest

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/shlex"
	"mvdan.cc/sh/v3/syntax"
)

// needsShellReason is Hook.Inactive for commands that only a shell could
// run as the author meant.
const needsShellReason = "this hook needs a shell; AgentDesk runs hooks without one"

// powerShellReason is Hook.Inactive for hooks declared "shell": "powershell".
const powerShellReason = "this hook is a PowerShell command; AgentDesk runs hooks without a shell"

var errEmptyCommand = errors.New("command is empty")

// command is a hook command turned into argv.
type command struct {
	argv       []string
	ignoreExit bool // a trailing "; exit 0" or "|| true" was removed
	needsShell bool
}

// parseCommand converts a handler's command (and optional exec-form args)
// into argv. It never consults a shell: shell syntax is detected and
// reported instead of interpreted.
func parseCommand(cmd string, args []string) (command, error) {
	if args != nil {
		if strings.TrimSpace(cmd) == "" {
			return command{}, errEmptyCommand
		}
		return command{argv: append([]string{cmd}, args...)}, nil
	}
	return splitShellForm(cmd)
}

func splitShellForm(cmd string) (command, error) {
	if onlyIgnoreExit.MatchString(cmd) {
		return command{}, errEmptyCommand
	}
	body, ignoreExit, needsShell := shellShape(strings.TrimSpace(cmd))
	argv, err := shlex.Split(body)
	if err != nil {
		return command{}, fmt.Errorf("cannot split command %q: %w", cmd, err)
	}
	if len(argv) == 0 {
		return command{}, errEmptyCommand
	}
	return command{argv: argv, ignoreExit: ignoreExit, needsShell: needsShell}, nil
}

// userConfigRef is a ${user_config.KEY} reference.
var userConfigRef = regexp.MustCompile(`\$\{user_config\.[A-Za-z0-9_]+\}`)

// onlyIgnoreExit is a command that is nothing but the ignore-exit idiom.
var onlyIgnoreExit = regexp.MustCompile(`^\s*(;\s*exit\s+0|\|\|\s*true)?\s*$`)

// shellShape parses cmd as a shell would (mvdan.cc/sh) without running
// anything, and tells whether it is one simple command of plain words:
// literal text, quotes, and $NAME, ${NAME} or ${NAME:-default} references.
// Anything else (operators, redirections, substitutions, globs such as
// *.tmp, a leading ~, brace expansion, NAME=value) needs a shell, so the
// hook will not run. A trailing "; exit 0" or "|| true", which real
// plugins append so a missing interpreter never fails the host's turn, is
// removed first: body is what remains.
func shellShape(cmd string) (body string, ignoreExit, needsShell bool) {
	// ${user_config.KEY} is AgentDesk's to expand, not a shell's: the
	// parser sees a plain reference of the same length, so offsets hold.
	masked := userConfigRef.ReplaceAllStringFunc(cmd, func(ref string) string {
		return "${" + strings.Repeat("u", len(ref)-3) + "}"
	})
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(masked), "")
	if err != nil {
		return cmd, false, true
	}
	stmts := f.Stmts
	if len(stmts) == 2 && isCall(stmts[1], "exit", "0") {
		return span(cmd, stmts[0]), true, !plainStmt(stmts[0])
	}
	if len(stmts) != 1 {
		return cmd, false, true
	}
	if or, ok := stmts[0].Cmd.(*syntax.BinaryCmd); ok && or.Op == syntax.OrStmt && isCall(or.Y, "true") {
		return span(cmd, or.X), true, !plainStmt(or.X)
	}
	return cmd, false, !plainStmt(stmts[0])
}

// span is the text of st's command in cmd, without its ';'.
func span(cmd string, st *syntax.Stmt) string {
	return cmd[st.Pos().Offset():st.Cmd.End().Offset()]
}

// isCall reports whether st is exactly the simple command words.
func isCall(st *syntax.Stmt, words ...string) bool {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || !plainStmt(st) || len(call.Args) != len(words) {
		return false
	}
	for i, w := range call.Args {
		if w.Lit() != words[i] {
			return false
		}
	}
	return true
}

// plainStmt: one command of plain words, nothing a shell would add.
func plainStmt(st *syntax.Stmt) bool {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 {
		return false
	}
	for _, w := range call.Args {
		if !plainWord(w) {
			return false
		}
	}
	return true
}

func plainWord(w *syntax.Word) bool {
	for i, part := range w.Parts {
		if !plainPart(part, i == 0, false) {
			return false
		}
	}
	return true
}

// plainPart accepts literal text (no glob or brace expansion, no leading
// ~), quoted text and simple variable references.
func plainPart(part syntax.WordPart, first, quoted bool) bool {
	switch p := part.(type) {
	case *syntax.Lit:
		return quoted || !(strings.ContainsAny(p.Value, "*?[") || first && strings.HasPrefix(p.Value, "~") || braceExpansion(p.Value))
	case *syntax.SglQuoted:
		return !p.Dollar
	case *syntax.DblQuoted:
		for _, inner := range p.Parts {
			if !plainPart(inner, false, true) {
				return false
			}
		}
		return !p.Dollar
	case *syntax.ParamExp:
		return simpleParam(p)
	}
	return false // command or process substitution, arithmetic, extended globs
}

// simpleParam is $NAME, ${NAME} or ${NAME:-literal}.
func simpleParam(p *syntax.ParamExp) bool {
	if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return false
	}
	if p.Exp == nil {
		return true
	}
	return p.Exp.Op == syntax.DefaultUnsetOrNull && (p.Exp.Word == nil || plainWord(p.Exp.Word))
}

// braceExpansion reports a {a,b} or {1..3} a shell would expand.
func braceExpansion(lit string) bool {
	open := strings.IndexByte(lit, '{')
	if open < 0 {
		return false
	}
	inner, _, closed := strings.Cut(lit[open+1:], "}")
	return closed && (strings.Contains(inner, ",") || strings.Contains(inner, ".."))
}
