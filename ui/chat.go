package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/ui/chatctl"
)

// frameInterval caps transcript redraws at ~30 per second however fast
// the model streams.
const frameInterval = time.Second / 30

// chatView is the main window: sessions sidebar, transcript, composer and
// status bar.
type chatView struct {
	u *UI

	project  agent.Project
	sessions []agent.SessionInfo
	rows     []sidebarRow // the sidebar: day headings and sessions
	session  *agent.Session
	selected int
	stopPump context.CancelFunc
	// choices counts the user's session choices: an open that finishes
	// after a later choice was made is dropped instead of replacing it.
	choices chatctl.Choices

	projectBtn  *widget.Button
	modelBtn    *widget.Button
	sessionList *widget.List
	renameBtn   *widget.Button
	deleteBtn   *widget.Button
	transcript  *transcriptView
	composer    *composer
	completion  *slashCompletion
	sendBtn     *widget.Button
	stopBtn     *widget.Button
	queueLabel  *secondaryLabel
	unsentNote  *widget.Label // why the prompt in the composer came back
	find        *findBar
	status      *secondaryLabel
	banner      *fyne.Container
	trust       *trustBar // the open folder's settings wait for trust
	bannerText  *widget.Label
	split       *container.Split // sidebar | chat; its offset is remembered
	body        *fyne.Container  // swaps between the empty state and the chat
	chatPane    fyne.CanvasObject
	emptyState  fyne.CanvasObject
	approvals   *approvalDialogs

	menu *fyne.Menu // the header menu shown last (tests pick from it)
	// st is what the status bar says. Its ServerDown is set by the server
	// check at start and after every failed turn, cleared by a check or an
	// answer.
	st chatctl.Status
}

func newChatView(u *UI) *chatView {
	c := &chatView{u: u, selected: -1}
	c.approvals = &approvalDialogs{c: c}
	return c
}

func (c *chatView) buildUI() fyne.CanvasObject {
	c.projectBtn = &widget.Button{Text: "Open a folder…", Icon: theme.FolderOpenIcon(), Importance: widget.LowImportance, OnTapped: c.onProjectMenu}
	c.modelBtn = &widget.Button{Text: "model: …", Icon: theme.MenuDropDownIcon(), IconPlacement: widget.ButtonIconTrailingText,
		Importance: widget.LowImportance, OnTapped: c.onModelMenu}
	prefsBtn := &widget.Button{Icon: theme.SettingsIcon(), Importance: widget.LowImportance, OnTapped: func() { c.u.ShowPreferences(sectionProviders) }}
	top := container.NewBorder(nil, nil, c.projectBtn, container.NewHBox(c.modelBtn, prefsBtn))

	c.transcript = newTranscriptView(c)
	c.composer = newComposer(c.onSend, c.onStop)
	c.sendBtn = &widget.Button{Text: "Send", Icon: theme.MailSendIcon(), Importance: widget.HighImportance, OnTapped: func() { c.onSend(c.composer.Text) }}
	c.stopBtn = &widget.Button{Text: "Stop", Icon: theme.MediaStopIcon(), Importance: widget.DangerImportance, OnTapped: c.onStop}
	c.stopBtn.Hide()
	c.queueLabel = newSecondaryLabel("", fyne.TextWrapWord)
	c.queueLabel.Hide()
	buttons := container.NewVBox(c.sendBtn, c.stopBtn)
	c.completion = newSlashCompletion(c)
	c.unsentNote = &widget.Label{Wrapping: fyne.TextWrapWord, Importance: widget.DangerImportance}
	c.unsentNote.Hide()
	c.trust = newTrustBar(c.u)
	composerRow := container.NewBorder(container.NewVBox(c.trust.object(), c.completion.object(), c.queueLabel, c.unsentNote), nil, nil, buttons, c.composer)

	c.bannerText = &widget.Label{Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance}
	c.banner = container.NewBorder(nil, nil, nil, container.NewHBox(
		&widget.Button{Text: "Retry", OnTapped: c.checkProvider},
		&widget.Button{Text: "Preferences", OnTapped: func() { c.u.ShowPreferences(sectionProviders) }},
	), c.bannerText)
	c.banner.Hide()

	c.find = newFindBar(c)
	c.chatPane = container.NewBorder(c.find.object(), composerRow, nil, nil, c.transcript.object())
	c.emptyState = c.buildEmptyState()
	c.body = container.NewStack(c.emptyState)
	c.status = newSecondaryLabel("ready", fyne.TextWrapOff)
	c.status.Truncation = fyne.TextTruncateEllipsis

	c.split = container.NewHSplit(c.buildSidebar(), container.NewBorder(c.banner, nil, nil, nil, c.body))
	c.split.Offset = defaultSidebarOffset
	return container.NewBorder(top, c.status, nil, nil, c.split)
}

