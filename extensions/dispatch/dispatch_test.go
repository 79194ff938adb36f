//go:build unix

package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
	"github.com/agentdesk/agentdesk/extensions"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

const testPATH = "/usr/bin:/bin"

// loopEnv is the fixture extension, installed over loopback HTTPS and
// enabled, feeding a real agent loop that talks to a fake model server.
type loopEnv struct {
	*testEnv
	disp    *Dispatcher
	model   *llmtest.Server
	agent   *agent.Agent
	project string
	info    extensions.Info
}

func newLoopEnv(t *testing.T, repos map[string]*gittest.Repo, enable ...string) *loopEnv {
	t.Helper()
	if repos == nil {
		repos = map[string]*gittest.Repo{"fixture": repo(t, fixtureFiles(t))}
	}
	l := &loopEnv{testEnv: newTestEnv(t, repos), model: llmtest.NewOpenAI(t)}
	t.Setenv("OPENAI_API_KEY", "sk-secret-openai")
	t.Setenv("ANTHROPIC_API_KEY", "sk-secret-anthropic")
	t.Setenv("AGENTDESK_API_KEY", "sk-secret-agentdesk")
	t.Setenv("SOME_OTHER_VAR", "leak")
	for _, name := range enable {
		l.info = l.install(name, "")
		l.enable(l.info.ID)
	}
	l.project = filepath.Join(t.TempDir(), "project")
	os.MkdirAll(l.project, 0o755)
	l.startAgent()
	return l
}

func (l *loopEnv) startAgent() {
	l.disp = New(l.m, Config{HookPATH: func() string { return testPATH }})
	l.agent = agent.New(agent.Config{DB: l.db, Lifecycle: l.disp, Skills: l.disp, Commands: l.disp, Agents: l.disp, Policy: func() agent.Policy { return agent.PolicyNever },
		HomeDir: filepath.Join(l.home, "home"), Provider: func() (llm.Provider, llm.Config, error) {
			cfg := l.model.Config()
			p, err := agent.NewProvider(cfg)
			return p, cfg, err
		}})
}

func (l *loopEnv) mode(m string) {
	if err := os.WriteFile(filepath.Join(l.project, ".fixture-mode"), []byte(m), 0o644); err != nil {
		l.t.Fatal(err)
	}
}

func (l *loopEnv) session() *agent.Session {
	l.t.Helper()
	p, err := l.agent.OpenProject(context.Background(), l.project)
	if err != nil {
		l.t.Fatal(err)
	}
	s, err := l.agent.NewSession(context.Background(), p)
	if err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() { s.Close() })
	l.idle(s)
	return s
}

func (l *loopEnv) idle(s *agent.Session) {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if s.WaitIdle(ctx) != nil {
		l.t.Fatal("session never became idle")
	}
}

func (l *loopEnv) send(s *agent.Session, prompt string) llmtest.Request {
	l.t.Helper()
	n := len(l.model.Requests())
	s.Submit(prompt)
	l.idle(s)
	reqs := l.model.Requests()
	if len(reqs) <= n {
		l.t.Fatalf("prompt %q made no model request", prompt)
	}
	return reqs[len(reqs)-1]
}

func (l *loopEnv) dataFile(name string) string {
	body, _ := os.ReadFile(filepath.Join(l.info.DataDir, name))
	return string(body)
}

func hosts(s *agent.Session, kind agent.HostKind) []string {
	var out []string
	for _, e := range s.Entries() {
		if e.Host != nil && e.Host.Kind == kind {
			out = append(out, e.Host.Text)
		}
	}
	return out
}

