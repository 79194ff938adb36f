package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// approvalDialogs shows tool approval requests one at a time, in the main
// window: Allow once, Always allow for this session, Deny, and for a
// confined command Run unconfined. Extensions can
// never answer them, and neither can a keystroke meant for something else:
// no button is the default, no plain key (Enter, Space, letters) allows,
// every key is ignored for keyGuard after the dialog appears (it may pop
// up while the user is typing), Allow takes a click or Ctrl/Cmd+Enter,
// and Esc denies.
type approvalDialogs struct {
	c       *chatView
	queue   []agent.ApprovalRequest
	current *agent.ApprovalRequest
	dlg     dialog.Dialog
	prevKey func(*fyne.KeyEvent)
	shownAt time.Time
	now     func() time.Time // a clock seam for tests; time.Now when nil
}

// keyGuard is how long after an approval dialog appears keys are ignored.
const keyGuard = 500 * time.Millisecond

// allowShortcut is Ctrl+Enter (Cmd+Enter on macOS): the only key that
// allows a call.
var allowShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}

func (a *approvalDialogs) clock() time.Time {
	if a.now != nil {
		return a.now()
	}
	return time.Now()
}

// keysArmed reports whether the guard time has passed.
func (a *approvalDialogs) keysArmed() bool { return a.clock().Sub(a.shownAt) >= keyGuard }

func (a *approvalDialogs) show(req agent.ApprovalRequest) {
	a.queue = append(a.queue, req)
	if a.current == nil {
		a.next()
	}
}

func (a *approvalDialogs) next() {
	if len(a.queue) == 0 {
		a.current = nil
		return
	}
	req := a.queue[0]
	a.queue = a.queue[1:]
	a.current = &req
	shown := req.ForDisplay()
	title := "Allow " + toolName(shown.Tool) + "?"
	if shown.Agent != "" { // a delegated task's call: same rules, and who asks
		title = "Allow " + toolName(shown.Tool) + " for agent " + shown.Agent + "?"
	}
	a.dlg = dialog.NewCustomWithoutButtons(title, a.content(req), a.c.u.main)
	height := float32(480)
	if req.Original != nil {
		height = 600 // the rewrite and the original, both in full
	}
	a.dlg.Resize(fyne.NewSize(720, height))
	canvas := a.c.u.main.Canvas()
	a.prevKey = canvas.OnTypedKey()
	canvas.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape && a.keysArmed() {
			a.answer(agent.Deny)
		}
	})
	canvas.AddShortcut(allowShortcut, func(fyne.Shortcut) {
		if a.keysArmed() {
			a.answer(agent.AllowOnce)
		}
	})
	canvas.Unfocus()
	a.shownAt = a.clock()
	a.dlg.Show()
}

func (a *approvalDialogs) content(req agent.ApprovalRequest) fyne.CanvasObject {
	req = req.ForDisplay() // the model or a hook wrote it: shown exactly, escapes visible
	summary := &widget.Label{Text: req.Summary, Wrapping: fyne.TextWrapWord, TextStyle: fyne.TextStyle{Bold: true}}
	top := container.NewVBox(summary)
	if req.Forced != "" {
		// An extension's PreToolUse hook asked or rewrote the call: say so,
		// and offer no "always", which would outlive this one call.
		top.Add(&widget.Label{Text: req.Forced, Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance})
	}
	detail := previewDetail(req.Preview)
	if req.Original != nil {
		detail = container.NewVScroll(container.NewVBox(
			&widget.Label{Text: "What runs if you allow it (the extension's rewrite):", TextStyle: fyne.TextStyle{Bold: true}},
			previewDetail(req.Preview),
			&widget.Label{Text: "Instead of what the model wrote (this does not run):", TextStyle: fyne.TextStyle{Bold: true}},
			originalDetail(*req.Original, req.OriginalSummary)))
	}
	buttons := container.NewHBox(&widget.Button{Text: "Deny", OnTapped: func() { a.answer(agent.Deny) }})
	if req.Forced == "" {
		if req.ProposedRule != "" {
			editor := a.ruleEditor(req)
			top.Add(editor)
			buttons.Add(newClickOnlyButton("Always allow in this project…", widget.MediumImportance, editor.Show))
		}
		buttons.Add(newClickOnlyButton("Always allow for this session", widget.MediumImportance, func() { a.answer(agent.AllowSession) }))
	}
	if req.CanRunUnconfined {
		// Its own explicit choice, beside Allow once and never "always":
		// only this call leaves the sandbox, and no key chooses it.
		buttons.Add(newClickOnlyButton("Run unconfined", widget.DangerImportance, func() { a.answer(agent.RunUnconfined) }))
		top.Add(&widget.Label{Text: "Allow once runs it in the sandbox (no access to ~/.ssh and other secrets, writes only in the project). Run unconfined gives this one command your full account.", Wrapping: fyne.TextWrapWord})
	}
	buttons.Add(newClickOnlyButton("Allow once", widget.WarningImportance, func() { a.answer(agent.AllowOnce) }))
	hint := &widget.Label{Text: shortcutName() + "+Enter = Allow once · Esc = Deny · Stop denies and ends the turn"}
	return container.NewBorder(top, container.NewVBox(hint, container.NewHBox(layoutSpacer(), buttons)), nil, nil, detail)
}