func (c *chatView) buildEmptyState() fyne.CanvasObject {
	msg := &widget.Label{Text: "Open a folder to start. The agent works inside it: it can read, search, edit and run commands there, and edits and commands wait for your approval.",
		Wrapping: fyne.TextWrapWord, Alignment: fyne.TextAlignCenter}
	open := &widget.Button{Text: "Open Folder…", Icon: theme.FolderOpenIcon(), Importance: widget.HighImportance, OnTapped: c.onOpenFolder}
	return container.NewCenter(container.NewGridWrap(fyne.NewSize(460, 140), container.NewVBox(msg, container.NewCenter(open))))
}

// start restores the last project and checks the model server.
func (c *chatView) start() {
	c.updateModel()
	c.checkProvider()
	background(c.u, func(ctx context.Context) (agent.Project, error) {
		if dir := c.u.d.StartDir; dir != "" {
			return c.u.d.Agent.OpenProject(ctx, dir)
		}
		projects, err := c.u.d.Agent.Projects(ctx)
		if err != nil || len(projects) == 0 {
			return agent.Project{}, err
		}
		if _, err := os.Stat(projects[0].Path); err != nil {
			return agent.Project{}, nil
		}
		return projects[0], nil
	}, func(p agent.Project, err error) {
		if err != nil {
			c.setNote("Could not open the last project: " + err.Error())
			return
		}
		if p.ID != 0 {
			c.setProject(p)
		}
	})
}

func (c *chatView) onOpenFolder() {
	d := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil || uri == nil {
			return
		}
		c.openFolder(uri.Path())
	}, c.u.main)
	d.Resize(fyne.NewSize(760, 520))
	d.Show()
}

func (c *chatView) openFolder(dir string) {
	background(c.u, func(ctx context.Context) (agent.Project, error) {
		return c.u.d.Agent.OpenProject(ctx, dir)
	}, func(p agent.Project, err error) {
		if err != nil {
			dialog.ShowError(err, c.u.main)
			return
		}
		c.setProject(p)
	})
}

func (c *chatView) setProject(p agent.Project) {
	c.closeSession()
	c.choices.Next() // opens for the previous project are moot
	c.project = p
	c.projectBtn.SetText("project: " + tildePath(p.Path))
	c.body.Objects = []fyne.CanvasObject{c.chatPane}
	c.body.Refresh()
	c.transcript.clear(true)
	c.u.main.SetTitle(Title + " — " + filepath.Base(p.Path))
	c.reloadSessions(true)
	c.trust.check(p.Path)
	if c.u.prefs != nil {
		c.u.prefs.ext.reloadFor(p.Path) // its "Only this project" is this folder now
	}
	c.u.main.Canvas().Focus(c.composer)
}

func tildePath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(p, home) {
		return "~" + strings.TrimPrefix(p, home)
	}
	return p
}

// reloadSessions refreshes the sidebar; openFirst resumes the most recent
// session (or leaves the transcript empty for a first prompt).
func (c *chatView) reloadSessions(openFirst bool) {
	p, turn := c.project, c.choices.Latest()
	background(c.u, func(ctx context.Context) ([]agent.SessionInfo, error) {
		return c.u.d.Agent.Sessions(ctx, p)
	}, func(list []agent.SessionInfo, err error) {
		if err != nil || p.ID != c.project.ID {
			return
		}
		c.setSessions(list)
		c.selectCurrent()
		// Resume the latest session only if the user has not chosen (or
		// started) one since: a first prompt sent meanwhile owns the view.
		if openFirst && c.session == nil && c.choices.Current(turn) && len(list) > 0 {
			c.sessionList.Select(c.rowOf(0))
		}
	})
}

// selectCurrent highlights the open session in the sidebar without
// re-opening it.
func (c *chatView) selectCurrent() {
	if c.session == nil {
		return
	}
	for i, s := range c.sessions {
		if s.ID == c.session.ID() {
			c.selected = i
			c.sessionList.Select(c.rowOf(i))
			return
		}
	}
}

