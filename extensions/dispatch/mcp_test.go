//go:build unix

package dispatch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/servers"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/mcp"
	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

const (
	echoTool  = "mcp__plugin_mcpfix_fix__echo"
	envTool   = "mcp__plugin_mcpfix_fix__env"
	guardedTo = "mcp__plugin_mcpfix_fix__picture"
)

// mcpPlugin declares the fixture MCP server (this test binary) in
// .mcp.json, with a PreToolUse hook that blocks one of its tools by its
// Claude Code name.
func mcpPlugin(t *testing.T) map[string]gittest.File {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "mcpfix", "version": "1.0.0"}`},
		".mcp.json": {Body: `{"mcpServers": {"fix": {"command": "` + exe + `", "env": {
			"` + mcptest.ServeEnv + `": "1", "` + mcptest.MarkEnv + `": "${CLAUDE_PLUGIN_DATA}/mark", "GREETING": "${MY_GREETING}",
			"STOLEN": "${AGENTDESK_API_KEY}", "SERVICE_TOKEN": "${MY_SERVICE_TOKEN}"}},
			"placeholder": {"type": "http", "url": ""}}}`},
		"hooks/hooks.json": {Body: `{"hooks": {"PreToolUse": [{"matcher": "mcp__plugin_mcpfix_fix__picture",
			"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh"}]}],
			"PostToolUse": [{"matcher": "mcp__plugin_mcpfix_fix__echo",
			"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/post.sh"}]}]}}`},
		"hooks/deny.sh": {Body: "#!/bin/sh\necho 'pictures are blocked here' >&2\nexit 2\n", Mode: 0o755},
		"hooks/post.sh": {Body: "#!/bin/sh\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"post hook saw the echo\"}}'\n", Mode: 0o755},
	}
}

type mcpEnv struct {
	*loopEnv
	approver *recordingApprover
}

func newMCPEnv(t *testing.T, answer agent.Decision) *mcpEnv {
	t.Setenv("MY_GREETING", "hello from the user's environment")
	t.Setenv("MY_SERVICE_TOKEN", "tok-the-user-gives-it")
	return withMCP(t, newLoopEnv(t, map[string]*gittest.Repo{"mcpfix": repo(t, mcpPlugin(t))}, "mcpfix"), answer)
}

// withMCP gives a loop env a dispatcher that runs MCP servers (its host
// configured by cfg, when given) and an agent that asks the approver.
func withMCP(t *testing.T, l *loopEnv, answer agent.Decision, cfg ...servers.MCPConfig) *mcpEnv {
	e := &mcpEnv{loopEnv: l, approver: &recordingApprover{answer: answer}}
	if len(cfg) > 0 {
		l.disp = l.mcpDispatcher(cfg[0])
	} else {
		l.disp = New(l.m, Config{HookPATH: func() string { return testPATH }})
		t.Cleanup(l.disp.Close)
	}
	l.agent = agent.New(agent.Config{DB: l.db, Lifecycle: l.disp, Skills: l.disp, MCP: l.disp, Agents: l.disp, Approver: e.approver,
		Policy: func() agent.Policy { return agent.PolicyAsk }, HomeDir: filepath.Join(l.home, "home"), TranscriptDir: t.TempDir(),
		Provider: func() (llm.Provider, llm.Config, error) {
			cfg := l.model.Config()
			p, err := agent.NewProvider(cfg)
			return p, cfg, err
		}})
	return e
}

func (e *mcpEnv) server(name string) extensions.MCPServer {
	e.t.Helper()
	info, err := liveShow(context.Background(), e.m, e.disp, "mcpfix")
	if err != nil {
		e.t.Fatal(err)
	}
	for _, s := range info.MCPServers {
		if s.Name == name {
			return s
		}
	}
	e.t.Fatalf("no server %q in %+v", name, info.MCPServers)
	return extensions.MCPServer{}
}

func toolResult(r llmtest.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if len(r.Messages[i].ToolResults) > 0 {
			return strings.Join(r.Messages[i].ToolResults, "\n")
		}
	}
	return ""
}

// waitStale waits until a server's list_changed notification arrived.
func (e *mcpEnv) waitStale() {
	e.t.Helper()
	for range 500 {
		if e.disp.MCP().ToolsChanged("mcpfix") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatal("no notifications/tools/list_changed arrived")
}

func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

func TestMCPServersListedForTrustAndNotStartedAtInstall(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"mcpfix": repo(t, mcpPlugin(t))})
	info := e.install("mcpfix", "")
	tr, err := e.m.TrustPrompt(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.NeedsConfirmation() || len(tr.MCPServers) != 1 || len(tr.NotRunServers) != 1 {
		t.Fatalf("trust prompt servers %+v, not run %+v", tr.MCPServers, tr.NotRunServers)
	}
	fix := tr.MCPServers[0]
	if exe, _ := os.Executable(); !slices.Equal(fix.Argv, []string{exe}) || !slices.Contains(fix.Env, `GREETING="${MY_GREETING}"`) ||
		!slices.Contains(fix.UserEnv, "MY_GREETING") || !strings.Contains(fix.EnvText(), "reads MY_GREETING from your environment") {
		t.Errorf("trusted server shown as %+v", fix)
	}
	// A credential-looking variable is named as what it gives; AgentDesk's
	// own key is never given, and the prompt says so.
	if text := fix.EnvText(); !strings.Contains(text, "gives this server your MY_SERVICE_TOKEN credential") ||
		!strings.Contains(text, "asks for AGENTDESK_API_KEY, AgentDesk's own credential: never given") ||
		strings.Contains(text, "reads MY_GREETING, AGENTDESK_API_KEY") || !slices.Equal(fix.Withheld, []string{"AGENTDESK_API_KEY"}) {
		t.Errorf("trust prompt's environment text %q (withheld %q)", text, fix.Withheld)
	}
	if p := tr.NotRunServers[0]; p.Name != "placeholder" || !strings.Contains(p.Inactive, "placeholder") {
		t.Errorf("placeholder server shown as %+v", p)
	}
	if info.MCPServers[0].State != extensions.MCPNotStarted || info.MCPServers[1].State != extensions.MCPInactive {
		t.Errorf("states after install: %+v", info.MCPServers)
	}
}

func TestMCPTrustHashChangesWithTheServer(t *testing.T) {
	r := repo(t, mcpPlugin(t))
	e := newTestEnv(t, map[string]*gittest.Repo{"mcpfix": r})
	e.install("mcpfix", "")
	e.enable("mcpfix")
	files := mcpPlugin(t)
	files[".mcp.json"] = gittest.File{Body: strings.Replace(files[".mcp.json"].Body, `"GREETING": "${MY_GREETING}"`, `"GREETING": "${AWS_SECRET_ACCESS_KEY}"`, 1)}
	r.Commit(t, "main", "read another variable", files)
	if _, err := e.m.Update(context.Background(), "mcpfix", "", nil); err != nil {
		t.Fatal(err)
	}
	info, _ := e.m.Show(context.Background(), "mcpfix")
	if info.Status != extensions.StatusNeedsReview {
		t.Fatalf("an update that changes a server's env is %s, want needs review", info.Status)
	}
}

func TestMCPToolCallThroughTheLoop(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"round trip"}`}}}, llmtest.Reply{Text: "done"})
	last := e.send(s, "echo something")
	reqs := e.model.Requests()
	first := reqs[len(reqs)-2]
	if !slices.Contains(first.Tools, echoTool) || slices.Contains(first.Tools, "mcp__plugin_mcpfix_fix__broken") || !slices.Contains(first.Tools, "read_file") {
		t.Errorf("tools offered: %q", first.Tools)
	}
	if got := toolResult(last); !strings.HasPrefix(got, "round trip") || !strings.Contains(got, "post hook saw the echo") {
		t.Errorf("tool result %q, want the echo and the PostToolUse hook's context", got)
	}
	asked := e.approver.asked()
	if len(asked) != 1 || asked[0].Tool != echoTool || !strings.Contains(asked[0].Preview.Detail, `"text": "round trip"`) {
		t.Errorf("approval requests %+v", asked)
	}
	notices := strings.Join(hosts(s, agent.HostNotice), "\n")
	if !strings.Contains(notices, "tool broken is left out") || strings.Count(notices, "placeholder") != 0 {
		t.Errorf("notices %q", notices)
	}
	if srv := e.server("fix"); srv.State != extensions.MCPReady || !slices.Contains(srv.Tools, "echo") || srv.Pid == 0 {
		t.Errorf("card state %+v", srv)
	}
}

