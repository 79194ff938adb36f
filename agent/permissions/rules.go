// Package permissions reads permission rules in Claude Code's syntax
// (`Bash(npm run test:*)`, `Read(./secrets/**)`, `mcp__server__tool`) and
// answers, for one tool call, allow, ask or deny. Deny beats ask beats
// allow; a compound command is allowed only when every part is. See
// docs/permissions.md.
package permissions

import (
	"fmt"
	"strings"
)

// Behavior is what a rule says about the calls it matches.
type Behavior string

const (
	Allow Behavior = "allow"
	Ask   Behavior = "ask"
	Deny  Behavior = "deny"
)

// ParseBehavior accepts "allow", "ask" or "deny".
func ParseBehavior(s string) (Behavior, error) {
	switch b := Behavior(s); b {
	case Allow, Ask, Deny:
		return b, nil
	}
	return "", fmt.Errorf("unknown rule behaviour %q (want allow, ask or deny)", s)
}

// Source says where a rule comes from, for the user to see.
type Source string

const (
	SourceProject      Source = "project settings"       // .claude/settings.json
	SourceProjectLocal Source = "project local settings" // .claude/settings.local.json
	SourceUser         Source = "yours"                  // saved in AgentDesk
)

// Rule is one parsed rule string.
type Rule struct {
	Text     string // as written
	Behavior Behavior
	Source   Source
	Tool     string // Claude Code's tool name (Bash, Read, mcp__srv__tool)
	// Spec is what is inside the parentheses; "" matches every call of Tool.
	Spec string
}

// Parse reads one rule string: `Tool` or `Tool(specifier)`. `Tool(*)`
// and `Tool()` mean every call of Tool, as in Claude Code.
func Parse(text string) (Rule, error) {
	s := strings.TrimSpace(text)
	r := Rule{Text: s}
	if s == "" {
		return r, fmt.Errorf("empty permission rule")
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		r.Tool = s
	} else {
		if !strings.HasSuffix(s, ")") {
			return r, fmt.Errorf("permission rule %q: missing closing parenthesis", text)
		}
		r.Tool = strings.TrimSpace(s[:open])
		r.Spec = strings.TrimSpace(s[open+1 : len(s)-1])
		if r.Spec == "*" {
			r.Spec = ""
		}
	}
	if !validToolName(r.Tool) {
		return r, fmt.Errorf("permission rule %q: %q is not a tool name", text, r.Tool)
	}
	if strings.HasPrefix(r.Tool, "mcp__") && r.Spec != "" {
		return r, fmt.Errorf("permission rule %q: MCP rules take no parentheses (write mcp__server or mcp__server__tool)", text)
	}
	if r.Tool == "Bash" && strings.Contains(r.Spec, ":*") && !strings.HasSuffix(r.Spec, ":*") {
		return r, fmt.Errorf("permission rule %q: the :* prefix form must end the rule", text)
	}
	return r, nil
}

func validToolName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		ok := c == '_' || c == '-' || c == '*' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// String is the rule as Claude Code writes it.
func (r Rule) String() string {
	if r.Spec == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Spec + ")"
}
