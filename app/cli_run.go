package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/agent/tools"
	"github.com/agentdesk/agentdesk/storage"
)

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a, err := parseArgs(args, []string{"project", "session", "approve", "prompt-file"}, []string{"new", "unconfined"})
	if err != nil {
		return fail(stderr, err)
	}
	prompt, answers, err := cliPrompt(a, stdin)
	if err != nil {
		return fail(stderr, err)
	}
	if a.vals["session"] != "" && a.bools["new"] {
		return fail(stderr, errors.New("run: use --session ID or --new, not both"))
	}
	policy, err := cliPolicy(a.vals["approve"])
	if err != nil {
		return fail(stderr, err)
	}
	ctx, stop := notifyShutdown(context.Background())
	defer stop()
	c, err := openCore(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	defer c.close()
	c.unconfined = a.bools["unconfined"]
	if answers != nil {
		defer answers.Close()
	}
	ag := c.newAgent(&cliApprover{in: bufio.NewReader(readerOrEmpty(answers)), out: stderr}, func() agent.Policy { return policy }, nil)
	s, err := openCLISession(ctx, ag, a)
	if err != nil {
		return fail(stderr, err)
	}
	defer s.Close()
	if pid := s.InUse(); pid != 0 { // one writer per session
		return fail(stderr, &storage.InUseError{Session: s.ID(), PID: pid})
	}
	c.openProject(ctx, s.Project(), stderr)
	status := runPrompt(ctx, s, prompt, stdout, stderr)
	endCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), agent.SessionEndBudget)
	defer cancel()
	s.End(endCtx, lifecycle.EndExit) // the run is over: SessionEnd hooks, bounded
	return status
}

// cliPrompt reads the prompt: the arguments, or --prompt-file PATH ("-"
// for stdin), which a prompt longer than one argument may be (the OS caps
// one at 128 KiB). Approval questions are answered on stdin, or, when the
// prompt came from it, on the terminal (/dev/tty); with neither, answers
// is nil and every question is answered no.
func cliPrompt(a cmdArgs, stdin io.Reader) (prompt string, answers io.ReadCloser, err error) {
	answers = io.NopCloser(stdin)
	switch file := a.vals["prompt-file"]; {
	case file != "" && len(a.pos) > 0:
		return "", nil, errors.New("run: give the prompt as arguments or with --prompt-file, not both")
	case file == "-":
		data, err := io.ReadAll(stdin)
		if err != nil {
			return "", nil, fmt.Errorf("run: read the prompt from stdin: %w", err)
		}
		prompt, answers = string(data), nil // without a terminal, questions are denied
		if tty, err := os.Open("/dev/tty"); err == nil {
			answers = tty
		}
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return "", nil, fmt.Errorf("run: %w", err)
		}
		prompt = string(data)
	default:
		prompt = strings.Join(a.pos, " ")
	}
	if prompt = strings.TrimSpace(prompt); prompt == "" {
		return "", nil, errors.New("run: expected a PROMPT (or a host command such as /compact), or --prompt-file PATH")
	}
	return prompt, answers, nil
}

// readerOrEmpty reads r, or nothing (an immediate EOF: a denial) for nil.
func readerOrEmpty(r io.ReadCloser) io.Reader {
	if r == nil {
		return strings.NewReader("")
	}
	return r
}

func cliPolicy(flag string) (agent.Policy, error) {
	switch flag {
	case "", "ask":
		return agent.PolicyAsk, nil
	case "reads":
		return agent.PolicyReadsOnly, nil
	case "all":
		return agent.PolicyNever, nil
	}
	return "", fmt.Errorf("run: --approve must be ask, reads or all, not %q", flag)
}

func openCLISession(ctx context.Context, ag *agent.Agent, a cmdArgs) (*agent.Session, error) {
	if id := a.vals["session"]; id != "" {
		return ag.OpenSession(ctx, id)
	}
	dir := a.vals["project"]
	if dir == "" {
		dir = "."
	}
	p, err := ag.OpenProject(ctx, dir)
	if err != nil {
		return nil, err
	}
	return ag.NewSession(ctx, p)
}

// runPrompt submits the prompt and prints the session's events until it
// is idle: the answer to stdout, everything else to stderr.
func runPrompt(ctx context.Context, s *agent.Session, prompt string, stdout, stderr io.Writer) int {
	p := &cliPrinter{out: stdout, errOut: stderr, session: s.ID()}
	s.Submit(prompt)
	done := make(chan struct{})
	go func() {
		s.WaitIdle(ctx)
		close(done)
	}()
	for {
		select {
		case <-ctx.Done():
			s.Stop()
			s.WaitIdle(context.Background())
			p.drain(s.Bus())
			fmt.Fprintln(stderr, "stopped")
			return signalExitCode(ctx)
		case <-done:
			p.drain(s.Bus())
			fmt.Fprintf(stderr, "session %s (continue with: agentdesk run --session %s PROMPT)\n", s.ID(), s.ID())
			return p.status
		case <-busWake(ctx, s.Bus()):
			p.drain(s.Bus())
		}
	}
}

