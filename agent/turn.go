package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/permissions"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// maxTitleRunes bounds a session title taken from its first prompt.
const maxTitleRunes = 60

// turn runs one real user prompt: UserPromptSubmit first (its context
// joins this very message), then the model and tools until the model
// answers without tool calls.
func (s *Session) turn(ctx context.Context, prompt string) {
	sent, expansion, ok := s.expandCommand(ctx, prompt) // "/x args": the model gets the extension command's body
	if !ok {
		return
	}
	s.setTitle(ctx, prompt)
	s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID, Status: "running UserPromptSubmit hooks…"})
	res := s.a.cfg.Lifecycle.UserPromptSubmit(s.reporting(ctx), lifecycle.PromptEvent{SessionID: s.info.ID, ProjectDir: s.project,
		TranscriptPath: s.transcriptPath(), PermissionMode: s.permissionMode(), Prompt: prompt})
	s.bus.Publish(Event{Kind: EventStatus, Session: s.info.ID})
	s.notices(ctx, res.Notices)
	parts := append(contextParts(s.budget(ctx, append(expansion, res.Blocks...))), llm.Part{Kind: llm.PartText, Text: sent})
	user, err := s.append(ctx, s.main, Entry{Role: llm.RoleUser, Parts: parts, Tokens: estimateParts(parts), Typed: typedText(prompt, sent)})
	if err != nil {
		s.fail(ctx, err)
		return
	}
	defer s.freezeWindow()()
	defer s.freezeMCP(ctx)()
	s.useStyle(ctx)
	if _, err := s.converse(ctx, s.main, s.system, user.Seq); err != nil {
		if !s.answered(user.Seq) {
			s.failUnsent(ctx, err, user.Seq, prompt)
			return
		}
		s.fail(ctx, err)
		return
	}
	if err := s.stopHooks(ctx); err != nil {
		s.fail(ctx, err)
	}
}

func (s *Session) setTitle(ctx context.Context, prompt string) {
	s.mu.Lock()
	done := s.titleSet
	s.titleSet = true
	s.mu.Unlock()
	if done {
		return
	}
	title := strings.TrimSpace(strings.SplitN(prompt, "\n", 2)[0])
	if r := []rune(title); len(r) > maxTitleRunes {
		title = string(r[:maxTitleRunes-1]) + "…"
	}
	if err := s.a.cfg.DB.RenameSession(context.WithoutCancel(ctx), s.info.ID, title); err != nil {
		s.a.log.Error("title session", "session", s.info.ID, "err", err)
		return
	}
	s.mu.Lock()
	s.info.Title = title
	s.mu.Unlock()
	s.bus.Publish(Event{Kind: EventTitle, Session: s.info.ID})
}

// Title is the session's title.
func (s *Session) Title() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info.Title
}

// fail records why a job ended early.
func (s *Session) fail(ctx context.Context, err error) {
	s.bus.EndStream()
	if errors.Is(err, context.Canceled) {
		s.host(ctx, Host{Kind: HostStopped, Text: "Stopped."})
		return
	}
	s.host(ctx, Host{Kind: HostError, Text: err.Error()})
}

// answered reports whether anything answered the user message at seq.
func (s *Session) answered(seq int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.main.entries {
		if e.Seq > seq && (e.Role == llm.RoleAssistant || e.Role == llm.RoleTool) {
			return true
		}
	}
	return false
}

// failUnsent ends a turn whose prompt the model never answered: the
// prompt goes back to the composer and leaves the conversation.
func (s *Session) failUnsent(ctx context.Context, err error, seq int64, prompt string) {
	s.bus.EndStream()
	h := Host{Kind: HostError, Text: err.Error(), Unsent: seq, Prompt: prompt}
	if errors.Is(err, context.Canceled) {
		h.Kind, h.Text = HostStopped, "Stopped before an answer; the prompt is back in the box."
	}
	s.host(ctx, h)
}

