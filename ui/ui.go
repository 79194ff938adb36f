// Package ui holds AgentDesk's Fyne views: the chat window, the
// Preferences window with its Providers, Agent Extensions and Advanced
// sections, and the in-window dialogs. It holds no business logic: it
// talks to the agent and extensions services, always off the UI
// goroutine, and changes widgets only through the injected do seam.
package ui

import (
	"context"
	"log/slog"
	"net/url"
	"os"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/dispatch"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// Title is the main window's title (the Xvfb test finds the window by it).
const Title = "AgentDesk"

// Deps is what the views need. app/ fills it; tests fill it with a test
// app, a serial do loop and real services on a temp AGENTDESK_HOME.
type Deps struct {
	App   fyne.App
	Do    func(func()) // runs f on the UI goroutine: fyne.Do in production
	Agent *agent.Agent
	// Loops keeps the last few sessions' loops alive, so switching between
	// them is not a resume; nil: Agent.NewLoops(agent.DefaultLiveSessions).
	Loops     *agent.Loops
	Approvals *agent.Approvals
	// Attention is the agent's agent.Attention (window focus, desktop
	// notifications); Preferences › Approvals turns notifications off.
	// nil: NewAttention(App), which then only the views know.
	Attention *Attention
	// Prefs keeps the window's own preferences (size, sidebar, theme).
	Prefs      Prefs
	Extensions *extensions.Manager
	// Running is what runs the extensions (the dispatcher): the cards'
	// live state (MCP servers, lingering processes) and MCP actions; nil
	// shows installed state only.
	Running *dispatch.Dispatcher
	// Projects answers folder trust for the open folder's own Claude Code
	// settings (the bar above the composer); nil: no bar.
	Projects *project.Registry
	// DataDir and LogFile are shown in Preferences → Advanced.
	DataDir, LogFile string
	// DetectedPATH is the PATH hooks and servers get unless overridden: the
	// app's own, then the login shell's entries it lacks.
	DetectedPATH func() string
	// CheckProvider reports whether the configured model server answers;
	// nil error means reachable.
	CheckProvider func(ctx context.Context) error
	// Model is the model the next turn will use (settings plus any
	// environment override); nil: the saved setting.
	Model func() string
	// ListModels lists the models the provider the next turn uses serves
	// (environment overrides included); nil: the saved provider's.
	ListModels func(ctx context.Context) ([]string, error)
	// ContextWindow is the context window the next turn uses and where it
	// was read (the user's setting, the server, or a preset); nil: none
	// is shown.
	ContextWindow func(ctx context.Context) agent.Window
	// ProbeLocal looks for a local model server on first start.
	ProbeLocal func(ctx context.Context) (agent.ProviderSettings, bool)
	OpenURL    func(*url.URL) error
	// StartDir, if set, is opened as the project at start (command line).
	StartDir string
}

// Prefs is a small key-value store for the views' own settings (the app
// passes the settings table).
type Prefs interface {
	Setting(ctx context.Context, key string) (value string, ok bool, err error)
	SetSetting(ctx context.Context, key, value string) error
	SetSettings(ctx context.Context, kv map[string]string) error
}

// withDefaults fills the optional seams with the saved settings' answer.
func (d *Deps) withDefaults() {
	if d.Attention == nil {
		d.Attention = NewAttention(d.App)
	}
	if d.Loops == nil {
		d.Loops = d.Agent.NewLoops(agent.DefaultLiveSessions)
	}
	if d.Model == nil {
		d.Model = func() string {
			p, _, _ := d.Agent.Settings().Provider(context.Background())
			return p.Model
		}
	}
	if d.ListModels == nil {
		d.ListModels = func(ctx context.Context) ([]string, error) {
			p, _, err := d.Agent.Settings().Provider(ctx)
			if err != nil {
				return nil, err
			}
			return agent.ListModels(ctx, p.Config(os.Getenv))
		}
	}
}

// UI is the running application's views.
type UI struct {
	d     Deps
	ctx   context.Context
	stop  context.CancelFunc
	main  fyne.Window
	chat  *chatView
	prefs *prefsWindow
	// appearance is the View › Appearance choice: "", "light" or "dark".
	appearance string
	// work counts the goroutines doing slow calls for the views, so Close
	// can let them finish (they all take u.ctx) before the services close.
	work      sync.WaitGroup
	closeOnce sync.Once
}

// closeWait bounds how long Close waits for cancelled work to return.
const closeWait = 5 * time.Second

// New builds the main window (not shown yet).
func New(d Deps) *UI {
	d.withDefaults()
	u := &UI{d: d}
	u.ctx, u.stop = context.WithCancel(context.Background())
	st := u.loadWindowState()
	u.appearance = st.appearance
	d.Attention.muted.Store(!st.notifications)
	u.applyAppearance(st.appearance)
	u.main = d.App.NewWindow(Title)
	u.main.Resize(st.size)
	u.chat = newChatView(u)
	u.main.SetContent(u.chat.buildUI())
	u.chat.split.Offset = st.sidebar
	u.main.SetMainMenu(u.mainMenu())
	u.chat.installShortcuts()
	u.main.SetMaster()
	u.main.SetOnClosed(u.Close)
	d.Approvals.Notify = func(req agent.ApprovalRequest) { d.Do(func() { u.chat.approvals.show(req) }) }
	d.Approvals.Withdrawn = func(id int64) { d.Do(func() { u.chat.approvals.withdraw(id) }) }
	u.chat.start()
	return u
}

// Window is the main window.
func (u *UI) Window() fyne.Window { return u.main }

// ShowPreferences opens (or raises) Preferences at a section.
func (u *UI) ShowPreferences(section string) {
	if u.prefs == nil {
		u.prefs = newPrefsWindow(u)
	}
	u.prefs.show(section)
}

// Close stops background work: the open session's turn and hooks, pumps,
// and the views' own slow calls, which it waits for (briefly: they are
// cancelled) so nothing touches the database or data folder afterwards.
//
// It runs once, however often it is called: from the main window's close
// and again after the run loop returns; it changes no window (it reads
// the window's size and sidebar width to remember them).
func (u *UI) Close() { u.closeOnce.Do(u.shutdown) }

func (u *UI) shutdown() {
	u.saveWindowState()
	u.stop()
	u.chat.closeSessionAndWait()
	if u.prefs != nil {
		u.prefs.close()
	}
	done := make(chan struct{})
	go func() { u.work.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeWait):
		slog.Warn("ui: background work still running after close", "waited", closeWait)
	}
}

// goWork runs f on its own goroutine, counted for Close.
func (u *UI) goWork(f func()) { u.work.Go(f) }

// background runs f off the UI goroutine and hands its result to the UI
// through do. Every slow call (database, network, git, hooks) goes here.
func background[T any](u *UI, f func(context.Context) (T, error), then func(T, error)) {
	u.goWork(func() {
		v, err := f(u.ctx)
		if u.ctx.Err() != nil {
			return
		}
		u.d.Do(func() { then(v, err) })
	})
}