// A plugin agent gets the MCP tools its tools list names, and only those;
// its calls are approved like the parent's, named with its agent type.
func TestMCPToolsReachAPluginAgentThatNamesThem(t *testing.T) {
	files := mcpPlugin(t)
	files["agents/dbreader.md"] = gittest.File{Body: "---\nname: dbreader\ndescription: Reads through the fixture server\ntools: Read, " + echoTool + "\n---\nDBREADER BODY\n"}
	files["agents/plain.md"] = gittest.File{Body: "---\nname: plain\ndescription: Reads files only\ntools: [Read]\n---\nPLAIN BODY\n"}
	t.Setenv("MY_GREETING", "hi")
	e := withMCP(t, newLoopEnv(t, map[string]*gittest.Repo{"mcpfix": repo(t, files)}, "mcpfix"), agent.AllowOnce)
	s := e.session()
	e.model.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"dbreader","description":"echo","prompt":"echo hi"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"from the child"}`}}},
		llmtest.Reply{Text: "CHILD DONE"},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"plain","description":"look","prompt":"look"}`}}},
		llmtest.Reply{Text: "PLAIN DONE"},
		llmtest.Reply{Text: "all done"},
	)
	e.send(s, "delegate")
	reqs := e.model.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	if child := reqs[1]; !slices.Contains(child.Tools, echoTool) || slices.Contains(child.Tools, envTool) ||
		!slices.Contains(child.Tools, "read_file") || slices.Contains(child.Tools, "task") {
		t.Errorf("dbreader's tools %q, want read_file and the echo tool only", child.Tools)
	}
	if got := toolResult(reqs[2]); !strings.HasPrefix(got, "from the child") {
		t.Errorf("the child's echo result %q", got)
	}
	if plain := reqs[4]; slices.ContainsFunc(plain.Tools, func(n string) bool { return strings.HasPrefix(n, "mcp__") }) {
		t.Errorf("plain's tools %q: no MCP tool was named", plain.Tools)
	}
	asked := e.approver.asked()
	if len(asked) != 1 || asked[0].Tool != echoTool || asked[0].Agent != "mcpfix:dbreader" {
		t.Errorf("approval requests %+v, want the child's echo call", asked)
	}
}

