package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// DefaultStyle names AgentDesk's own output style: the base policy as
// it is, no style section.
const DefaultStyle = "Default"

// OutputStyles lists the output styles a session in projectDir may use:
// the enabled extensions' (the trusted project's among them), in their
// order. Default is not among them.
func (a *Agent) OutputStyles(ctx context.Context, projectDir string) []lifecycle.OutputStyle {
	if a.cfg.Styles == nil {
		return nil
	}
	return a.cfg.Styles.OutputStyles(ctx, projectDir)
}

// FindStyle resolves a name the user typed: Default (nil), a style's
// full name ("ponytail:terse"), the same ignoring case, or a style's own
// name ("terse") when only one style has it. The error lists what may be
// typed.
func FindStyle(styles []lifecycle.OutputStyle, name string) (*lifecycle.OutputStyle, error) {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, DefaultStyle) || name == "" {
		return nil, nil
	}
	for _, match := range []func(lifecycle.OutputStyle) bool{
		func(s lifecycle.OutputStyle) bool { return s.Name == name },
		func(s lifecycle.OutputStyle) bool { return strings.EqualFold(s.Name, name) },
		func(s lifecycle.OutputStyle) bool { return strings.EqualFold(s.Short, name) },
	} {
		var found []lifecycle.OutputStyle
		for _, s := range styles {
			if match(s) {
				found = append(found, s)
			}
		}
		switch {
		case len(found) == 1:
			return &found[0], nil
		case len(found) > 1:
			return nil, fmt.Errorf("%q names %d output styles (%s): type one of them", name, len(found), styleNames(found))
		}
	}
	return nil, fmt.Errorf("no output style %q; the styles are %s, %s", name, DefaultStyle, styleNames(styles))
}

func styleNames(styles []lifecycle.OutputStyle) string {
	if len(styles) == 0 {
		return "none more (enabled extensions add them: output-styles/*.md)"
	}
	names := make([]string, len(styles))
	for i, s := range styles {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// useStyle fixes the output style of the turn about to start from the
// stored choice: the main thread's system prompt stays the same for the
// whole turn, and a change (Preferences, /output-style, an extension
// disabled) applies from the next one. A chosen style not offered here
// means Default, said once until that changes.
func (s *Session) useStyle(ctx context.Context) {
	name := LoadOutputStyle(ctx, s.a.cfg.DB)
	var style *lifecycle.OutputStyle
	if name != "" {
		for _, st := range s.a.OutputStyles(ctx, s.project) {
			if st.Name == name {
				style = &st
				break
			}
		}
	}
	missing := ""
	if name != "" && style == nil {
		missing = name
	}
	s.mu.Lock()
	s.style = style
	told := s.styleMissing == missing
	s.styleMissing = missing
	s.mu.Unlock()
	if missing != "" && !told {
		s.host(ctx, Host{Kind: HostNotice, Text: fmt.Sprintf("Output style %s is not offered here (its extension is disabled or "+
			"uninstalled, or it is another project's): this turn uses %s. Choose another with /output-style.", missing, DefaultStyle)})
	}
}

// outputStyleCommand is /output-style: without a name it lists the
// styles and the current one; with a name it stores that choice, which
// the next turn uses.
func (s *Session) outputStyleCommand(ctx context.Context, arg string) {
	styles := s.a.OutputStyles(ctx, s.project)
	if strings.TrimSpace(arg) == "" {
		s.host(ctx, Host{Kind: HostInfo, Text: styleListText(styles, LoadOutputStyle(ctx, s.a.cfg.DB))})
		return
	}
	style, err := FindStyle(styles, arg)
	if err != nil {
		s.host(ctx, Host{Kind: HostError, Text: "Output style not changed: " + err.Error()})
		return
	}
	name, shown := "", DefaultStyle
	if style != nil {
		name, shown = style.Name, style.Name
	}
	if err := SaveOutputStyle(ctx, s.a.cfg.DB, name); err != nil {
		s.host(ctx, Host{Kind: HostError, Text: "Output style not changed: " + err.Error()})
		return
	}
	s.host(ctx, Host{Kind: HostInfo, Text: fmt.Sprintf("Output style: %s, from the next turn on (%s).", shown, styleEffect(style))})
}

// styleListText is the answer to a bare /output-style.
func styleListText(styles []lifecycle.OutputStyle, current string) string {
	var b strings.Builder
	b.WriteString("Output styles (/output-style NAME chooses one; the next turn uses it):")
	mark := func(name string) string {
		if name == current {
			return "● "
		}
		return "  "
	}
	fmt.Fprintf(&b, "\n%s%s — AgentDesk's own: the coding instructions, short answers", mark(""), DefaultStyle)
	found := current == ""
	for _, st := range styles {
		line := "\n" + mark(st.Name) + st.Name
		if st.Description != "" {
			line += " — " + strings.Join(strings.Fields(st.Description), " ")
		}
		line += " (" + styleEffect(&st) + ")"
		b.WriteString(line)
		found = found || st.Name == current
	}
	if !found {
		fmt.Fprintf(&b, "\nChosen: %s, which is not offered here, so %s applies.", current, DefaultStyle)
	}
	return b.String()
}

// styleEffect says what a style does to the system prompt.
func styleEffect(style *lifecycle.OutputStyle) string {
	switch {
	case style == nil:
		return "the coding instructions"
	case style.KeepCodingInstructions:
		return "added to the coding instructions"
	}
	return "replaces the coding instructions"
}
