package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/openai"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/ui"
)

const appID = "io.agentdesk.AgentDesk"

func runGUI(prefs string, stderr io.Writer) int {
	ctx := context.Background()
	c, err := openCore(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	defer c.close()

	app.SetMetadata(fyne.AppMetadata{ID: appID, Name: "AgentDesk", Version: version, Icon: assets.Icon,
		Migrations: map[string]bool{"fyneDo": true}})
	a := app.NewWithID(appID)
	openPage := func(page string) error {
		u, err := url.Parse(page)
		if err != nil {
			return err
		}
		return a.OpenURL(u)
	}
	c.browser.Store(&openPage)
	a.SetIcon(assets.Icon)
	approvals := &agent.Approvals{}
	attention := ui.NewAttention(a)
	ag := c.newAgent(approvals, func() agent.Policy { return agent.LoadPolicy(context.Background(), c.db) }, attention)
	u := ui.New(ui.Deps{
		App: a, Do: fyne.Do, Agent: ag, Approvals: approvals, Attention: attention, Prefs: c.db, Extensions: c.exts, Running: c.disp, Projects: c.projects, DataDir: c.paths.Data, LogFile: c.paths.LogFile(),
		DetectedPATH:  c.DetectedPATH,
		CheckProvider: c.checkProvider,
		ProbeLocal:    agent.ProbeLocal,
		ContextWindow: c.contextWindow,
		Model: func() string {
			_, cfg, _ := c.provider()
			return cfg.Model
		},
		ListModels: func(ctx context.Context) ([]string, error) {
			_, cfg, err := c.provider()
			if err != nil {
				return nil, err
			}
			return agent.ListModels(ctx, cfg)
		},
		OpenURL:  a.OpenURL,
		StartDir: os.Getenv("AGENTDESK_PROJECT"),
	})
	quitOnSignal(a)
	dumpOnSignal(u, c.paths.State)
	if prefs != "" {
		u.ShowPreferences(prefs)
	}
	u.Window().ShowAndRun()
	u.Close()
	c.log.Info("agentdesk quit")
	return 0
}

// quitOnSignal makes the shutdown signals quit cleanly, as in the CLI
// (sessions stop their turns and hook processes first).
func quitOnSignal(a fyne.App) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, shutdownSignals...)
	go func() {
		<-ch
		fyne.Do(a.Quit)
	}()
}

// checkProvider tells the UI whether the configured model server
// answers. Only OpenAI-compatible servers are probed (GET /models); a
// cloud Anthropic key is checked by the first turn instead.
func (c *core) checkProvider(ctx context.Context) error {
	_, cfg, err := c.provider()
	if err != nil {
		return err
	}
	if cfg.Kind != llm.KindOpenAI && cfg.Kind != "" {
		return nil
	}
	if _, err := openai.ListModels(ctx, cfg.BaseURL, cfg.APIKey); err != nil {
		if llm.IsKind(err, llm.ErrUnreachable) {
			return err
		}
		return fmt.Errorf("the model server at %s answered with an error: %w", cfg.BaseURL, err)
	}
	return nil
}