func (c *chatView) onSelectSession(id widget.ListItemID) {
	if id < 0 || id >= len(c.sessions) {
		return
	}
	c.selected = id
	s := c.sessions[id]
	if c.session != nil && c.session.ID() == s.ID {
		return
	}
	c.closeSession()
	c.transcript.clear(false)
	turn := c.choices.Next()
	background(c.u, func(ctx context.Context) (*agent.Session, error) {
		return c.u.d.Loops.Open(ctx, s.ID)
	}, func(sess *agent.Session, err error) {
		if err != nil {
			dialog.ShowError(err, c.u.main)
			return
		}
		if !c.choices.Current(turn) {
			return
		}
		c.attach(sess)
	})
}

func (c *chatView) onNewSession() {
	if c.project.ID == 0 {
		c.onOpenFolder()
		return
	}
	c.closeSession()
	c.transcript.clear(false)
	c.sessionList.UnselectAll()
	c.newSession("")
	c.u.main.Canvas().Focus(c.composer)
}

// newSession starts a session in the project and shows it, sending
// first as its first prompt when it is not empty. If the user chose
// something else meanwhile, or the session cannot start, first goes back
// to the composer: their words are never lost.
func (c *chatView) newSession(first string) {
	p := c.project
	turn := c.choices.Next()
	background(c.u, func(ctx context.Context) (*agent.Session, error) {
		return c.u.d.Loops.New(ctx, p)
	}, func(sess *agent.Session, err error) {
		if err != nil {
			dialog.ShowError(err, c.u.main)
			if first != "" {
				c.composer.SetText(first)
			}
			return
		}
		if c.choices.Current(turn) {
			c.attach(sess)
			if first != "" {
				sess.Submit(first)
			}
		} else if first != "" {
			c.composer.SetText(first)
		}
		c.reloadSessions(false)
	})
}

// attach shows a session and starts pumping its events.
func (c *chatView) attach(s *agent.Session) {
	if c.session != nil && c.session != s {
		c.closeSession() // never two sessions pumping into one view
	}
	c.session = s
	c.u.d.Loops.Show(s.ID())
	c.transcript.setEntries(s.ID(), s.Entries())
	ctx, cancel := context.WithCancel(c.u.ctx)
	c.stopPump = cancel
	go c.pump(ctx, s)
	c.setBusy(s.Busy())
	c.setInUse(s.InUse(), nil)
	c.u.main.Canvas().Focus(c.composer)
}

// setInUse shows whether another process is writing the open session
// (pid 0: none); prompts it refused go back to the composer.
func (c *chatView) setInUse(pid int, refused []string) {
	if pid == 0 {
		if c.st.ServerDown == "" {
			c.banner.Hide()
		}
		return
	}
	c.showBanner(chatctl.InUseBanner(pid))
	if len(refused) > 0 {
		c.takeBack(strings.Join(refused, "\n\n"), "another AgentDesk window or run is writing this session")
	}
}

// closeSession detaches the open session from the window. Its loop
// stays alive among the last few (Deps.Loops): a turn it runs goes on,
// and switching back to it is not a resume.
func (c *chatView) closeSession() { c.detach() }

// closeSessionAndWait is the quit: every live loop stops its turn and
// hook processes and gets SessionEnd "prompt_input_exit", within
// agent.SessionEndBudget. It changes no widget: at quit the run loop may
// be over.
func (c *chatView) closeSessionAndWait() {
	c.take()
	ctx, cancel := context.WithTimeout(context.Background(), agent.SessionEndBudget)
	defer cancel()
	c.u.d.Loops.CloseAll(ctx, lifecycle.EndExit)
}

func (c *chatView) detach() *agent.Session {
	s := c.take()
	c.setBusy(false)
	return s
}

// take stops pumping the open session's events and hands it over.
func (c *chatView) take() *agent.Session {
	if c.stopPump != nil {
		c.stopPump()
		c.stopPump = nil
	}
	c.u.d.Loops.Show("")
	s := c.session
	c.session = nil
	return s
}

// pump carries the session's events to the widgets, at most one frame
// per frameInterval: deltas are coalesced by the bus, must-deliver events
// arrive in batches, none is lost.
func (c *chatView) pump(ctx context.Context, s *agent.Session) {
	bus := s.Bus()
	for bus.Wait(ctx) {
		events, stream := bus.Drain()
		c.u.d.Do(func() {
			if c.session == s {
				c.apply(events, stream)
			}
		})
		select {
		case <-ctx.Done():
			return
		case <-time.After(frameInterval):
		}
	}
}

