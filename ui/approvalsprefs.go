package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/safetext"
)

// policyLabels are the approval policies as the Approvals section offers
// them, safest first.
var policyLabels = []struct {
	policy agent.Policy
	label  string
}{
	{agent.PolicyAsk, "Ask before every edit and command"},
	{agent.PolicyAutoEdits, "Allow edits inside the project; ask for commands"},
	{agent.PolicyNever, "Never ask (the agent runs everything)"},
}

// approvalsPane is Preferences › Approvals: when the agent asks before a
// tool call. A choice is saved at once and applies from the next call.
type approvalsPane struct {
	u       *UI
	policy  *widget.RadioGroup
	notify  *widget.Check
	rules   *fyne.Container // each project's permission rules
	status  *widget.Label
	loading bool // set while shown() fills the choice: no save
}

func newApprovalsPane(u *UI) *approvalsPane { return &approvalsPane{u: u} }

func (a *approvalsPane) buildUI() fyne.CanvasObject {
	var labels []string
	for _, l := range policyLabels {
		labels = append(labels, l.label)
	}
	a.policy = &widget.RadioGroup{Options: labels, Required: true, OnChanged: a.onChanged}
	a.status = &widget.Label{Wrapping: fyne.TextWrapWord}
	intro := newSecondaryLabel("The agent asks before the tool calls you choose here: the dialog shows the diff of an edit or the exact command, "+
		"and offers Allow once, Always allow for this session, and Deny. Extensions can never approve anything.", fyne.TextWrapWord)
	a.notify = &widget.Check{Text: "Show desktop notifications", OnChanged: a.onNotify}
	notifyNote := newSecondaryLabel("When an approval waits, or an answer is ready, while AgentDesk is in the background. "+
		"Extensions' Notification hooks run at those moments whether or not this is on.", fyne.TextWrapWord)
	a.rules = container.NewVBox()
	rulesNote := newSecondaryLabel("Rules in Claude Code's syntax decide before the dialog: deny beats ask beats allow. "+
		"Yours are saved by \"Always allow in this project\" in AgentDesk, never in the project; "+
		"a project's own allow and ask rules wait for folder trust, its deny rules always apply.", fyne.TextWrapWord)
	return container.NewVScroll(container.NewVBox(widget.NewLabelWithStyle(sectionApprovals, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		intro, a.policy, widget.NewSeparator(),
		widget.NewLabelWithStyle("Notifications", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), a.notify, notifyNote, widget.NewSeparator(),
		widget.NewLabelWithStyle("Permission rules", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), rulesNote, a.rules, a.status))
}

// loadRules fills the rules list: each project's, with their source;
// the user's own are removable.
func (a *approvalsPane) loadRules() {
	background(a.u, a.u.d.Agent.PermissionRules, func(projects []agent.ProjectRules, err error) {
		a.rules.RemoveAll()
		if err != nil {
			a.rules.Add(&widget.Label{Text: "Rules not read: " + err.Error(), Importance: widget.DangerImportance, Wrapping: fyne.TextWrapWord})
			return
		}
		if len(projects) == 0 {
			a.rules.Add(newSecondaryLabel("No project has rules yet.", fyne.TextWrapWord))
		}
		for _, p := range projects {
			a.rules.Add(&widget.Label{Text: p.Project.Path, TextStyle: fyne.TextStyle{Bold: true}, Truncation: fyne.TextTruncateEllipsis})
			for _, r := range p.Rules {
				a.rules.Add(a.ruleRow(r))
			}
			for _, d := range p.Diagnostics {
				a.rules.Add(&widget.Label{Text: d, Importance: widget.WarningImportance, Wrapping: fyne.TextWrapWord})
			}
		}
	})
}

func (a *approvalsPane) ruleRow(r agent.ListedRule) fyne.CanvasObject {
	source := string(r.Source)
	if r.Waits {
		source += " · waits for folder trust"
	}
	if len(r.Servers) > 0 {
		var names []string
		for _, s := range r.Servers {
			names = append(names, agent.MCPServerName(s))
		}
		source += " · only " + strings.Join(names, ", ")
	}
	text := &widget.Label{Text: string(r.Behavior) + "  " + safetext.Visible(r.Rule), TextStyle: fyne.TextStyle{Monospace: true}, Truncation: fyne.TextTruncateEllipsis}
	right := container.NewHBox(newSecondaryLabel(source, fyne.TextWrapOff))
	if r.ID != 0 {
		right.Add(&widget.Button{Text: "Remove", Importance: widget.DangerImportance, OnTapped: func() { a.onRemove(r) }})
	}
	return container.NewBorder(nil, nil, nil, right, text)
}

func (a *approvalsPane) onRemove(r agent.ListedRule) {
	background(a.u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, a.u.d.Agent.RemoveRule(ctx, r.ID)
	}, func(_ struct{}, err error) {
		if err != nil {
			a.status.SetText("Not removed: " + err.Error())
			return
		}
		a.status.SetText("Removed " + r.Rule + ". The next tool call asks again.")
		a.loadRules()
	})
}

func (a *approvalsPane) shown() {
	type saved struct {
		policy agent.Policy
		notify bool
	}
	background(a.u, func(ctx context.Context) (saved, error) {
		return saved{a.u.d.Agent.Settings().Policy(ctx), notificationsOn(ctx, a.u.d.Prefs)}, nil
	}, func(s saved, _ error) {
		a.loading = true
		defer func() { a.loading = false }()
		for _, l := range policyLabels {
			if l.policy == s.policy {
				a.policy.SetSelected(l.label)
			}
		}
		a.notify.SetChecked(s.notify)
	})
	a.loadRules()
}

// onNotify applies the notifications choice at once and saves it.
func (a *approvalsPane) onNotify(on bool) {
	if a.loading {
		return
	}
	a.u.d.Attention.muted.Store(!on)
	background(a.u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, a.u.d.Prefs.SetSetting(ctx, settingNotifications, notificationsValue(on))
	}, func(_ struct{}, err error) {
		if err != nil {
			a.status.SetText("Not saved: " + err.Error())
			return
		}
		a.status.SetText("Saved.")
	})
}

func (a *approvalsPane) onChanged(label string) {
	if a.loading {
		return
	}
	policy := agent.PolicyAsk
	for _, l := range policyLabels {
		if l.label == label {
			policy = l.policy
		}
	}
	background(a.u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, a.u.d.Agent.Settings().SavePolicy(ctx, policy)
	}, func(_ struct{}, err error) {
		if err != nil {
			a.status.SetText("Not saved: " + err.Error())
			return
		}
		a.status.SetText("Saved. The next tool call follows it.")
	})
}
