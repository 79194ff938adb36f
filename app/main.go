// Command agentdesk is the AgentDesk desktop app and its command line:
// with no arguments it opens the window; subcommands drive the same agent
// loop and extension manager headless.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/app/internal/quietinit"
	"github.com/agentdesk/agentdesk/ui"
)

// version is the AgentDesk version; FyneApp.toml carries the same number
// (a test keeps them equal).
const version = "0.1.0"

const usage = `AgentDesk — a desktop home for AI coding agents.

Usage:
  agentdesk                      open the app
  agentdesk --preferences [SECTION]
                                 open the app with Preferences at a section
                                 (Providers, Approvals, "Agent Extensions", Skills, Agents, Advanced)
  agentdesk run [--project DIR] [--session ID|--new] [--approve ask|reads|all] [--unconfined] PROMPT|--prompt-file PATH|-
                                 run one prompt (or /compact, /ralph …) headless;
                                 --unconfined lifts the sandbox from run_command
                                 (--approve never does)
  agentdesk sessions [--project DIR] [--json]
                                 list a project's sessions
  agentdesk ext install URL [--ref REF] [--plugin NAME]...
  agentdesk ext list [--json]
  agentdesk ext show ID [--json]
  agentdesk ext enable ID [--project DIR] [--yes] [--config KEY=VALUE]...
                                 enable everywhere, or with --project only in
                                 DIR (adds DIR to the projects it is enabled in)
  agentdesk ext disable ID [--project DIR]
                                 disable, or take DIR out of its projects
                                 (the last one out disables it)
  agentdesk ext tool ID SERVER TOOL on|off
                                 switch one MCP tool on or off
  agentdesk ext check [ID...] [--json]
  agentdesk ext update ID [--ref REF] [--yes]
  agentdesk ext rollback ID
  agentdesk ext uninstall ID [--yes]
  agentdesk ext review ID [--yes]
  agentdesk ext sandbox ID on|off [--yes]
                                 off lets its hooks and servers run unconfined (asks first)
  agentdesk project show [DIR] [--json]
                                 the folder's own Claude Code settings and their trust
  agentdesk project trust [DIR] [--yes]
                                 shows what will run, then trusts the folder
  agentdesk project untrust [DIR]
  agentdesk project review [DIR] [--yes]
                                 MCP tools of the folder's own servers that
                                 changed since they were first listed
  agentdesk version
  agentdesk help

Environment: AGENTDESK_HOME puts all data under one folder;
AGENTDESK_PROVIDER (openai|anthropic), AGENTDESK_BASE_URL, AGENTDESK_MODEL
and AGENTDESK_API_KEY override the provider settings.
`

func main() {
	quietinit.Restore()
	if err := hardenProcess(); err != nil {
		// Not fatal: the app works, only /proc/<pid>/environ stays open.
		fmt.Fprintln(os.Stderr, "agentdesk: warning:", err)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runGUI("", stderr)
	}
	switch args[0] {
	case "--preferences":
		section := ui.Sections()[0]
		if len(args) > 1 {
			var ok bool
			if section, ok = ui.SectionNamed(args[1]); !ok {
				fmt.Fprintf(stderr, "agentdesk: no Preferences section %q; the sections are: %s\n", args[1], strings.Join(ui.Sections(), ", "))
				return 2
			}
		}
		return runGUI(section, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "agentdesk", version)
		_, sandbox := childproc.SandboxStatus()
		fmt.Fprintln(stdout, "sandbox:", sandbox)
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return 0
	case "run":
		return cmdRun(args[1:], stdin, stdout, stderr)
	case "sessions":
		return cmdSessions(args[1:], stdout, stderr)
	case "ext":
		return cmdExt(args[1:], stdin, stdout, stderr)
	case "project":
		return cmdProject(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "agentdesk: unknown command %q (see agentdesk help)\n", args[0])
	return 2
}

// fail prints a one-line reason and returns the exit status for it. A
// reason may quote a package, a hook or a server: it is made safe first.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "agentdesk:", safetext.Strip(err.Error()))
	return 1
}
