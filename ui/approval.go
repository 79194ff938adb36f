package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
)

// approvalDialogs shows tool approval requests one at a time, in the main
// window: Allow once (Enter), Always allow for this session, Deny (Esc).
// Extensions can never answer them.
type approvalDialogs struct {
	c       *chatView
	queue   []agent.ApprovalRequest
	current *agent.ApprovalRequest
	dlg     dialog.Dialog
	prevKey func(*fyne.KeyEvent)
}

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
	a.dlg = dialog.NewCustomWithoutButtons("Allow "+req.Tool+"?", a.content(req), a.c.u.main)
	a.dlg.Resize(fyne.NewSize(720, 480))
	canvas := a.c.u.main.Canvas()
	a.prevKey = canvas.OnTypedKey()
	canvas.SetOnTypedKey(func(k *fyne.KeyEvent) {
		switch k.Name {
		case fyne.KeyReturn, fyne.KeyEnter:
			a.answer(agent.AllowOnce)
		case fyne.KeyEscape:
			a.answer(agent.Deny)
		}
	})
	canvas.Unfocus()
	a.dlg.Show()
}

func (a *approvalDialogs) content(req agent.ApprovalRequest) fyne.CanvasObject {
	p := req.Preview
	summary := &widget.Label{Text: req.Summary, Wrapping: fyne.TextWrapWord, TextStyle: fyne.TextStyle{Bold: true}}
	var detail fyne.CanvasObject
	switch {
	case p.Command != "":
		detail = container.NewVBox(
			widget.NewLabel("Command (runs exactly as shown):"),
			monoBlock(p.Command),
			widget.NewLabel(fmt.Sprintf("Working directory: %s", p.Dir)))
	case p.Diff != "":
		detail = container.NewVScroll(diffBlock(p.Diff))
	default:
		detail = &widget.Label{Text: p.Detail, Wrapping: fyne.TextWrapWord}
	}
	buttons := container.NewHBox(
		&widget.Button{Text: "Deny", OnTapped: func() { a.answer(agent.Deny) }},
		&widget.Button{Text: "Always allow for this session", OnTapped: func() { a.answer(agent.AllowSession) }},
		&widget.Button{Text: "Allow once", Importance: widget.HighImportance, OnTapped: func() { a.answer(agent.AllowOnce) }},
	)
	hint := &widget.Label{Text: "Enter = Allow once · Esc = Deny · Stop denies and ends the turn", Importance: widget.LowImportance}
	return container.NewBorder(summary, container.NewVBox(hint, container.NewHBox(layoutSpacer(), buttons)), nil, nil, detail)
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
	a.c.u.main.Canvas().SetOnTypedKey(a.prevKey)
}