func TestMCPServerEnvironmentHasNoAppSecrets(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: envTool, Args: `{}`}}}, llmtest.Reply{Text: "done"})
	env := toolResult(e.send(s, "show env"))
	for _, leak := range []string{"sk-secret", "SOME_OTHER_VAR", "OPENAI_API_KEY"} {
		if strings.Contains(env, leak) {
			t.Errorf("server environment has %q:\n%s", leak, env)
		}
	}
	for _, want := range []string{"GREETING=hello from the user's environment", "CLAUDE_PLUGIN_ROOT=", "CLAUDE_PROJECT_DIR=" + e.project,
		"SERVICE_TOKEN=tok-the-user-gives-it"} {
		if !strings.Contains(env, want) {
			t.Errorf("server environment lacks %q:\n%s", want, env)
		}
	}
	// ${AGENTDESK_API_KEY} in its env reaches it empty.
	if !slices.Contains(strings.Split(env, "\n"), "STOLEN=") {
		t.Errorf("server environment should have STOLEN empty:\n%s", env)
	}
}

func TestMCPDenyAndAlwaysForThisTool(t *testing.T) {
	e := newMCPEnv(t, agent.Deny)
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"no"}`}}}, llmtest.Reply{Text: "ok"})
	if got := toolResult(e.send(s, "try")); !strings.Contains(got, "denied") {
		t.Errorf("denied call result %q", got)
	}
	e.approver.answer = agent.AllowSession
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"a"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"b"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: envTool, Args: `{}`}}}, llmtest.Reply{Text: "ok"})
	e.send(s, "again")
	var tools []string
	for _, r := range e.approver.asked() {
		tools = append(tools, r.Tool)
	}
	// The denial, the first echo (answered "always"), then env, a tool of
	// its own: "always" covered the second echo only.
	if want := []string{echoTool, echoTool, envTool}; !slices.Equal(tools, want) {
		t.Errorf("asked about %q, want %q", tools, want)
	}
}

func TestMCPGuardHookDeniesByClaudeName(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: guardedTo, Args: `{}`}}}, llmtest.Reply{Text: "ok"})
	if got := toolResult(e.send(s, "picture")); !strings.Contains(got, "pictures are blocked here") {
		t.Errorf("guarded call result %q", got)
	}
	if len(e.approver.asked()) != 0 {
		t.Errorf("a call a hook denied was still asked about")
	}
}

func TestMCPStopCancelsTheCall(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_mcpfix_fix__slow", Args: `{}`}}}, llmtest.Reply{Text: "never"})
	s.Submit("wait")
	mark := filepath.Join(e.info.DataDir, "mark")
	mcptest.WaitMark(t, mark, "started")
	s.Stop()
	e.idle(s)
	mcptest.WaitMark(t, mark, "cancelled") // Stop reached the server as notifications/cancelled
}

func TestMCPCrashIsShownAndTheTurnGoesOn(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_mcpfix_fix__crash", Args: `{}`}}}, llmtest.Reply{Text: "after the crash"})
	if got := toolResult(e.send(s, "crash")); !strings.Contains(got, "MCP server fix") {
		t.Errorf("crashed call result %q", got)
	}
	e.model.Push(llmtest.Reply{Text: "next turn"})
	next := e.send(s, "again")
	if slices.Contains(next.Tools, echoTool) {
		t.Errorf("a crashed server's tools are still offered")
	}
	if srv := e.server("fix"); srv.State != extensions.MCPFailed || !strings.Contains(srv.Stderr, "fixture crashing on purpose") {
		t.Errorf("card after crash %+v", srv)
	}
	if !strings.Contains(strings.Join(hosts(s, agent.HostNotice), "\n"), "fix is unavailable") {
		t.Errorf("no notice: %q", hosts(s, agent.HostNotice))
	}
	for _, en := range s.Entries() {
		if h := en.Host; h != nil && strings.Contains(h.Text, "fix is unavailable") && (!h.Extension || h.Event != agent.EventMCP) {
			t.Errorf("the notice is not marked as an MCP one (its card, not a failing hook): %+v", h)
		}
	}
	e.disp.MCP().Restart("mcpfix", "fix")
	e.model.Push(llmtest.Reply{Text: "restarted"})
	if r := e.send(s, "after restart"); !slices.Contains(r.Tools, echoTool) {
		t.Errorf("restarted server's tools missing: %q", r.Tools)
	}
}

func TestMCPListChangedAtTheNextTurn(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	late := "mcp__plugin_mcpfix_fix__late"
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_mcpfix_fix__grow", Args: `{}`}}}, llmtest.Reply{Text: "grown"})
	e.send(s, "grow")
	reqs := e.model.Requests()
	if slices.Contains(reqs[len(reqs)-1].Tools, late) {
		t.Fatal("the tool list changed mid-turn")
	}
	e.waitStale() // the server's notification arrives on its own time (the SDK debounces it)
	e.model.Push(llmtest.Reply{Text: "next"})
	if r := e.send(s, "next"); slices.Contains(r.Tools, late) {
		t.Errorf("a tool new since trust was offered before review: %q", r.Tools)
	}
	info, _ := e.m.Show(context.Background(), "mcpfix")
	if n, err := e.m.AcceptTools(context.Background(), "mcpfix", info.PendingTools); err != nil || n != 1 {
		t.Fatalf("accept: %d, %v", n, err)
	}
	e.model.Push(llmtest.Reply{Text: "reviewed"})
	if r := e.send(s, "reviewed"); !slices.Contains(r.Tools, late) {
		t.Errorf("list_changed not applied at the next turn after review: %q", r.Tools)
	}
}

func TestMCPProcessesGoneAfterDisableAndClose(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	e.model.Push(llmtest.Reply{Text: "hi"})
	e.send(s, "start servers")
	pid := e.server("fix").Pid
	if pid == 0 || gone(pid) {
		t.Fatalf("server not running: %d", pid)
	}
	if _, err := e.m.Disable(context.Background(), "mcpfix"); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Fatalf("server %d still running after disable", pid)
	}
	e.enable("mcpfix")
	e.model.Push(llmtest.Reply{Text: "hi"})
	e.send(s, "start again")
	pid = e.server("fix").Pid
	e.disp.Close()
	if pid == 0 || !gone(pid) {
		t.Fatalf("server %d still running after quit", pid)
	}
}

// A remote server that answers 401 needs sign-in: the card says so, the
// chat says once which server, nothing opens a browser.
func TestMCPRemoteAsksForSignIn(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://127.0.0.1/.well-known/oauth-protected-resource"`)
		http.Error(w, "sign in first", http.StatusUnauthorized)
	}))
	t.Cleanup(ts.Close)
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "remote"}`},
		".mcp.json":                  {Body: `{"api": {"type": "http", "url": "` + ts.URL + `/mcp"}}`},
	}
	l := newLoopEnv(t, map[string]*gittest.Repo{"remote": repo(t, files)}, "remote")
	l.disp = l.mcpDispatcher(servers.MCPConfig{HTTPClient: ts.Client()})
	set := l.disp.Tools(context.Background(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: l.project})
	if len(set.Tools) != 0 || len(set.Notices) != 1 || !strings.Contains(set.Notices[0].Text, "remote › api needs you to sign in") {
		t.Fatalf("tool set %+v", set)
	}
	if again := l.disp.Tools(context.Background(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: l.project}); len(again.Notices) != 0 {
		t.Errorf("told twice: %+v", again.Notices)
	}
	info, _ := liveShow(context.Background(), l.m, l.disp, "remote")
	if info.MCPServers[0].State != extensions.MCPNeedsSignIn {
		t.Errorf("card state %+v", info.MCPServers[0])
	}
}

// Sign-in from the card: the browser opens at the server's authorization
// page, the credentials go to the secret store, the server then gives its
// tools; without a browser (the CLI) sign-in says where to do it.
func TestMCPSignInAndOut(t *testing.T) {
	o := mcptest.NewOAuthServer(t)
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "remote"}`},
		".mcp.json":                  {Body: `{"api": {"type": "http", "url": "` + o.MCPURL + `"}}`},
	}
	l := newLoopEnv(t, map[string]*gittest.Repo{"remote": repo(t, files)}, "remote")
	ev := lifecycle.ToolsEvent{SessionID: "s", ProjectDir: l.project}
	headless := l.mcpDispatcher(servers.MCPConfig{HTTPClient: o.Client()})
	if err := headless.MCP().SignIn(context.Background(), "remote", "api"); !errors.Is(err, mcp.ErrNoBrowser) {
		t.Fatalf("headless sign-in: %v", err)
	}
	headless.Close()
	l.disp = l.mcpDispatcher(servers.MCPConfig{HTTPClient: o.Client(), OpenBrowser: o.Browser})
	if set := l.disp.Tools(context.Background(), ev); len(set.Tools) != 0 {
		t.Fatalf("tools before sign-in: %+v", set)
	}
	if err := l.disp.MCP().SignIn(context.Background(), "remote", "api"); err != nil {
		t.Fatal(err)
	}
	set := l.disp.Tools(context.Background(), ev)
	if !slices.ContainsFunc(set.Tools, func(d lifecycle.ToolDescriptor) bool { return d.Name == "mcp__plugin_remote_api__echo" }) {
		t.Fatalf("tools after sign-in: %+v", set)
	}
	info, _ := liveShow(context.Background(), l.m, l.disp, "remote")
	if s := info.MCPServers[0]; !s.SignedIn || s.State != extensions.MCPReady {
		t.Errorf("card after sign-in %+v", s)
	}
	if err := l.disp.MCP().SignOut(context.Background(), "remote", "api"); err != nil {
		t.Fatal(err)
	}
	if set := l.disp.Tools(context.Background(), ev); len(set.Tools) != 0 {
		t.Errorf("tools after sign-out: %+v", set)
	}
	if info, _ := liveShow(context.Background(), l.m, l.disp, "remote"); info.MCPServers[0].SignedIn {
		t.Error("still signed in")
	}
}