func busWake(ctx context.Context, b *agent.Bus) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		if b.Wait(ctx) {
			close(ch)
		}
	}()
	return ch
}

// cliPrinter writes a session's events as a terminal transcript.
type cliPrinter struct {
	out, errOut io.Writer
	session     string // the session's own messages go to stdout; its children's are progress, on stderr
	printed     int    // bytes of the streaming answer already written
	status      int
}

func (p *cliPrinter) drain(b *agent.Bus) {
	events, stream := b.Drain()
	for _, e := range events {
		switch {
		case e.Kind == agent.EventEntry:
			p.entry(e.Entry)
		case e.Kind == agent.EventInUse && e.Holder != 0: // taken by another process since it was opened
			p.status = 1
			fmt.Fprintln(p.errOut, "agentdesk:", safetext.Strip(e.Status))
		}
	}
	if stream.Active && stream.Session == p.session && len(stream.Text) > p.printed {
		fmt.Fprint(p.out, safetext.Strip(stream.Text[p.printed:]))
		p.printed = len(stream.Text)
	}
}

func (p *cliPrinter) entry(e agent.Entry) {
	if e.Session != "" && e.Session != p.session {
		p.child(e)
		return
	}
	switch e.Role {
	case llm.RoleAssistant:
		text := e.Message().Text()
		if len(text) > p.printed {
			fmt.Fprint(p.out, safetext.Strip(text[p.printed:]))
		}
		if text != "" {
			fmt.Fprintln(p.out)
		}
		p.printed = 0
		for _, c := range e.Message().ToolCalls() {
			fmt.Fprintf(p.errOut, "▸ %s %s\n", safetext.Visible(c.Name), safetext.Visible(c.Args))
		}
	case llm.RoleTool:
		for _, r := range e.Parts {
			mark := "✓"
			if r.IsError {
				mark = "✗"
			}
			fmt.Fprintf(p.errOut, "  %s %s: %s\n", mark, safetext.Visible(r.Name), safetext.Strip(firstLine(r.Text)))
		}
	case llm.RoleUser:
		if e.Typed != "" {
			fmt.Fprintf(p.errOut, "» %s: the model gets the command's text (%d bytes)\n", safetext.Strip(e.Typed), len(e.Message().Text()))
		}
	case agent.RoleHost:
		p.host(e.Host)
	}
}

func (p *cliPrinter) host(h *agent.Host) {
	if h == nil {
		return
	}
	safe := h.ForDisplay()
	h = &safe
	switch h.Kind {
	case agent.HostError:
		p.status = 1
		fmt.Fprintln(p.errOut, "error:", h.Text)
	case agent.HostStatus:
		fmt.Fprintf(p.errOut, "◆ %s: %s\n", h.Label, h.Text)
	case agent.HostContext:
		fmt.Fprintf(p.errOut, "◇ %s added %s context (%d bytes)\n", h.Source, h.Event, len(h.Text))
	case agent.HostRalph:
		fmt.Fprintf(p.errOut, "▸ Ralph round %d/%d: %s\n", h.Round, h.Rounds, h.Status)
	case agent.HostAgent:
		fmt.Fprintln(p.errOut, agentLine(h))
	default:
		fmt.Fprintln(p.errOut, h.Text)
	}
}

// child prints a child's (a delegated task's, a Ralph round's) progress
// on stderr, indented under its entry: its tool calls and their results,
// the first line of what it says.
func (p *cliPrinter) child(e agent.Entry) {
	switch e.Role {
	case llm.RoleAssistant:
		if text := e.Message().Text(); text != "" {
			fmt.Fprintf(p.errOut, "  │ %s\n", safetext.Strip(firstLine(text)))
		}
		for _, c := range e.Message().ToolCalls() {
			fmt.Fprintf(p.errOut, "  │ ▸ %s %s\n", safetext.Visible(c.Name), safetext.Visible(firstLine(c.Args)))
		}
	case llm.RoleTool:
		for _, r := range e.Parts {
			mark := "✓"
			if r.IsError {
				mark = "✗"
			}
			fmt.Fprintf(p.errOut, "  │   %s %s: %s\n", mark, safetext.Visible(r.Name), safetext.Strip(firstLine(r.Text)))
		}
	}
}

