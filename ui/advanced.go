package ui

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
)

// advancedPane: hook timeout default, MCP timeouts, PATH for hooks, data
// folder, logs.
type advancedPane struct {
	u        *UI
	timeout  *widget.Entry
	stops    *widget.Entry
	ctxCap   *widget.Entry
	mcpStart *widget.Entry
	mcpCall  *widget.Entry
	mcpShare *widget.Entry
	path     *widget.Entry
	detected *secondaryLabel
	status   *widget.Label
	// The sandbox's extra folders and secrets, one path a line.
	readable, writable, secrets *widget.Entry
	// The open project's sandbox switches; hidden without a project.
	project                 agent.Project
	projectLabel            *widget.Label
	noNetwork, autoConfined *widget.Check
}

func newAdvancedPane(u *UI) *advancedPane { return &advancedPane{u: u} }

func (a *advancedPane) buildUI() fyne.CanvasObject {
	a.timeout = &widget.Entry{}
	a.stops = &widget.Entry{}
	a.ctxCap = &widget.Entry{}
	a.mcpStart = &widget.Entry{}
	a.mcpCall = &widget.Entry{}
	a.mcpShare = &widget.Entry{}
	a.path = &widget.Entry{PlaceHolder: "empty: use the detected PATH"}
	a.detected = newSecondaryLabel("", fyne.TextWrapBreak)
	a.status = &widget.Label{Wrapping: fyne.TextWrapWord}
	a.readable = pathsEntry("one folder a line, e.g. ~/.ssh/known_hosts")
	a.writable = pathsEntry("one folder a line, e.g. ~/.m2")
	a.secrets = pathsEntry("one a line, absolute or relative to the home folder, e.g. .config/rclone")
	_, sandboxText := childproc.SandboxStatus()
	a.projectLabel = &widget.Label{Truncation: fyne.TextTruncateEllipsis}
	a.noNetwork = widget.NewCheck("Commands have no network (TCP refused; Landlock ABI 4 or later)", nil)
	a.autoConfined = widget.NewCheck("Confined commands run without asking (ask/deny rules and Run unconfined still ask)", nil)
	data := a.u.d.DataDir
	logFile := a.u.d.LogFile
	form := &widget.Form{Items: []*widget.FormItem{
		{Text: "Hook timeout", Widget: a.timeout, HintText: fmt.Sprintf("seconds for hooks that set none (1–%d)", int(hookrun.MaxTimeout/time.Second))},
		{Text: "Stop hook continuations", Widget: a.stops, HintText: fmt.Sprintf("how often Stop hooks may make one turn go on (0–%d)", lifecycle.MaxStopHookLimit)},
		{Text: "Extension context per turn", Widget: a.ctxCap, HintText: fmt.Sprintf("KiB (%d–%d); blocks past it are left out, and the chat says which",
			extensions.MinContextCapKiB, extensions.MaxContextCapKiB)},
		{Text: "MCP server start timeout", Widget: a.mcpStart, HintText: fmt.Sprintf("seconds an extension's MCP server may take to start (1–%d)",
			int(extensions.MaxMCPStartTimeout/time.Second))},
		{Text: "MCP tool call timeout", Widget: a.mcpCall, HintText: fmt.Sprintf("seconds one MCP tool call may take (1–%d)",
			int(extensions.MaxMCPCallTimeout/time.Second))},
		{Text: "MCP tools per request", Widget: a.mcpShare, HintText: fmt.Sprintf("%% of the model's context window (1–%d) their definitions may take; the others wait for tool_search",
			lifecycle.MaxMCPToolShare)},
		{Text: "PATH for hooks", Widget: a.path, HintText: "hooks look programs such as node up here, not in the app's PATH"},
		{Text: "Detected PATH", Widget: a.detected},
		{Text: "Sandbox", Widget: &widget.Label{Text: sandboxText, Wrapping: fyne.TextWrapWord}},
		{Text: "Also readable", Widget: a.readable, HintText: "folders inside a withheld one that every command, hook and server may read"},
		{Text: "Also writable", Widget: a.writable, HintText: "folders beyond the project, the data folder and the caches they may write"},
		{Text: "Also withheld", Widget: a.secrets, HintText: "withheld like ~/.ssh, ~/.aws and the other built-in secrets, which always are"},
		{Text: "This project", Widget: container.NewVBox(a.projectLabel, a.noNetwork, a.autoConfined),
			HintText: "the network switch applies to sessions opened afterwards"},
		{Text: "Data folder", Widget: container.NewBorder(nil, nil, nil,
			&widget.Button{Text: "Open folder", OnTapped: func() { a.open(data) }}, &widget.Label{Text: data, Truncation: fyne.TextTruncateEllipsis})},
		{Text: "Log file", Widget: container.NewBorder(nil, nil, nil,
			&widget.Button{Text: "Open", OnTapped: func() { a.open(logFile) }}, &widget.Label{Text: logFile, Truncation: fyne.TextTruncateEllipsis})},
	}}
	save := &widget.Button{Text: "Save", Importance: widget.HighImportance, OnTapped: a.onSave}
	return container.NewBorder(widget.NewLabelWithStyle("Advanced", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewVBox(a.status, container.NewHBox(save)), nil, nil, container.NewVScroll(form))
}

func (a *advancedPane) shown() {
	if a.u.chat != nil {
		a.project = a.u.chat.project
	}
	project := a.project
	background(a.u, func(ctx context.Context) (advancedState, error) {
		s := a.u.d.Extensions.HookSettings(ctx)
		detected := ""
		if a.u.d.DetectedPATH != nil {
			detected = a.u.d.DetectedPATH()
		}
		st := advancedState{s, detected, a.u.d.Extensions.SandboxFolders(ctx), agent.ProjectSandbox{}}
		if project.ID != 0 {
			st.project = a.u.d.Agent.ProjectSandbox(ctx, project.ID)
		}
		return st, nil
	}, func(s advancedState, _ error) {
		a.projectLabel.SetText(project.Path)
		if project.ID == 0 {
			a.projectLabel.SetText("no project open")
			a.noNetwork.Disable()
			a.autoConfined.Disable()
		} else {
			a.noNetwork.Enable()
			a.autoConfined.Enable()
		}
		a.noNetwork.SetChecked(s.project.NoNetwork)
		a.autoConfined.SetChecked(s.project.ConfinedAutoAllow)
		a.readable.SetText(strings.Join(s.folders.Read, "\n"))
		a.writable.SetText(strings.Join(s.folders.Write, "\n"))
		a.secrets.SetText(strings.Join(s.folders.Secrets, "\n"))
		a.timeout.SetText(strconv.Itoa(int(s.hooks.DefaultTimeout / time.Second)))
		a.stops.SetText(strconv.Itoa(s.hooks.StopLimit))
		a.ctxCap.SetText(strconv.Itoa(s.hooks.ContextCapKiB))
		a.mcpStart.SetText(strconv.Itoa(int(s.hooks.MCPStartTimeout / time.Second)))
		a.mcpCall.SetText(strconv.Itoa(int(s.hooks.MCPCallTimeout / time.Second)))
		a.mcpShare.SetText(strconv.Itoa(s.hooks.MCPToolShare))
		a.path.SetText(s.hooks.PATH)
		a.detected.SetText(strings.ReplaceAll(s.detected, string(os.PathListSeparator), string(os.PathListSeparator)+" "))
	})
}

type advancedState struct {
	hooks    extensions.HookSettings
	detected string
	folders  childproc.UserFolders
	project  agent.ProjectSandbox
}

func pathsEntry(placeholder string) *widget.Entry {
	e := &widget.Entry{MultiLine: true, Wrapping: fyne.TextWrapOff, PlaceHolder: placeholder}
	e.ExtendBaseWidget(e)
	e.SetMinRowsVisible(2)
	return e
}

func (a *advancedPane) onSave() {
	numbers := []struct {
		entry *widget.Entry
		what  string
		value int
	}{{a.timeout, "the hook timeout must be a whole number of seconds", 0}, {a.stops, "Stop hook continuations must be a whole number", 0},
		{a.ctxCap, "the extension context per turn must be a whole number of KiB", 0},
		{a.mcpStart, "the MCP server start timeout must be a whole number of seconds", 0},
		{a.mcpCall, "the MCP tool call timeout must be a whole number of seconds", 0},
		{a.mcpShare, "the MCP tools per request must be a whole percentage", 0}}
	for i := range numbers {
		n, err := strconv.Atoi(strings.TrimSpace(numbers[i].entry.Text))
		if err != nil {
			a.status.SetText("Not saved: " + numbers[i].what)
			return
		}
		numbers[i].value = n
	}
	s := extensions.HookSettings{DefaultTimeout: time.Duration(numbers[0].value) * time.Second, PATH: a.path.Text,
		StopLimit: numbers[1].value, ContextCapKiB: numbers[2].value,
		MCPStartTimeout: time.Duration(numbers[3].value) * time.Second, MCPCallTimeout: time.Duration(numbers[4].value) * time.Second,
		MCPToolShare: numbers[5].value}
	project := a.project
	projectSandbox := agent.ProjectSandbox{NoNetwork: a.noNetwork.Checked, ConfinedAutoAllow: a.autoConfined.Checked}
	folders := childproc.UserFolders{Read: extensions.SplitPaths(a.readable.Text),
		Write: extensions.SplitPaths(a.writable.Text), Secrets: extensions.SplitPaths(a.secrets.Text)}
	background(a.u, func(ctx context.Context) (struct{}, error) {
		if err := a.u.d.Extensions.SaveHookSettings(ctx, s); err != nil {
			return struct{}{}, err
		}
		if err := a.u.d.Extensions.SaveSandboxFolders(ctx, folders); err != nil {
			return struct{}{}, err
		}
		if project.ID == 0 {
			return struct{}{}, nil
		}
		return struct{}{}, a.u.d.Agent.SetProjectSandbox(ctx, project.ID, projectSandbox)
	}, func(_ struct{}, err error) {
		if err != nil {
			a.status.SetText("Not saved: " + err.Error())
			return
		}
		a.status.SetText("Saved. Hooks use these settings from their next run, MCP servers from their next start or call, MCP tools per request from the next turn; the sandbox's folders apply to every child started from now on.")
	})
}

func (a *advancedPane) open(path string) {
	if a.u.d.OpenURL == nil {
		return
	}
	abs, _ := filepath.Abs(path)
	if err := a.u.d.OpenURL(&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}); err != nil {
		a.status.SetText("Could not open " + path + ": " + err.Error())
	}
}