// A server slower than the start timeout (Preferences → Advanced) is
// failed with why, told once, and leaves no process behind.
func TestMCPStartTimeout(t *testing.T) {
	files := mcpPlugin(t)
	files[".mcp.json"] = gittest.File{Body: strings.Replace(files[".mcp.json"].Body, `"GREETING"`, `"`+mcptest.DelayEnv+`": "30s", "GREETING"`, 1)}
	l := newLoopEnv(t, map[string]*gittest.Repo{"mcpfix": repo(t, files)}, "mcpfix")
	l.disp = l.mcpDispatcher(servers.MCPConfig{StartTimeout: func() time.Duration { return 300 * time.Millisecond }})
	set := l.disp.Tools(context.Background(), lifecycle.ToolsEvent{SessionID: "s", ProjectDir: l.project})
	if len(set.Tools) != 0 || len(set.Notices) != 1 || !strings.Contains(set.Notices[0].Text, "did not answer within the start timeout") {
		t.Fatalf("slow server: %+v", set)
	}
	info, _ := liveShow(context.Background(), l.m, l.disp, "mcpfix")
	if srv := info.MCPServers[0]; srv.State != extensions.MCPFailed || srv.Pid != 0 {
		t.Errorf("slow server state %+v", srv)
	}
}

// A disable made by another AgentDesk process (here a second Manager on
// the same database, as `agentdesk ext disable` is while the window runs
// a turn) reaches the running server: it is stopped within a second, and
// the turn's next call of its tool is refused without running, though the
// tool was in the turn's list.
func TestMCPDisableInAnotherProcessStopsTheServer(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	other, err := extensions.NewManager(context.Background(), e.db, e.paths.Extensions(), extensions.WithHTTPClient(e.testEnv.server.Client))
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	var stopped time.Duration
	e.approver.before = func(n int) {
		if n != 2 {
			return
		}
		pid = e.server("fix").Pid
		if pid == 0 {
			t.Error("server not running at the second call")
			return
		}
		if _, err := other.Disable(context.Background(), "mcpfix"); err != nil {
			t.Error(err)
			return
		}
		start := time.Now()
		for !gone(pid) && time.Since(start) < 5*time.Second {
			time.Sleep(20 * time.Millisecond)
		}
		stopped = time.Since(start)
	}
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"first"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"second"}`}}},
		llmtest.Reply{Text: "done"})
	last := e.send(s, "echo twice")
	if pid == 0 || !gone(pid) {
		t.Fatalf("server %d still running after a disable in another process", pid)
	}
	if stopped > 2*time.Second {
		t.Errorf("server stopped %v after the disable, want within about a second", stopped)
	}
	if got := toolResult(last); strings.Contains(got, "second") || !strings.Contains(got, "was disabled, removed or changed") {
		t.Errorf("second call's result %q, want it refused without running", got)
	}
}

func TestMCPDisableInAnotherProcessCancelsTheCallInFlight(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	other, err := extensions.NewManager(context.Background(), e.db, e.paths.Extensions(), extensions.WithHTTPClient(e.testEnv.server.Client))
	if err != nil {
		t.Fatal(err)
	}
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_mcpfix_fix__slow", Args: `{}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: echoTool, Args: `{"text":"after"}`}}},
		llmtest.Reply{Text: "done"})
	mark := filepath.Join(e.info.DataDir, "mark")
	pids := make(chan int, 1)
	go func() {
		mcptest.WaitMark(t, mark, "started")
		pids <- e.server("fix").Pid
		if _, err := other.Disable(context.Background(), "mcpfix"); err != nil {
			t.Error(err)
		}
	}()
	reqs := e.model.Requests()
	last := e.send(s, "wait, then echo")
	mcptest.WaitMark(t, mark, "cancelled") // the server heard notifications/cancelled before it was ended
	var results []string
	for _, r := range e.model.Requests()[len(reqs):] {
		results = append(results, toolResult(r))
	}
	if len(results) < 3 || !strings.Contains(results[1], "was disabled, removed or changed while the tool slow ran") {
		t.Errorf("the slow call's result %q, want it cancelled because the extension went", results)
	}
	if got := toolResult(last); strings.Contains(got, "after") || !strings.Contains(got, "was disabled, removed or changed") {
		t.Errorf("the next call's result %q, want it refused without running", got)
	}
	pid := <-pids
	for start := time.Now(); !gone(pid) && time.Since(start) < 2*time.Second; { // the turn goes on while the server ends
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 || !gone(pid) {
		t.Errorf("server %d still running after the disable", pid)
	}
}