// converse calls the model on th until it stops asking for tools.
// turnStart is the seq of the turn's user message: automatic compaction
// keeps the turn and summarises what came before it (0: never compact,
// as in Ralph rounds).
func (s *Session) converse(ctx context.Context, th *thread, system func() string, turnStart int64) (llm.Message, error) {
	prov, cfg, err := s.a.cfg.Provider()
	if err != nil {
		return llm.Message{}, err
	}
	cfg = cfg.WithDefaults()
	if th.model != "" {
		cfg.Model = th.model
	}
	steps := maxStepsPerTurn
	if th.maxSteps > 0 {
		steps = th.maxSteps
	}
	compacted := false
	box := s.toolboxFor(ctx, th)
	for step := 0; step < steps; step++ {
		req := llm.Request{Model: cfg.Model, System: system(), Messages: s.messages(th), Tools: box.Specs(), MaxTokens: cfg.MaxTokens}
		est := estimateRequest(req)
		if turnStart > 0 && !compacted && est >= int(s.a.cfg.CompactThreshold*float64(cfg.ContextWindow)) {
			compacted = true
			if err := s.compact(ctx, turnStart, compaction{why: "the context reached its threshold", trigger: lifecycle.CompactAuto}); err != nil {
				return llm.Message{}, err
			}
			continue
		}
		if est >= cfg.ContextWindow {
			return llm.Message{}, tooLarge(est, cfg.ContextWindow)
		}
		resp, err := s.stream(ctx, th, prov, cfg, req)
		if llm.IsKind(err, llm.ErrContextOverflow) && turnStart > 0 && !compacted {
			compacted = true
			if err := s.compact(ctx, turnStart, compaction{why: "the model reported a context overflow", trigger: lifecycle.CompactAuto}); err != nil {
				return llm.Message{}, err
			}
			continue
		}
		if err != nil {
			return llm.Message{}, err
		}
		calls := resp.Message.ToolCalls()
		if len(calls) == 0 {
			return resp.Message, nil
		}
		if err := s.runTools(ctx, th, box, calls); err != nil {
			return llm.Message{}, err
		}
	}
	if th != s.main {
		return llm.Message{}, fmt.Errorf("%s stopped after %d model calls, its limit", th.agentType, steps)
	}
	return llm.Message{}, fmt.Errorf("stopped after %d model calls in one turn; send a new prompt to continue", steps)
}

// stream makes one model call, streaming deltas to the bus, and stores the
// assistant message (the partial text too when the call is cut short).
// How the call finished is honoured here, once for both wire formats
// (see finish.go).
func (s *Session) stream(ctx context.Context, th *thread, prov llm.Provider, cfg llm.Config, req llm.Request) (llm.Response, error) {
	var partial strings.Builder
	began := time.Now()
	wait := waitingStatus{s: s, th: th, began: began}
	resp, err := prov.Stream(ctx, req, func(d llm.Delta) {
		if d.Kind == llm.DeltaWaiting {
			wait.keepalive()
			return
		}
		wait.answering()
		if d.Kind == llm.PartText {
			partial.WriteString(d.Text)
		}
		s.bus.Delta(th.session, d)
	})
	wait.answering()
	if err == nil && resp.Stop == llm.StopError {
		err = finishFailed(cfg, req, resp)
	}
	if err != nil {
		if partial.Len() > 0 {
			s.append(ctx, th, Entry{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: partial.String()}}})
		}
		s.bus.EndStream()
		return resp, err
	}
	dropped := 0
	if resp.Stop == llm.StopTruncated {
		dropped = len(resp.Message.ToolCalls())
		resp.Message = withoutToolCalls(resp.Message)
	}
	ensureCallIDs(&resp.Message)
	tokens := resp.Usage.OutputTokens
	if tokens == 0 {
		tokens = estimateParts(resp.Message.Parts)
	}
	if _, err := s.append(ctx, th, Entry{Role: llm.RoleAssistant, Parts: resp.Message.Parts, Tokens: tokens}); err != nil {
		return resp, err
	}
	if resp.Stop == llm.StopTruncated {
		s.truncatedNotice(ctx, cfg, resp, dropped)
	}
	s.meter(req, resp, cfg, time.Since(began))
	return resp, nil
}