func (c *chatView) apply(events []agent.Event, stream agent.Stream) {
	for _, e := range events {
		switch e.Kind {
		case agent.EventEntry:
			c.transcript.add(e.Entry)
			c.onEntry(e.Entry)
		case agent.EventBusy:
			c.setBusy(e.Busy)
		case agent.EventQueue:
			c.setQueue(e.Queue)
		case agent.EventUsage:
			c.st.Usage = e.Usage
			c.refreshStatus()
		case agent.EventStatus:
			c.st.Note = safetext.Strip(e.Status) // may quote a hook's statusMessage
			c.refreshStatus()
		case agent.EventTitle:
			c.reloadSessions(false)
		case agent.EventInUse:
			c.setInUse(e.Holder, e.Queue)
		case agent.EventReload:
			c.transcript.setEntries(c.session.ID(), c.session.Entries())
			c.reloadSessions(false)
		}
	}
	c.transcript.setStream(stream)
	c.setStreaming(stream.Active)
}

// setStreaming notes whether an answer is streaming; the token rate is
// shown only while one is, and forgotten when it ends.
func (c *chatView) setStreaming(on bool) {
	if c.st.SetStreaming(on) {
		c.refreshStatus()
	}
}

func (c *chatView) onEntry(e agent.Entry) {
	if e.Role == llm.RoleAssistant && c.st.ServerDown != "" { // it answered
		c.st.ServerDown = ""
		c.banner.Hide()
		c.refreshStatus()
	}
	if e.Host == nil {
		return
	}
	switch e.Host.Kind {
	case agent.HostNotice:
		if e.Host.Extension && e.Host.Event != agent.EventMCP {
			c.st.Hooks = "hooks: " + e.Host.Label + " failing"
			c.refreshStatus()
		}
	case agent.HostError:
		c.checkProvider() // a failed turn: is the server still there?
	}
	if e.Host.Prompt != "" && c.session != nil && e.Session == c.session.ID() {
		c.takeBack(e.Host.Prompt, e.Host.Text)
	}
}

// takeBack returns a prompt the model never answered to the composer,
// ahead of whatever is there, with why beside it: nothing typed is lost,
// and nothing is sent again without the user.
func (c *chatView) takeBack(prompt, why string) {
	c.composer.SetText(chatctl.TakeBack(prompt, c.composer.Text))
	c.unsentNote.SetText("Not answered: " + safetext.Strip(why))
	c.unsentNote.Show()
}

func (c *chatView) onSend(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	c.unsentNote.Hide()
	if c.project.ID == 0 {
		c.onOpenFolder()
		return
	}
	if text == "/new" {
		c.composer.SetText("")
		c.onNewSession()
		return
	}
	if c.session == nil {
		c.composer.SetText("")
		c.newSession(text)
		return
	}
	c.composer.SetText("")
	c.session.Submit(text)
}

func (c *chatView) onStop() {
	if c.session == nil {
		return
	}
	// Queued prompts come back to the composer, ahead of any draft: Stop
	// never loses what the user typed.
	returned := c.session.Stop()
	if len(returned) > 0 {
		c.composer.SetText(chatctl.AfterStop(returned, c.composer.Text))
	}
}

func (c *chatView) setBusy(busy bool) {
	if busy {
		c.stopBtn.Show()
		c.sendBtn.SetText("Queue")
	} else {
		c.stopBtn.Hide()
		c.sendBtn.SetText("Send")
		c.st.TurnEnded() // whatever the last frame said
		c.refreshHookState()
		if c.project.Path != "" {
			c.trust.check(c.project.Path) // the turn may have edited .claude/ (it asked first)
		}
	}
	c.refreshStatus()
}

func (c *chatView) setQueue(q []string) {
	if len(q) == 0 {
		c.queueLabel.Hide()
		return
	}
	c.queueLabel.SetText(chatctl.QueueLines(q))
	c.queueLabel.Show()
}

func (c *chatView) setNote(s string) {
	c.st.Note = s
	c.refreshStatus()
}

func (c *chatView) refreshStatus() {
	c.st.Busy = c.session != nil && c.session.Busy()
	c.status.SetText(c.st.Text())
}

