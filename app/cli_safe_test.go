package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// hostile is text that would drive a terminal: erase the screen, set the
// window title, a CSI as one C1 byte, a bidi override, a zero-width space.
const hostile = `\u001b[2J\u001b]0;pwned\u0007\u009b2J\u202e\u200b`

// probeFiles is a package whose every shown string holds hostile text;
// hookBody varies between versions so an update has a diff to show.
func probeFiles(hookArg string) map[string]gittest.File {
	h := hostile
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"probe","version":"1.0` + h + `","description":"desc` + h + `",
			"author":{"name":"auth` + h + `"},"homepage":"https://x` + h + `","license":"MIT` + h + `",
			"interface":{"displayName":"Esc` + h + `Probe"},
			"mcpServers":{"srv` + h + `":{"command":"x"}},
			"userConfig":{"token":{"title":"Tok` + h + `en","description":"what` + h + `","type":"string","default":"def` + h + `"}}}`},
		"hooks/hooks.json": {Body: `{"hooks":{"SessionStart":[{"matcher":"startup` + h + `[2J]","hooks":[
			{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/s.sh '` + hookArg + h + `'"}]}],
			"Nope` + h + `":[{"hooks":[{"type":"command","command":"x` + h + `"}]}]}}`},
		"hooks/s.sh":            {Body: "#!/bin/sh\n", Mode: 0o755},
		"skills/sk/SKILL.md":    {Body: "---\nname: sk\x1b[2J\u202e\ndescription: skill \x1b]0;t\x07 \u009b2J\u202e text\n---\nbody\n"},
		"skills/bad/SKILL.md":   {Body: "---\nname: \x1b[2J" + strings.Repeat("n", 80) + "\ndescription: d\n---\n"},
		"commands/go.md":        {Body: "---\ndescription: cmd \x1b[2J\u009b\u202e text\nargument-hint: \x1b[1A<x>\n---\nDo $ARGUMENTS\n"},
		"commands/b\u202ead.md": {Body: "---\ndescription: bad name\n---\nx\n"},
		"agents/spy.md": {Body: "---\nname: spy\ndescription: agent \x1b]0;t\x07 \u009b2J text\ntools: Read, Web\x1b[2JFetch\n" +
			"model: son\x1b[2Jnet\ncolor: re\x1b[2Jd\n---\nbody\n"},
		"agents/bad.md": {Body: "---\nname: b\x1b[2J\u202ead\ndescription: bad name\n---\nx\n"},
	}
}

// Everything `ext install/enable/list/show/check/update/rollback/uninstall`
// print, text and --json, stdout and stderr, for a package whose every
// string holds escape sequences and controls, reaches the terminal
// without one raw control character.
func TestExtCommandsPrintNoRawControlCharacters(t *testing.T) {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", probeFiles("one"))
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"probe": r})
	c := newCLI(t, "SSL_CERT_FILE="+srv.CAFile)
	url := srv.URL + "/probe.git"

	var printed []string
	step := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, code := c.run(stdin, args...)
		printed = append(printed, fmt.Sprintf("agentdesk %s (exit %d)\n%s%s", strings.Join(args, " "), code, out, errOut))
		return out + errOut
	}
	if out := step("", "ext", "install", url); !strings.Contains(out, "installed probe") {
		t.Fatalf("install: %s", out)
	}
	step("", "ext", "list")
	step("", "ext", "list", "--json")
	show := step("", "ext", "show", "probe")
	step("", "ext", "show", "probe", "--json")
	step("n\n", "ext", "enable", "probe")
	enable := step("y\n\n", "ext", "enable", "probe")
	r.Commit(t, "main", "v2", probeFiles("two"))
	step("", "ext", "check")
	step("", "ext", "check", "--json")
	update := step("", "ext", "update", "probe")
	step("y\n", "ext", "enable", "probe")
	step("", "ext", "show", "probe")
	step("", "ext", "rollback", "probe")
	step("n\n", "ext", "uninstall", "probe")

	for _, p := range printed {
		if r, found := safetext.FindUnsafe(p); found {
			t.Errorf("raw %U printed by %s", r, p)
		}
	}
	// What is shown is still there, cleaned or made visible.
	for _, want := range []string{"Trust and enable Esc2JProbe?", "will run these commands", `one\\x1b[2J`, `\\u202e`, "agents (the model may hand them tasks; their edits and commands ask as usual): spy"} {
		if !strings.Contains(enable, want) {
			t.Errorf("the trust prompt lacks %q:\n%s", want, enable)
		}
	}
	for _, want := range []string{"Esc2JProbe", "desc2J", "Tok2Jen", "cmd  text", "srv2J", `\u202e`, "agent spy — agent  2J text", "tools: Read, WebFetch", "model: sonnet"} {
		if !strings.Contains(show, want) {
			t.Errorf("ext show lacks %q:\n%s", want, show)
		}
	}
	if !strings.Contains(update, "two") {
		t.Errorf("ext update shows no hook diff:\n%s", update)
	}
}