func TestFixtureContextReachesTheRequest(t *testing.T) {
	l := newLoopEnv(t, nil, "fixture")
	s := l.session()
	events, _ := s.Bus().Drain()
	shown := false
	for _, ev := range events {
		shown = shown || ev.Kind == agent.EventStatus && ev.Status == "Fixture: Starting fixture"
	}
	if !shown {
		t.Error("the hook's statusMessage was not shown while it ran")
	}
	r := l.send(s, "hello")
	if strings.Count(r.System, "fixture context for SessionStart run 1") != 1 {
		t.Fatalf("SessionStart context not in the system prompt once:\n%s", r.System)
	}
	user := r.LastMessage()
	if len(user.Texts) != 2 || !strings.Contains(user.Texts[0], `<extension-context source="fixture" event="UserPromptSubmit">`) ||
		!strings.Contains(user.Texts[0], "fixture context for UserPromptSubmit run 1") || user.Texts[1] != "hello" {
		t.Fatalf("user message = %q", user.Texts)
	}
	chips := hosts(s, agent.HostStatus)
	if len(chips) != 2 || chips[0] != "FIXTURE:SessionStart" || chips[1] != "FIXTURE:UserPromptSubmit" {
		t.Fatalf("chips = %q", chips)
	}
	if strings.Contains(string(r.Raw), "FIXTURE:") {
		t.Fatal("a systemMessage reached the model")
	}

	// The hook got the documented stdin and only the allowlisted env.
	var in map[string]any
	if err := json.Unmarshal([]byte(l.dataFile("stdin-UserPromptSubmit.json")), &in); err != nil {
		t.Fatal(err)
	}
	if in["prompt"] != "hello" || in["hook_event_name"] != "UserPromptSubmit" || in["session_id"] != s.ID() || in["cwd"] != s.Project() {
		t.Fatalf("stdin = %v", in)
	}
	var start map[string]any
	json.Unmarshal([]byte(l.dataFile("stdin-SessionStart.json")), &start)
	if start["source"] != "startup" || start["timestamp"] == "" {
		t.Fatalf("SessionStart stdin = %v", start)
	}
	env := l.dataFile("env-UserPromptSubmit.txt")
	for _, want := range []string{"CLAUDE_PLUGIN_ROOT=" + l.info.Dir, "CLAUDE_PLUGIN_DATA=" + l.info.DataDir, "CLAUDE_PROJECT_DIR=" + s.Project(),
		"AGENTDESK_SESSION_ID=" + s.ID(), "XDG_CONFIG_HOME=" + l.info.DataDir, "CLAUDE_CONFIG_DIR=" + l.info.DataDir, "CODEX_HOME=" + l.info.DataDir, "TERM=dumb"} {
		if !strings.Contains(env, want) {
			t.Errorf("hook env lacks %s", want)
		}
	}
	for _, leak := range []string{"sk-secret", "SOME_OTHER_VAR", "OPENAI_API_KEY", "AGENTDESK_API_KEY"} {
		if strings.Contains(env, leak) {
			t.Errorf("hook env leaks %s", leak)
		}
	}
	if got := l.dataFile("count-NeverRuns") + l.dataFile("count-CwdChanged"); got != "" {
		t.Error("hooks of unmatched matchers or unsupported events ran")
	}
}

func TestResumeCompactionAndQueuedPrompts(t *testing.T) {
	l := newLoopEnv(t, nil, "fixture")
	l.mode("stable")
	s := l.session()
	l.model.Respond(func(r llmtest.Request) llmtest.Reply {
		if strings.HasPrefix(r.System, "You compress") {
			return llmtest.Reply{Text: "SUMMARY"}
		}
		return llmtest.Reply{Text: "ok"}
	})
	l.send(s, "one")
	id := s.ID()
	s.Close()

	// Restart: a new dispatcher and agent on the same database.
	l.db.Close()
	l.open()
	l.startAgent()
	s, err := l.agent.OpenSession(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l.idle(s)
	r := l.send(s, "two")
	if n := strings.Count(r.System, "stable fixture context for SessionStart"); n != 1 {
		t.Fatalf("after resume the SessionStart block appears %d times", n)
	}
	l.send(s, "/compact")
	r = l.send(s, "three")
	if n := strings.Count(r.System, "stable fixture context for SessionStart"); n != 1 || !strings.Contains(r.System, "SUMMARY") {
		t.Fatalf("after compaction the block appears %d times", n)
	}
	if strings.TrimSpace(l.dataFile("count-SessionStart")) != "3" {
		t.Fatalf("SessionStart ran %s times, want 3 (startup, resume, compact)", l.dataFile("count-SessionStart"))
	}
	if strings.TrimSpace(l.dataFile("count-UserPromptSubmit")) != "3" {
		t.Fatalf("UserPromptSubmit ran %s times: /compact must not fire it", l.dataFile("count-UserPromptSubmit"))
	}

	// A queued prompt gets its own UserPromptSubmit context in its own turn.
	hold := make(chan struct{})
	l.model.Push(llmtest.Reply{Text: "slow", Hold: hold})
	l.mode("text")
	s.Submit("four")
	l.model.WaitRequests(t, len(l.model.Requests())+1)
	s.Submit("five")
	close(hold)
	l.idle(s)
	reqs := l.model.Requests()
	last := reqs[len(reqs)-1].LastMessage()
	if last.Texts[1] != "five" || !strings.Contains(last.Texts[0], "plain fixture context for UserPromptSubmit run 5") {
		t.Fatalf("queued prompt's message = %q", last.Texts)
	}
}

func TestSubagentContextOnlyInRalphChildren(t *testing.T) {
	l := newLoopEnv(t, nil, "fixture")
	s := l.session()
	l.model.Respond(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.System, "Ralph round 2") {
			return llmtest.Reply{Text: agent.RalphMarker}
		}
		return llmtest.Reply{Text: "ok"}
	})
	l.send(s, "/ralph --rounds 3 do it")
	rounds := 0
	for _, r := range l.model.Requests() {
		has := strings.Contains(r.System, "fixture context for SubagentStart")
		child := strings.Contains(r.System, "Ralph round")
		if has != child {
			t.Fatalf("SubagentStart context in a request that is not a Ralph round (or missing from one):\n%s", r.System)
		}
		if child {
			rounds++
			if strings.Contains(r.System, "fixture context for SessionStart") {
				t.Error("a Ralph child got the parent's SessionStart context")
			}
		}
	}
	var in map[string]any
	json.Unmarshal([]byte(l.dataFile("stdin-SubagentStart.json")), &in)
	if rounds != 2 || in["agent_type"] != "ralph" || in["round"] != float64(2) || in["parent_session_id"] != s.ID() {
		t.Fatalf("rounds = %d, stdin = %v", rounds, in)
	}
}