// ensureCallIDs names tool calls a server left anonymous, so results can
// refer to them.
func ensureCallIDs(m *llm.Message) {
	for i := range m.Parts {
		if m.Parts[i].Kind == llm.PartToolCall && m.Parts[i].CallID == "" {
			m.Parts[i].CallID = fmt.Sprintf("call_%s_%d", newID(), i)
		}
	}
}

func (s *Session) meter(req llm.Request, resp llm.Response, cfg llm.Config, took time.Duration) {
	u := Usage{ContextWindow: cfg.ContextWindow}
	u.ContextTokens = resp.Usage.InputTokens + resp.Usage.OutputTokens
	if resp.Usage.InputTokens == 0 {
		u.ContextTokens = estimateRequest(req) + estimateParts(resp.Message.Parts)
	}
	out := resp.Usage.OutputTokens
	if out == 0 {
		out = estimateParts(resp.Message.Parts)
	}
	if took > 0 {
		u.TokensPerSec = float64(out) / took.Seconds()
	}
	s.mu.Lock()
	u.MCP = s.mcpCount
	s.usage = u
	s.mu.Unlock()
	s.bus.Publish(Event{Kind: EventUsage, Session: s.info.ID, Usage: u})
}

// runTools runs one batch of tool calls in order. Each result is stored
// the moment its call ends, as a tool message of its own (the wire
// formats join consecutive ones), so a crash mid batch loses no finished
// result; see repairInterrupted for the calls it cut short. A denial
// stops the rest of the batch; every call still gets a result the model
// can read.
func (s *Session) runTools(ctx context.Context, th *thread, box *toolbox, calls []llm.Part) error {
	stopped := ""
	for _, call := range calls {
		var res tools.Result
		switch {
		case ctx.Err() != nil:
			res = tools.Result{Text: "not run: the user stopped the turn", IsError: true}
		case stopped != "":
			res = tools.Result{Text: "not run: " + stopped, IsError: true}
		default:
			var denied bool
			res, denied = s.runTool(ctx, th, box, call)
			if denied {
				stopped = "the user denied an earlier call in this batch"
			}
		}
		result := []llm.Part{{Kind: llm.PartToolResult, CallID: call.CallID, Name: call.Name, Text: res.Text, IsError: res.IsError}}
		if _, err := s.append(ctx, th, Entry{Role: llm.RoleTool, Parts: result, Tokens: estimateParts(result)}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (s *Session) runTool(ctx context.Context, th *thread, box *toolbox, call llm.Part) (tools.Result, bool) {
	tool, ok := box.Lookup(call.Name)
	if !ok {
		return tools.Result{Text: fmt.Sprintf("unknown tool %q", call.Name), IsError: true}, false
	}
	args := []byte(call.Args)
	if len(strings.TrimSpace(call.Args)) == 0 {
		args = []byte("{}")
	}
	preview, err := tool.Preview(args)
	if err != nil {
		return tools.Result{Text: "invalid arguments: " + err.Error(), IsError: true}, false
	}
	g, denied := s.preToolUse(ctx, th, box, tool, call, args, preview)
	if denied != nil {
		return withFeedback(*denied, g.context), false
	}
	ok, unconfined, refused := s.approved(ctx, th, box, tool, call.Name, g)
	if refused != nil {
		return withFeedback(*refused, g.context), false
	}
	if !ok {
		if ctx.Err() != nil {
			return tools.Result{Text: "not run: the user stopped the turn", IsError: true}, true
		}
		return tools.Result{Text: "denied: the user did not allow this call", IsError: true}, true
	}
	s.status(th, "running "+box.Describe(call.Name, g.args))
	runCtx := ctx
	if unconfined {
		runCtx = tools.WithUnconfined(ctx) // this call only: the user chose "Run unconfined"
	}
	res := s.touchedFile(ctx, call.Name, g.args, tool.Run(runCtx, g.args))
	s.status(th, "")
	return s.postToolUse(ctx, th, tool, call.Name, call.CallID, g, res), false
}

// approved applies the policy, the session's always-allow grants, and
// otherwise asks the user. A call a hook forced to ask (g.forced) skips
// the policy and the grants: it asks, or with nobody to ask it is
// refused; and its answer grants nothing beyond this call. A
// PermissionRequest hook that denies answers instead of the user: refused
// is then the call's result. unconfined is true only when the user
// answered "Run unconfined" to this very call; no policy, grant or rule
// ever lifts the sandbox.
func (s *Session) approved(ctx context.Context, th *thread, box *toolbox, tool tools.Tool, name string, g guardedCall) (ok, unconfined bool, refused *tools.Result) {
	kind := tool.Kind()
	rule, refused := s.ruleVerdict(ctx, tool, name, g.args)
	if refused != nil {
		return false, false, refused // a deny rule holds under every policy and grant
	}
	if why := guardsTheGuards(kind, g.args); why != "" && g.forced == "" {
		g.forced = why
	}
	switch {
	case g.forced != "":
	case rule.Behavior == permissions.Ask:
		g.forced = "A permission rule asks for this call: " + rule.Rule.Text + " (" + string(rule.Rule.Source) + ")."
	case rule.Behavior == permissions.Allow:
		return true, false, nil // an allow rule the user saved (or a trusted project's)
	}
	if g.forced == "" && kind == tools.Command && name == "run_command" && s.commandsConfined() &&
		s.a.ProjectSandbox(ctx, s.info.ProjectID).ConfinedAutoAllow && s.a.cfg.Policy() != PolicyReadsOnly {
		return true, false, nil // the project's "Confined commands run without asking"
	}
	policy := s.a.cfg.Policy()
	key := grantKeyOf(tool, kind, name, g.preview)
	if g.forced == "" {
		switch {
		case kind == tools.ReadOnly, policy == PolicyNever, policy == PolicyAutoEdits && kind == tools.Edit:
			return true, false, nil
		case policy == PolicyReadsOnly:
			return false, false, nil
		case s.grants.has(key):
			return true, false, nil
		}
	} else if policy == PolicyReadsOnly && kind != tools.ReadOnly {
		return false, false, nil
	}
	if s.a.cfg.Approver == nil {
		return false, false, nil
	}
	if refused := s.permissionRequest(ctx, th, box, name, g); refused != nil {
		return false, false, refused
	}
	s.approvalWaits(name)
	d := s.a.cfg.Approver.Request(ctx, ApprovalRequest{Session: th.session, Agent: th.agentType, Tool: name,
		Summary: box.Describe(name, g.args), Preview: g.preview,
		Forced: g.forced, Original: g.original, OriginalSummary: g.originalSummary,
		ProjectID: s.info.ProjectID, ProposedRule: s.proposedRule(name, g), MCPServer: mcpServerOf(tool),
		CanRunUnconfined: kind == tools.Command && name == "run_command" && s.commandsConfined()})
	if d == AllowSession && g.forced == "" {
		s.grants.add(key)
	}
	ok = d != Deny && ctx.Err() == nil
	return ok, ok && d == RunUnconfined && kind == tools.Command, nil
}

// commandsConfined reports whether run_command runs in the sandbox, so
// that running one call unconfined is a choice worth offering.
func (s *Session) commandsConfined() bool {
	confined, _ := childproc.SandboxStatus()
	return confined && !s.a.cfg.CommandsUnconfined
}

// Token estimates: about four bytes a token for code and English, which
// is what the meter and the compaction threshold need; provider-reported
// usage replaces it where available.
func estimateText(s string) int { return (len(s) + 3) / 4 }

func estimateParts(parts []llm.Part) int {
	n := 0
	for _, p := range parts {
		n += estimateText(p.Text) + estimateText(p.Args) + 4
	}
	return n
}

func estimateRequest(req llm.Request) int {
	n := estimateText(req.System)
	for _, m := range req.Messages {
		n += estimateParts(m.Parts) + 4
	}
	for _, t := range req.Tools {
		n += estimateText(t.Description) + estimateText(string(t.Parameters))
	}
	return n
}
