package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
)

// printCommands lists an extension's slash commands for `ext show`.
func (x *extCLI) printCommands(i extensions.Info) {
	for _, c := range i.Commands {
		line := "/" + c.Name
		if c.ArgumentHint != "" {
			line += " " + c.ArgumentHint
		}
		if c.Description != "" {
			line += " — " + firstLine(c.Description)
		}
		fmt.Fprintf(x.out, "  command %s\n", line)
		if len(c.AllowedTools) > 0 {
			fmt.Fprintf(x.out, "          allowed-tools (shown only, approvals still asked): %s\n", strings.Join(c.AllowedTools, ", "))
		}
	}
}

// printAgents lists an extension's agents for `ext show`.
func (x *extCLI) printAgents(i extensions.Info) {
	for _, a := range i.Agents {
		fmt.Fprintf(x.out, "  agent %s — %s\n", a.Name, firstLine(a.Description))
		if a.Tools != nil {
			fmt.Fprintf(x.out, "        tools: %s\n", agent.ToolsText(a.Tools))
		}
		if a.Model != "" {
			fmt.Fprintf(x.out, "        model: %s\n", a.Model)
		}
	}
}

// printStyles lists an extension's output styles for `ext show`.
func (x *extCLI) printStyles(i extensions.Info) {
	for _, st := range i.OutputStyles {
		line := "  output style " + st.Name
		if st.Description != "" {
			line += " — " + firstLine(st.Description)
		}
		fmt.Fprintf(x.out, "%s\n        %s\n", line, styleModeText(st.KeepCodingInstructions))
	}
}

// styleModeText says what choosing a style does to the system prompt.
func styleModeText(keep bool) string {
	if keep {
		return "added to the coding instructions when chosen"
	}
	return "replaces the coding instructions when chosen"
}

// printTrustStyles names, before enabling, the output styles the
// extension adds.
func (x *extCLI) printTrustStyles(t extensions.Trust) {
	if len(t.OutputStyles) == 0 {
		return
	}
	var names []string
	for _, st := range t.OutputStyles {
		names = append(names, st.Name)
	}
	fmt.Fprintf(x.out, "It adds these output styles (one reaches the system prompt only when you choose it in Preferences or with /output-style): %s\n", strings.Join(names, ", "))
}

// printTrustCommands names, before enabling, the slash commands the
// extension adds.
func (x *extCLI) printTrustCommands(t extensions.Trust) {
	if len(t.Commands) == 0 {
		return
	}
	var names []string
	for _, c := range t.Commands {
		names = append(names, "/"+c.Name)
	}
	fmt.Fprintf(x.out, "It adds these slash commands (their text goes to the model when you type them; nothing in them runs): %s\n", strings.Join(names, " "))
}

// printTrustAgents names, before enabling, the agents the extension adds.
func (x *extCLI) printTrustAgents(t extensions.Trust) {
	if len(t.Agents) == 0 {
		return
	}
	var names []string
	for _, a := range t.Agents {
		names = append(names, a.Name)
	}
	fmt.Fprintf(x.out, "It adds these agents (the model may hand them tasks; their edits and commands ask as usual): %s\n", strings.Join(names, ", "))
}

// commandConflicts notes the commands of info that run only namespaced:
// another enabled extension or AgentDesk itself has the short name.
func commandConflicts(info extensions.Info, set lifecycle.CommandSet) []string {
	var notes []string
	for _, c := range set.Conflicts {
		if !slices.Contains(c.Sources, info.ID) {
			continue
		}
		var others []string
		if c.Host {
			others = append(others, "AgentDesk's own /"+c.Name)
		}
		for _, s := range c.Sources {
			if s != info.ID {
				others = append(others, "extension "+s)
			}
		}
		notes = append(notes, fmt.Sprintf("command /%s conflicts with %s: type /%s:%s", c.Name, strings.Join(others, " and "), info.ID, c.Name))
	}
	return notes
}