// agentLine is a delegated task's entry: who, what, and how it stands.
func agentLine(h *agent.Host) string {
	line := fmt.Sprintf("▸ agent %s: %s — %s", safetext.Strip(h.Agent), h.Text, h.Status)
	if h.Status != agent.ChildRunning && h.Answer != "" {
		line += ": " + safetext.Strip(firstLine(h.Answer))
	}
	if h.Status == agent.ChildRunning { // the notes once, at the start
		for _, n := range h.Notes {
			line += "\n  (" + safetext.Strip(n) + ")"
		}
	}
	return line
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(line) > 160 {
		line = line[:157] + "..."
	}
	return line
}

// cliApprover asks on the terminal: y = once, a = always this session.
type cliApprover struct {
	mu  sync.Mutex
	in  *bufio.Reader
	out io.Writer
}

func (c *cliApprover) Request(ctx context.Context, req agent.ApprovalRequest) agent.Decision {
	req = req.ForDisplay() // the model or a hook wrote it: shown exactly, escapes visible
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.Agent != "" {
		fmt.Fprintf(c.out, "\n%s (agent %s) wants to run:\n", req.Tool, req.Agent)
	} else {
		fmt.Fprintf(c.out, "\n%s wants to run:\n", req.Tool)
	}
	if req.Forced != "" {
		fmt.Fprintf(c.out, "  (%s)\n", req.Forced)
	}
	printPreview(c.out, req.Preview, req.Summary)
	if req.Original != nil {
		fmt.Fprintln(c.out, "instead of what the model wrote (this does not run):")
		printPreview(c.out, *req.Original, req.OriginalSummary)
	}
	if req.Forced != "" { // an extension asked: this call only
		fmt.Fprint(c.out, "Allow? [y]es once / [N]o: ")
	} else {
		fmt.Fprint(c.out, "Allow? [y]es once / [a]lways this session / [N]o: ")
	}
	answer := make(chan string, 1)
	go func() {
		line, _ := c.in.ReadString('\n')
		answer <- strings.ToLower(strings.TrimSpace(line))
	}()
	select {
	case <-ctx.Done():
		return agent.Deny
	case a := <-answer:
		switch a {
		case "y", "yes":
			return agent.AllowOnce
		case "a", "always":
			if req.Forced != "" {
				return agent.AllowOnce
			}
			return agent.AllowSession
		}
		return agent.Deny
	}
}

// printPreview shows a call exactly as it runs (made safe by
// ApprovalRequest.ForDisplay).
func printPreview(out io.Writer, p tools.Preview, summary string) {
	switch {
	case p.Command != "":
		fmt.Fprintf(out, "  %s\n  in %s\n", p.Command, p.Dir)
	case p.Diff != "":
		fmt.Fprintln(out, p.Diff)
	default:
		fmt.Fprintf(out, "  %s\n", summary)
	}
}

func cmdSessions(args []string, stdout, stderr io.Writer) int {
	a, err := parseArgs(args, []string{"project"}, []string{"json"})
	if err != nil {
		return fail(stderr, err)
	}
	ctx := context.Background()
	c, err := openReadOnlyCore(ctx, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	defer c.close()
	dir := a.vals["project"]
	if dir == "" {
		dir = "."
	}
	ag := c.newAgent(nil, nil, nil)
	p, err := ag.OpenProject(ctx, dir)
	if err != nil {
		return fail(stderr, err)
	}
	list, err := ag.Sessions(ctx, p)
	if err != nil {
		return fail(stderr, err)
	}
	if a.bools["json"] {
		type row struct {
			ID      string `json:"id"`
			Title   string `json:"title"`
			Created string `json:"created_at"`
			Updated string `json:"updated_at"`
		}
		rows := []row{}
		for _, s := range list {
			rows = append(rows, row{s.ID, s.Title, s.CreatedAt.Format(timeLayout), s.UpdatedAt.Format(timeLayout)})
		}
		if err := writeJSON(stdout, map[string]any{"project": p.Path, "sessions": rows}); err != nil {
			return fail(stderr, err)
		}
		return 0
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tUPDATED\tTITLE")
	for _, s := range list {
		// The title is the first line of a prompt: escapes and bidi controls made visible.
		fmt.Fprintf(w, "%s\t%s\t%s\n", s.ID, s.UpdatedAt.Format("2006-01-02 15:04"), safetext.Visible(s.Title))
	}
	w.Flush()
	return 0
}

const timeLayout = "2006-01-02T15:04:05Z07:00"
