package manifest

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/google/shlex"
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
	body, ignoreExit := stripIgnoreExit(strings.TrimSpace(cmd))
	argv, err := shlex.Split(body)
	if err != nil {
		return command{}, fmt.Errorf("cannot split command %q: %w", cmd, err)
	}
	if len(argv) == 0 {
		return command{}, errEmptyCommand
	}
	needsShell := len(scanShellOperators(body)) > 0 || assignment.MatchString(argv[0])
	return command{argv: argv, ignoreExit: ignoreExit, needsShell: needsShell}, nil
}

// assignment is a leading NAME=value, which a shell would turn into an
// environment variable rather than run.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// stripIgnoreExit removes the one shell idiom AgentDesk honours: a
// trailing "; exit 0" or "|| true", which real plugins append so a missing
// interpreter never fails the host's turn.
func stripIgnoreExit(cmd string) (string, bool) {
	ops := scanShellOperators(cmd)
	if len(ops) == 0 {
		return cmd, false
	}
	last := ops[len(ops)-1]
	tail, err := shlex.Split(cmd[last.end:])
	if err != nil {
		return cmd, false
	}
	if last.op == ";" && slices.Equal(tail, []string{"exit", "0"}) ||
		last.op == "||" && slices.Equal(tail, []string{"true"}) {
		return strings.TrimSpace(cmd[:last.start]), true
	}
	return cmd, false
}

// shellOperator is an unquoted piece of shell syntax found in a command.
type shellOperator struct {
	op         string
	start, end int // byte offsets in the command
}

// operators a shell would interpret outside quotes, longest first.
var unquotedOperators = []string{"&&", "||", "$(", ";", "&", "|", ">", "<", "`"}

type scanState int

const (
	unquoted scanState = iota
	singleQuoted
	doubleQuoted
	inComment
)

// shellScanner walks a command with the same quoting rules as shlex, so
// "a && b" in quotes stays one harmless argument while a bare && does not.
// Inside double quotes a shell still expands $( and backticks, so those
// are reported there too.
type shellScanner struct {
	cmd       string
	state     scanState
	wordStart bool // shlex starts a comment only at a token boundary
	ops       []shellOperator
}

func scanShellOperators(cmd string) []shellOperator {
	s := &shellScanner{cmd: cmd, wordStart: true}
	for i := 0; i < len(cmd); {
		i = s.step(i)
	}
	return s.ops
}

// step consumes the byte at i and returns the next offset. Every byte the
// scanner cares about is ASCII, so walking bytes is safe for UTF-8.
func (s *shellScanner) step(i int) int {
	c := s.cmd[i]
	switch s.state {
	case singleQuoted:
		if c == '\'' {
			s.state = unquoted
		}
		return i + 1
	case doubleQuoted:
		return s.stepDoubleQuoted(i)
	case inComment:
		if c == '\n' {
			s.state, s.wordStart = unquoted, true
			s.add("\n", i, i+1)
		}
		return i + 1
	}
	return s.stepUnquoted(i)
}

func (s *shellScanner) stepDoubleQuoted(i int) int {
	switch {
	case s.cmd[i] == '\\':
		return i + 2
	case s.cmd[i] == '"':
		s.state = unquoted
	case strings.HasPrefix(s.cmd[i:], "$("):
		s.add("$(", i, i+2)
		return i + 2
	case s.cmd[i] == '`':
		s.add("`", i, i+1)
	}
	return i + 1
}

func (s *shellScanner) stepUnquoted(i int) int {
	c := s.cmd[i]
	atStart := s.wordStart
	s.wordStart = false
	switch {
	case c == '\\':
		return i + 2
	case c == '\'':
		s.state = singleQuoted
	case c == '"':
		s.state = doubleQuoted
	case c == '#' && atStart:
		s.state = inComment
	case c == '\n':
		s.wordStart = true
		s.add("\n", i, i+1) // a newline separates commands like ';'
	case c == ' ' || c == '\t' || c == '\r':
		s.wordStart = true
	default:
		for _, op := range unquotedOperators {
			if strings.HasPrefix(s.cmd[i:], op) {
				s.add(op, i, i+len(op))
				return i + len(op)
			}
		}
	}
	return i + 1
}

func (s *shellScanner) add(op string, start, end int) {
	s.ops = append(s.ops, shellOperator{op: op, start: start, end: end})
}