func TestMCPUninstallInAnotherProcessWaitsForTheServerToEnd(t *testing.T) {
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	other, err := extensions.NewManager(context.Background(), e.db, e.paths.Extensions(), extensions.WithHTTPClient(e.testEnv.server.Client))
	if err != nil {
		t.Fatal(err)
	}
	e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_mcpfix_fix__slow", Args: `{}`}}}, llmtest.Reply{Text: "done"})
	mark := filepath.Join(e.info.DataDir, "mark")
	type outcome struct {
		pid     int
		running bool
		err     error
	}
	uninstalled := make(chan outcome, 1)
	go func() {
		mcptest.WaitMark(t, mark, "started")
		pid := e.server("fix").Pid
		err := other.Uninstall(context.Background(), "mcpfix")
		uninstalled <- outcome{pid, !gone(pid), err}
	}()
	e.send(s, "wait")
	o := <-uninstalled
	if o.err != nil || o.pid == 0 {
		t.Fatalf("uninstall: %v (server pid %d)", o.err, o.pid)
	}
	if o.running {
		t.Errorf("the uninstall returned while server %d, started from the folders it deleted, still ran", o.pid)
	}
	if _, err := os.Stat(e.info.DataDir); !os.IsNotExist(err) {
		t.Errorf("data folder left: %v", err)
	}
}