// refreshHookState summarises the enabled extensions' hook health.
func (c *chatView) refreshHookState() {
	background(c.u, func(ctx context.Context) (string, error) {
		infos, err := c.u.d.Extensions.List(ctx)
		if err != nil {
			return "", err
		}
		return hookSummary(infos), nil
	}, func(s string, err error) {
		if err == nil {
			c.st.Hooks = s
			c.refreshStatus()
		}
	})
}

func (c *chatView) updateModel() {
	background(c.u, func(context.Context) (string, error) {
		return c.u.d.Model(), nil
	}, func(model string, err error) {
		if model != "" {
			c.modelBtn.SetText("model: " + model)
		}
	})
}

// checkProvider shows the "no model server" banner when the configured
// server does not answer; on first start it probes the local presets.
func (c *chatView) checkProvider() {
	// The error is the problem found: a failed save of the probed
	// server, or the configured one not answering.
	background(c.u, func(ctx context.Context) (struct{}, error) {
		if saved, err := c.u.d.Agent.Settings().FirstRun(ctx, c.u.d.ProbeLocal); saved || err != nil {
			return struct{}{}, err
		}
		if c.u.d.CheckProvider == nil {
			return struct{}{}, nil
		}
		return struct{}{}, c.u.d.CheckProvider(ctx)
	}, func(_ struct{}, problem error) {
		c.updateModel()
		c.st.ServerDown = serverStatus(problem)
		c.refreshStatus()
		if problem == nil {
			c.banner.Hide()
			return
		}
		c.showBanner(safetext.Strip(problem.Error()))
	})
}

// serverStatus is the status bar's short word on a failed server check.
func serverStatus(problem error) string {
	var le *llm.Error
	switch {
	case problem == nil:
		return ""
	case errors.As(problem, &le) && le.Kind == llm.ErrUnreachable && le.URL != "":
		return "no model server at " + le.URL
	case errors.As(problem, &le) && le.URL != "":
		return "the model server at " + le.URL + " answered with an error"
	}
	return "model server not reachable"
}

func (c *chatView) showBanner(text string) {
	c.bannerText.SetText(strings.ToUpper(text[:1]) + text[1:])
	c.banner.Show()
}

func (c *chatView) onRename() {
	if c.selected < 0 || c.selected >= len(c.sessions) {
		return
	}
	s := c.sessions[c.selected]
	entry := newDialogEntry(s.Title)
	d := dialog.NewForm("Rename session", "Rename", "Cancel", []*widget.FormItem{{Text: "Title", Widget: entry}}, func(ok bool) {
		title := strings.TrimSpace(entry.Text)
		if !ok || title == "" {
			return
		}
		background(c.u, func(ctx context.Context) (struct{}, error) {
			return struct{}{}, c.u.d.Agent.RenameSession(ctx, s.ID, title)
		}, func(_ struct{}, err error) {
			if err != nil {
				dialog.ShowError(err, c.u.main)
			}
			c.reloadSessions(false)
		})
	}, c.u.main)
	entry.OnSubmitted = func(string) { d.Submit() }
	entry.onEsc = d.Dismiss
	dialogKeys(c.u.main, d, d.Submit)
	d.Show()
	c.u.main.Canvas().Focus(entry)
}

func (c *chatView) onDelete() {
	if c.selected < 0 || c.selected >= len(c.sessions) {
		return
	}
	s := c.sessions[c.selected]
	d := dialog.NewConfirm("Delete session", fmt.Sprintf("Delete %q and its whole transcript? This cannot be undone.", s.Title), func(ok bool) {
		if !ok {
			return
		}
		if c.session != nil && c.session.ID() == s.ID {
			c.closeSession()
			c.transcript.clear(false)
		}
		background(c.u, func(ctx context.Context) (struct{}, error) {
			if live := c.u.d.Loops.Forget(s.ID); live != nil {
				live.Close() // DeleteSession fires SessionEnd "clear"
			}
			return struct{}{}, c.u.d.Agent.DeleteSession(ctx, s.ID)
		}, func(_ struct{}, err error) {
			if err != nil && !errors.Is(err, agent.ErrNotFound) {
				dialog.ShowError(err, c.u.main)
			}
			c.selected = -1
			c.sessionList.UnselectAll()
			c.reloadSessions(false)
		})
	}, c.u.main)
	d.SetConfirmText("Delete")
	d.SetConfirmImportance(widget.DangerImportance)
	dialogKeys(c.u.main, d, d.Dismiss) // the safe choice is to keep it
	d.Show()
}

func firstLine(s string, max int) string { return chatctl.FirstLine(s, max) }
