//go:build realplugins

package dispatch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestRealPlugins installs published plugins and marketplaces from local
// clones (bare or not), served over loopback HTTPS, and logs what each
// gives: every plugin of a marketplace is installed, hooks and skills
// counted, diagnostics shown, then uninstalled. It needs no network; a
// marketplace entry pointing to another repository fails with "cannot
// reach host". Run it by hand:
//
//	REAL_PLUGINS="/path/to/superpowers.git /path/to/claude-plugins-official.git" \
//	  go test -tags realplugins -run TestRealPlugins -v ./extensions/
func TestRealPlugins(t *testing.T) {
	paths := strings.Fields(os.Getenv("REAL_PLUGINS"))
	if len(paths) == 0 {
		t.Skip("REAL_PLUGINS names no repositories")
	}
	repos := map[string]*gittest.Repo{}
	var names []string
	for i, p := range paths {
		name := strings.TrimSuffix(filepath.Base(strings.TrimSuffix(p, "/")), ".git") + "-" + string(rune('a'+i))
		repos[name] = &gittest.Repo{Dir: p}
		names = append(names, name)
	}
	e := newTestEnv(t, repos)
	ok, failed := 0, 0
	for _, n := range names {
		o, f := installAll(t, e, n)
		ok, failed = ok+o, failed+f
	}
	t.Logf("installed %d, failed %d", ok, failed)
}

func installAll(t *testing.T, e *testEnv, name string) (ok, failed int) {
	ctx := context.Background()
	info, err := e.m.Install(ctx, e.url(name), "", nil)
	var mkt *extensions.MarketplaceError
	if !errors.As(err, &mkt) {
		if err != nil {
			t.Logf("%s: %v", name, err)
			return 0, 1
		}
		logInstalled(t, name, info)
		e.m.Uninstall(ctx, info.ID)
		return 1, 0
	}
	t.Logf("%s: a marketplace of %d plugins", name, len(mkt.Marketplace.Plugins))
	for _, p := range mkt.Marketplace.Plugins {
		info, err := e.m.InstallFrom(ctx, extensions.Source{URL: e.url(name), Plugin: p.Name}, nil)
		if err != nil {
			t.Logf("  FAIL %s (%s): %v", p.Name, p.Source, err)
			failed++
			continue
		}
		logInstalled(t, "  "+p.Name, info)
		e.m.Uninstall(ctx, info.ID)
		ok++
	}
	return ok, failed
}

// TestRealHookify runs the published hookify plugin (anthropics'
// claude-plugins-official marketplace) as a guard: installed from a local
// clone over loopback HTTPS, trusted, then its PreToolUse hook (python3)
// reads the project's .claude/hookify.*.local.md rule and must deny
// `rm -rf` before anyone is asked, while another command goes to the
// approval as usual. Run it by hand (python3 must be on PATH):
//
//	HOOKIFY_MARKETPLACE=/path/to/claude-plugins-official.git \
//	  go test -tags 'realplugins migrated_fynedo' -run TestRealHookify -v ./extensions/
func TestRealHookify(t *testing.T) {
	repoPath := os.Getenv("HOOKIFY_MARKETPLACE")
	if repoPath == "" {
		t.Skip("HOOKIFY_MARKETPLACE names no repository")
	}
	l := newLoopEnv(t, map[string]*gittest.Repo{"official": {Dir: repoPath}})
	ctx := context.Background()
	info, err := l.m.InstallFrom(ctx, extensions.Source{URL: l.url("official"), Plugin: "hookify"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	logInstalled(t, "hookify", info)
	l.enable(info.ID)
	rules := filepath.Join(l.project, ".claude")
	os.MkdirAll(rules, 0o755)
	rule := "---\nname: block-dangerous-rm\nenabled: true\nevent: bash\npattern: rm\\s+-rf\naction: block\n---\n\nDangerous rm command detected!\n"
	if err := os.WriteFile(filepath.Join(rules, "hookify.dangerous-rm.local.md"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	approver := &recordingApprover{answer: agent.Deny}
	l.disp = New(l.m, Config{HookPATH: func() string { return os.Getenv("PATH") }})
	l.agent = agent.New(agent.Config{DB: l.db, Lifecycle: l.disp, Skills: l.disp, Approver: approver, TranscriptDir: t.TempDir(),
		Policy: func() agent.Policy { return agent.PolicyAsk }, HomeDir: filepath.Join(l.home, "home"),
		Provider: func() (llm.Provider, llm.Config, error) {
			cfg := l.model.Config()
			p, err := agent.NewProvider(cfg)
			return p, cfg, err
		}})
	l.model.Push(runCommand("rm -rf build"), llmtest.Reply{Text: "ok"}, runCommand("ls"), llmtest.Reply{Text: "ok"})
	s := l.session()
	req := l.send(s, "clean up")
	var results []string
	for _, m := range req.Messages {
		results = append(results, m.ToolResults...)
	}
	t.Logf("result of rm -rf: %q", results)
	// hookify denies without a permissionDecisionReason and shows its rule's
	// message as systemMessage: the user sees it, the model reads the denial.
	chips := strings.Join(hosts(s, agent.HostStatus), "\n")
	if len(approver.asked()) != 0 || len(results) != 1 || !strings.Contains(results[0], "hookify") || !strings.Contains(chips, "Dangerous rm command detected") {
		t.Fatalf("hookify must deny rm -rf before approval: asked %d, results %q, chips %q", len(approver.asked()), results, chips)
	}
	l.send(s, "list")
	if len(approver.asked()) != 1 {
		t.Fatalf("ls must go to the approval as usual: %d requests", len(approver.asked()))
	}
	for _, h := range hosts(s, agent.HostNotice) {
		t.Logf("notice: %s", h)
	}
}
