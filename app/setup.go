package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/dispatch"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/extensions/mcp"
	"github.com/agentdesk/agentdesk/extensions/project"
	"github.com/agentdesk/agentdesk/extensions/servers"
	"github.com/agentdesk/agentdesk/storage"
)

// maxLogBytes: the log is rotated to agentdesk.log.1 at start past this.
const maxLogBytes = 5 << 20

// Environment overrides for scripts (the CLI and the GUI both honour them).
const (
	envProvider = "AGENTDESK_PROVIDER"
	envBaseURL  = "AGENTDESK_BASE_URL"
	envModel    = "AGENTDESK_MODEL"
	envAPIKey   = "AGENTDESK_API_KEY"
	// Go durations ("90s", "45m") replacing the model call deadlines: how
	// long a server may stay silent before its first byte, and between
	// bytes once it sends (keepalive comments count).
	envFirstByteTimeout = "AGENTDESK_FIRST_BYTE_TIMEOUT"
	envIdleTimeout      = "AGENTDESK_IDLE_TIMEOUT"
)

// core is what every mode (GUI, run, ext) shares.
type core struct {
	paths storage.Paths
	db    *storage.DB
	log   *slog.Logger
	logF  io.Closer
	exts  *extensions.Manager
	// projects puts the open folder's own Claude Code settings (the
	// extension "project") in front of exts once that folder is trusted.
	projects *project.Registry
	disp     *dispatch.Dispatcher // hooks, commands, agents, skills and (through servers) MCP tools
	// browser opens an MCP server's sign-in page: the window sets it; the
	// CLI never opens one.
	browser atomic.Pointer[func(string) error]
	// unconfined lifts the sandbox from run_command (run --unconfined).
	unconfined bool

	pathOnce  sync.Once
	loginPATH string

	provMu  sync.Mutex
	provCfg llm.Config
	prov    llm.Provider
	// servers remembers what each model server says about itself (its
	// context window).
	servers *agent.ServerInfo
}

// openCore opens what every mode shares; a log file that cannot be
// opened is an error.
func openCore(ctx context.Context) (*core, error) { return openCoreWarning(ctx, nil) }

// openReadOnlyCore is openCore for commands that only show something (ext
// list, show and check, sessions): a log file that cannot be opened (a full
// disk, a log folder made read-only) is a warning on warn, and the
// command goes on without a log.
func openReadOnlyCore(ctx context.Context, warn io.Writer) (*core, error) {
	return openCoreWarning(ctx, warn)
}

// openCoreWarning opens the core; with a nil warn a log that cannot be
// opened is an error.
func openCoreWarning(ctx context.Context, warn io.Writer) (*core, error) {
	c := &core{paths: storage.ResolvePaths(), servers: agent.NewServerInfo()}
	if err := c.paths.Ensure(); err != nil {
		return nil, err
	}
	if err := c.openLog(); err != nil {
		if warn == nil {
			return nil, err
		}
		fmt.Fprintf(warn, "agentdesk: warning: %v; going on without a log\n", err)
		c.log = slog.New(slog.DiscardHandler)
	}
	db, err := storage.Open(ctx, c.paths.Database())
	if err != nil {
		c.close()
		return nil, err
	}
	db.UseKeyring() // API keys typed into Preferences: the OS keyring, else a private file
	c.db = db
	extensions.ApplySandboxFolders(ctx, db) // Preferences → Advanced: every child's extra folders and secrets
	c.exts, err = extensions.NewManager(ctx, db, c.paths.Extensions(), extensions.WithLogger(c.log))
	if err != nil {
		c.close()
		return nil, err
	}
	// One way: the registry, then the server hosts (MCP, LSP) over it,
	// then the dispatcher over them.
	c.projects = project.NewRegistry(c.exts, db, c.paths.Extensions(), c.log)
	host := servers.NewMCP(c.projects, servers.MCPConfig{
		PATH:         c.hookPATH,
		StartTimeout: func() time.Duration { return extensions.LoadHookSettings(context.Background(), db).MCPStartTimeout },
		CallTimeout:  func() time.Duration { return extensions.LoadHookSettings(context.Background(), db).MCPCallTimeout },
		OpenBrowser:  c.openBrowser,
		AppSecrets:   c.providerKeyVar,
	})
	c.disp = dispatch.New(c.projects, dispatch.Config{
		HookPATH:       c.hookPATH,
		DefaultTimeout: func() time.Duration { return extensions.LoadHookSettings(context.Background(), db).DefaultTimeout },
		MCP:            host,
		LSP:            servers.NewLSP(c.projects, servers.LSPConfig{PATH: c.hookPATH, AppSecrets: c.providerKeyVar}),
	})
	return c, nil
}

// openBrowser opens a sign-in page where there is a window to do it.
func (c *core) openBrowser(u string) error {
	if open := c.browser.Load(); open != nil {
		return (*open)(u)
	}
	return mcp.ErrNoBrowser
}

func (c *core) openLog() error {
	path := c.paths.LogFile()
	if info, err := os.Stat(path); err == nil && info.Size() > maxLogBytes {
		os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open the log: %w", err) // err names the path
	}
	c.logF = f
	c.log = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(c.log)
	return nil
}

func (c *core) close() {
	// MCP servers and whatever hooks left running end with the app that
	// started them.
	if c.disp != nil {
		c.disp.Close()
	}
	if c.exts != nil {
		c.exts.Flush() // the last hook runs' records
	}
	if c.db != nil {
		c.db.Close()
	}
	if c.logF != nil {
		c.logF.Close()
	}
}