func TestFailureClassesAreVisibleOnceAndRecover(t *testing.T) {
	l := newLoopEnv(t, nil, "fixture")
	s := l.session()
	for _, mode := range []string{"exit1", "exit2", "badjson", "badutf8", "wrongevent", "flood", "crash", "block", "json"} {
		t.Run(mode, func(t *testing.T) {
			l.mode(mode)
			before := len(hosts(s, agent.HostNotice))
			r := l.send(s, "prompt in "+mode)
			notices := hosts(s, agent.HostNotice)[before:]
			user := r.LastMessage()
			if user.Texts[len(user.Texts)-1] != "prompt in "+mode {
				t.Fatalf("the prompt must go through unchanged: %q", user.Texts)
			}
			switch mode {
			case "json":
				if len(notices) != 0 || len(user.Texts) != 2 {
					t.Fatalf("a success must add context and no notice: %q %q", notices, user.Texts)
				}
				info, _ := l.m.Show(context.Background(), "fixture")
				if info.LastError != "" {
					t.Fatalf("a later success must clear the error: %q", info.LastError)
				}
			case "block":
				if len(notices) != 1 || !strings.Contains(notices[0], "fixture says stop") {
					t.Fatalf("block reason notice = %q", notices)
				}
			default:
				if len(user.Texts) != 1 {
					t.Fatalf("a failed hook's output must be dropped: %q", user.Texts)
				}
				if len(notices) != 1 || !strings.HasPrefix(notices[0], "Fixture: ") {
					t.Fatalf("notices = %q, want one naming the extension", notices)
				}
				r2 := l.send(s, "again in "+mode)
				if again := hosts(s, agent.HostNotice)[before+1:]; len(again) != 0 || len(r2.LastMessage().Texts) != 1 {
					t.Fatalf("the same failure must not be announced twice: %q", again)
				}
				info, _ := l.m.Show(context.Background(), "fixture")
				if info.LastError == "" || len(info.RecentRuns) == 0 || info.RecentRuns[0].Error == "" {
					t.Fatalf("failure not recorded: %q %+v", info.LastError, info.RecentRuns)
				}
			}
		})
	}
}