// ruleEditor is the hidden row "Always allow in this project…" opens:
// the proposed rule, editable, saved as the user's own rule for the
// project (in AgentDesk's database, never the project's .claude/) before
// this call is allowed once; later calls it covers no longer ask.
func (a *approvalDialogs) ruleEditor(req agent.ApprovalRequest) *fyne.Container {
	entry := &widget.Entry{Text: req.ProposedRule}
	entry.ExtendBaseWidget(entry)
	problem := &widget.Label{Wrapping: fyne.TextWrapWord, Importance: widget.DangerImportance}
	problem.Hide()
	save := newClickOnlyButton("Save rule and allow", widget.WarningImportance, func() {
		if err := a.c.u.d.Agent.AllowInProject(context.Background(), req, entry.Text); err != nil {
			problem.SetText("Not saved: " + err.Error())
			problem.Show()
			return
		}
		a.answer(agent.AllowOnce)
	})
	intro := "Allow in this project from now on (Claude Code rule syntax; edit before saving). Preferences → Approvals lists and removes it."
	if req.MCPServer != "" {
		intro += " It covers only the tools of " + agent.MCPServerName(req.MCPServer) +
			": a server of the same name in another extension still asks."
	}
	editor := container.NewVBox(&widget.Label{Text: intro, Wrapping: fyne.TextWrapWord},
		container.NewBorder(nil, nil, nil, save, entry), problem)
	editor.Hide()
	return editor
}

// originalDetail shows the call a hook rewrote, compactly: its command
// or diff, else its summary line.
func originalDetail(p tools.Preview, summary string) fyne.CanvasObject {
	switch {
	case p.Command != "":
		return monoBlock(p.Command)
	case p.Diff != "":
		return diffBlock(p.Diff)
	}
	return &widget.Label{Text: summary, Wrapping: fyne.TextWrapWord}
}

// previewDetail shows what a call does: the exact command, the diff of an
// edit, or the tool's own line.
func previewDetail(p tools.Preview) fyne.CanvasObject {
	switch {
	case p.Command != "":
		return container.NewVBox(
			widget.NewLabel("Command (runs exactly as shown):"),
			monoBlock(p.Command),
			widget.NewLabel(fmt.Sprintf("Working directory: %s", p.Dir)))
	case p.Diff != "":
		return container.NewVScroll(diffBlock(p.Diff))
	}
	return &widget.Label{Text: p.Detail, Wrapping: fyne.TextWrapWord}
}

func (a *approvalDialogs) answer(d agent.Decision) {
	if a.current == nil {
		return
	}
	id := a.current.ID
	a.close()
	a.c.u.d.Approvals.Answer(id, d)
	a.next()
}

// withdraw closes the dialog of a request whose turn was stopped.
func (a *approvalDialogs) withdraw(id int64) {
	for i, q := range a.queue {
		if q.ID == id {
			a.queue = append(a.queue[:i], a.queue[i+1:]...)
			return
		}
	}
	if a.current != nil && a.current.ID == id {
		a.close()
		a.next()
	}
}

func (a *approvalDialogs) close() {
	a.current = nil
	if a.dlg != nil {
		a.dlg.Hide()
		a.dlg = nil
	}
	canvas := a.c.u.main.Canvas()
	canvas.SetOnTypedKey(a.prevKey)
	canvas.RemoveShortcut(allowShortcut)
}

// clickOnlyButton is a button no key presses: focused by Tab, Space or
// Enter would otherwise tap it. Allowing a tool call takes a click.
type clickOnlyButton struct{ widget.Button }

func newClickOnlyButton(text string, importance widget.Importance, tapped func()) *clickOnlyButton {
	b := &clickOnlyButton{}
	b.Text, b.Importance, b.OnTapped = text, importance, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey ignores Space and Enter.
func (b *clickOnlyButton) TypedKey(*fyne.KeyEvent) {}

// shortcutName is the platform's shortcut modifier key.
func shortcutName() string {
	if fyne.KeyModifierShortcutDefault == fyne.KeyModifierSuper {
		return "Cmd"
	}
	return "Ctrl"
}
