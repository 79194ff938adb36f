package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/dispatch"
	"github.com/agentdesk/agentdesk/extensions/servers"
	"github.com/agentdesk/agentdesk/storage"
)

// uiLoop is the do seam in tests: work for the UI queues up and runs on
// the test goroutine inside waitFor, so -race sees every widget change
// happen on one goroutine, as fyne.Do guarantees in production.
type uiLoop struct {
	mu   sync.Mutex
	q    []func()
	wake chan struct{}
	// describe, when set, says what the UI shows; waitFor logs it when it
	// gives up, so a timeout tells why.
	describe func() string
}

func newUILoop() *uiLoop { return &uiLoop{wake: make(chan struct{}, 1)} }

func (l *uiLoop) do(f func()) {
	l.mu.Lock()
	l.q = append(l.q, f)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *uiLoop) runQueued() {
	for {
		l.mu.Lock()
		q := l.q
		l.q = nil
		l.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, f := range q {
			f()
		}
	}
}

// waitFor runs queued UI work until cond holds; it fails the test after a
// generous timeout (a guard, not a timing assertion).
func (l *uiLoop) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		l.runQueued()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			if l.describe != nil {
				t.Logf("the UI at the timeout:\n%s", l.describe())
			}
			t.Fatalf("timed out waiting for %s", what)
		}
		select {
		case <-l.wake:
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// harness is a UI on real services in a temp AGENTDESK_HOME.
type harness struct {
	t         *testing.T
	app       fyne.App
	loop      *uiLoop
	paths     storage.Paths
	db        *storage.DB
	exts      *extensions.Manager
	disp      *dispatch.Dispatcher
	approvals *agent.Approvals
	attention *Attention
	agent     *agent.Agent
	ui        *UI
	project   string
	opts      harnessOptions
}

type harnessOptions struct {
	provider    func() (llm.Provider, llm.Config, error)
	managerOpts []extensions.Option
	mcp         servers.MCPConfig // the MCP host's (remote servers' client, sign-in browser)
	policy      agent.Policy
	window      func(context.Context) agent.Window // Deps.ContextWindow
	codeIntel   lifecycle.CodeIntel                // language servers; nil: none
	styles      lifecycle.StyleSource              // nil: the dispatcher's
}

func newHarness(t *testing.T, opts harnessOptions) *harness {
	t.Helper()
	home := t.TempDir()
	t.Setenv(storage.HomeEnv, home)
	t.Setenv("HOME", filepath.Join(home, "home"))
	os.MkdirAll(filepath.Join(home, "home"), 0o700)
	h := &harness{t: t, app: test.NewTempApp(t), loop: newUILoop(), paths: storage.ResolvePaths(), opts: opts}
	if err := h.paths.Ensure(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, h.paths.Database())
	if err != nil {
		t.Fatal(err)
	}
	h.db = db
	h.exts, err = extensions.NewManager(ctx, db, h.paths.Extensions(), opts.managerOpts...)
	if err != nil {
		t.Fatal(err)
	}
	h.disp = dispatch.New(h.exts, dispatch.Config{MCP: servers.NewMCP(h.exts, opts.mcp)})
	t.Cleanup(h.disp.Close)
	h.approvals = &agent.Approvals{}
	h.attention = NewAttention(h.app)
	// The test app keeps the last notification unguarded: send on the test
	// goroutine, through the do seam, instead of on a goroutine of its own.
	h.attention.send = func(n *fyne.Notification) { h.loop.do(func() { h.app.SendNotification(n) }) }
	policy := opts.policy
	if policy == "" {
		policy = agent.PolicyAsk
	}
	provider := opts.provider
	if provider == nil {
		provider = func() (llm.Provider, llm.Config, error) {
			return nil, llm.Config{}, context.DeadlineExceeded
		}
	}
	var styles lifecycle.StyleSource = h.disp
	if opts.styles != nil {
		styles = opts.styles
	}
	h.agent = agent.New(agent.Config{DB: db, Provider: provider, Lifecycle: h.disp, Skills: h.disp, Commands: h.disp, Agents: h.disp, Styles: styles,
		Approver: h.approvals, Attention: h.attention, Policy: func() agent.Policy { return policy }, HomeDir: filepath.Join(home, "home"),
		CodeIntel: opts.codeIntel})
	h.project = filepath.Join(home, "project")
	os.MkdirAll(h.project, 0o755)
	t.Cleanup(h.close)
	return h
}

// open builds the UI (optionally with a project already open) and lets
// its start-up work finish.
func (h *harness) open(withProject bool) *UI {
	h.t.Helper()
	d := Deps{App: h.app, Do: h.loop.do, Agent: h.agent, Approvals: h.approvals, Attention: h.attention, Prefs: h.db, Extensions: h.exts, Running: h.disp,
		DataDir: h.paths.Data, LogFile: h.paths.LogFile(), DetectedPATH: func() string { return "/usr/bin:/bin" }, ContextWindow: h.opts.window}
	if withProject {
		d.StartDir = h.project
	}
	h.ui = New(d)
	h.loop.describe = h.describe
	h.ui.main.Resize(fyne.NewSize(1000, 700))
	h.ui.main.Show()
	if withProject {
		h.loop.waitFor(h.t, "the project to open", func() bool { return h.ui.chat.project.ID != 0 })
	}
	return h.ui
}

// relayout makes the test canvas lay out again, as the real driver does
// every frame, so virtualised lists materialise their visible rows.
func (h *harness) relayout(w fyne.Window) {
	size := w.Canvas().Size()
	w.Resize(size.AddWidthHeight(1, 0))
	w.Resize(size)
}

// describe is the state a timed-out wait is logged with.
func (h *harness) describe() string {
	if h.ui == nil {
		return "no UI"
	}
	var b strings.Builder
	c, tv := h.ui.chat, h.ui.chat.transcript
	fmt.Fprintf(&b, "status %q; transcript: %d rows (live %v), offset %v of view %v, follow %v, settle queued %v\n",
		c.status.Text, tv.length(), tv.live != nil, tv.list.GetScrollOffset(), tv.list.Size(), tv.follow, tv.settleQueued)
	for i, it := range tv.items {
		fmt.Fprintf(&b, "  row %d %s built=%v height=%v %q\n", i, it.entry.Role, it.obj != nil, tv.heights[i], firstLine(it.entry.Message().Text(), 60))
	}
	if s := c.session; s != nil {
		fmt.Fprintf(&b, "session %s busy=%v, %d entries:\n", s.ID(), s.Busy(), len(s.Entries()))
		for _, e := range s.Entries() {
			fmt.Fprintf(&b, "  %s %q\n", e.Role, firstLine(e.Message().Text(), 60))
		}
	}
	fmt.Fprintf(&b, "window text:\n%s", windowText(h.ui.main))
	return b.String()
}

func (h *harness) close() {
	if h.ui != nil {
		h.ui.Close()
		h.loop.runQueued()
	}
	h.db.Close()
}