func TestMissingProgramIsOneActionableDiagnostic(t *testing.T) {
	files := map[string]gittest.File{
		".codex-plugin/plugin.json": {Body: `{"name":"needsnode"}`},
		"hooks/hooks.json": {Body: `{"hooks":{
			"SessionStart":[{"hooks":[{"type":"command","command":"node \"${CLAUDE_PLUGIN_ROOT}/hooks/a.js\"; exit 0"}]}],
			"UserPromptSubmit":[{"hooks":[{"type":"command","command":"node \"${CLAUDE_PLUGIN_ROOT}/hooks/b.js\"; exit 0"}]}]}}`},
		"hooks/a.js": {Body: "console.log('a')"},
		"hooks/b.js": {Body: "console.log('b')"},
	}
	l := newLoopEnv(t, map[string]*gittest.Repo{"needsnode": repo(t, files)}, "needsnode")
	empty := t.TempDir() // no node here
	l.disp.hookPATH = func() string { return empty }
	s := l.session()
	for i := 0; i < 3; i++ {
		l.send(s, fmt.Sprintf("turn %d", i))
	}
	notices := hosts(s, agent.HostNotice)
	if len(notices) != 1 || !strings.Contains(notices[0], "`node`") || !strings.Contains(notices[0], "PATH") {
		t.Fatalf("notices = %q; want exactly one actionable message about node", notices)
	}
	info, _ := l.m.Show(context.Background(), "needsnode")
	if !strings.Contains(info.LastError, "node") {
		t.Fatalf("pane error = %q", info.LastError)
	}
}

func TestTimeoutAndCancelKillTheHook(t *testing.T) {
	l := newLoopEnv(t, nil, "fixture")
	s := l.session()
	l.mode("slow")
	l.disp.defaultTimeout = func() time.Duration { return time.Second }
	began := time.Now()
	l.send(s, "times out")
	if took := time.Since(began); took > 20*time.Second {
		t.Fatalf("the turn waited %v for a slow hook", took)
	}
	pid := readPID(t, l.dataFile("pid-UserPromptSubmit"))
	childproctest.WaitGone(t, pid)

	// Disabling while a hook runs kills it at once.
	os.Remove(filepath.Join(l.info.DataDir, "pid-UserPromptSubmit"))
	l.disp.defaultTimeout = func() time.Duration { return 60 * time.Second }
	s.Submit("will be disabled")
	waitFile(t, filepath.Join(l.info.DataDir, "pid-UserPromptSubmit"))
	pid = readPID(t, l.dataFile("pid-UserPromptSubmit"))
	if _, err := l.m.Disable(context.Background(), "fixture"); err != nil {
		t.Fatal(err)
	}
	childproctest.WaitGone(t, pid)
	l.idle(s)
	reqs := l.model.Requests()
	if strings.Contains(string(reqs[len(reqs)-1].Raw), "fixture context") {
		t.Fatal("a disabled extension's context was sent")
	}
}

func readPID(t *testing.T, s string) int {
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(s), &pid); err != nil {
		t.Fatalf("pid file %q: %v", s, err)
	}
	return pid
}

func waitFile(t *testing.T, path string) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		if body, err := os.ReadFile(path); err == nil && len(body) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestOrderIsDeterministicAcrossLatencies(t *testing.T) {
	repos := map[string]*gittest.Repo{}
	for i, delay := range []string{"0.3", "0", "0.15"} {
		name := fmt.Sprintf("ord%d", i)
		files := map[string]gittest.File{
			".codex-plugin/plugin.json": {Body: `{"name":"` + name + `"}`},
			"hooks/hooks.json":          {Body: `{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/h.sh"}]}]}`},
			"h.sh":                      {Body: "#!/bin/sh\nsleep " + delay + "\necho context from " + name + "\n", Mode: 0o755},
		}
		repos[name] = repo(t, files)
	}
	l := newLoopEnv(t, repos)
	for _, n := range []string{"ord0", "ord1", "ord2"} {
		l.install(n, "")
		l.enable(n)
	}
	s := l.session()
	for i := 0; i < 3; i++ {
		texts := l.send(s, "go").LastMessage().Texts
		if len(texts) != 4 || !strings.Contains(texts[0], "ord0") || !strings.Contains(texts[1], "ord1") || !strings.Contains(texts[2], "ord2") {
			t.Fatalf("context order = %q; want installation order", texts)
		}
	}
}

func TestDisableRemovesSkillsAndContext(t *testing.T) {
	l := newLoopEnv(t, nil, "fixture")
	s := l.session()
	r := l.send(s, "one")
	if !strings.Contains(r.System, "fixture-skill") {
		t.Fatalf("the extension's skill is not in the catalog:\n%s", r.System)
	}
	if _, err := l.m.Disable(context.Background(), "fixture"); err != nil {
		t.Fatal(err)
	}
	r = l.send(s, "two")
	if strings.Contains(r.System, "fixture-skill") || strings.Contains(string(r.Raw), "fixture context") {
		t.Fatalf("disabled extension still in the request:\n%s", r.Raw)
	}
}