// hookPATH is the Preferences override, else the detected PATH (the app's
// own, then the login shell's entries it lacks, then common locations),
// for hooks and MCP servers alike.
func (c *core) hookPATH() string {
	if p := extensions.LoadHookSettings(context.Background(), c.db).PATH; p != "" {
		return p
	}
	return c.DetectedPATH()
}

// DetectedPATH is hookrun.LoginShellPATH, resolved once.
func (c *core) DetectedPATH() string {
	c.pathOnce.Do(func() { c.loginPATH = hookrun.LoginShellPATH(context.Background()) })
	return c.loginPATH
}

// provider reads the provider settings for the next model call, with the
// AGENTDESK_* environment overrides applied and the context window the
// server states (unless the user set one).
func (c *core) provider() (llm.Provider, llm.Config, error) {
	ps, _, err := agent.LoadProvider(context.Background(), c.db)
	if err != nil {
		return nil, llm.Config{}, err
	}
	cfg := ps.Config(os.Getenv)
	overrideFromEnv(&cfg)
	c.servers.Window(context.Background(), ps, cfg).Apply(&cfg)
	prov, cfg, err := c.reuseProvider(cfg)
	if err != nil {
		return nil, cfg, err
	}
	return c.servers.Watch(prov, cfg), cfg, nil
}

// contextWindow is the window the next turn uses, and where it was read.
func (c *core) contextWindow(ctx context.Context) agent.Window {
	ps, _, err := agent.LoadProvider(ctx, c.db)
	if err != nil {
		return agent.Window{}
	}
	cfg := ps.Config(os.Getenv)
	overrideFromEnv(&cfg)
	return c.servers.Window(ctx, ps, cfg)
}

// reuseProvider returns the provider for cfg, the last one while cfg is
// unchanged.
func (c *core) reuseProvider(cfg llm.Config) (llm.Provider, llm.Config, error) {
	// Reuse the provider while the settings stay the same: each one holds
	// an HTTP transport with its pooled connections.
	c.provMu.Lock()
	defer c.provMu.Unlock()
	if c.prov != nil && c.provCfg == cfg {
		return c.prov, cfg, nil
	}
	p, err := agent.NewProvider(cfg)
	if err != nil {
		return nil, cfg, err
	}
	c.prov, c.provCfg = p, cfg
	return p, cfg, nil
}

func overrideFromEnv(cfg *llm.Config) {
	if v := os.Getenv(envProvider); v != "" {
		cfg.Kind = v
	}
	if v := os.Getenv(envBaseURL); v != "" {
		cfg.BaseURL = v
	}
	if v := os.Getenv(envModel); v != "" {
		cfg.Model = v
	}
	if v := os.Getenv(envAPIKey); v != "" {
		cfg.APIKey = v
	}
	for name, d := range map[string]*time.Duration{envFirstByteTimeout: &cfg.FirstByteTimeout, envIdleTimeout: &cfg.IdleTimeout} {
		if v, err := time.ParseDuration(os.Getenv(name)); err == nil && v > 0 {
			*d = v
		}
	}
}

// newAgent builds the agent loop with the given approver and policy;
// attention is the window's (nil on the
// command line: nobody is notified).
func (c *core) newAgent(approver agent.Approver, policy func() agent.Policy, attention agent.Attention) *agent.Agent {
	home, _ := os.UserHomeDir()
	return agent.New(agent.Config{
		DB: c.db, Provider: c.provider, Lifecycle: c.disp, Skills: c.disp, Approver: approver, Policy: policy, Attention: attention,
		HomeDir: home, RalphRounds: func() int { return agent.LoadRalphRounds(context.Background(), c.db) },
		StopHookLimit: func() int { return extensions.LoadHookSettings(context.Background(), c.db).StopLimit },
		ContextCap:    func() int { return extensions.LoadHookSettings(context.Background(), c.db).ContextCapKiB << 10 },
		MCPToolShare:  func() int { return extensions.LoadHookSettings(context.Background(), c.db).MCPToolShare },
		CommandEnv:    c.commandEnv(), CommandsUnconfined: c.unconfined, Logger: c.log, TranscriptDir: c.paths.Transcripts(),
		Commands: c.disp, Agents: c.disp, Styles: c.disp, MCP: c.disp, CodeIntel: c.disp, ProjectTrusted: c.projects.Trusted, ProjectSettings: c.projects.TrustedSettings,
		SubagentModel: func(alias string) string { return agent.LoadSubagentModel(context.Background(), c.db, alias) },
	})
}

// commandEnv is run_command's environment: the user's, less every
// credential-looking variable, AgentDesk's own key variable and the one
// the provider settings name (tools.CommandEnv).
func (c *core) commandEnv() []string {
	return tools.CommandEnv(os.Environ(), nil, append([]string{envAPIKey}, c.providerKeyVar()...))
}

// providerKeyVar is the environment variable the provider settings read
// the model's key from, if any: AgentDesk's own secret, which no
// command, hook or server is given.
func (c *core) providerKeyVar() []string {
	if ps, _, err := agent.LoadProvider(context.Background(), c.db); err == nil && ps.APIKeyEnv != "" {
		return []string{ps.APIKeyEnv}
	}
	return nil
}
