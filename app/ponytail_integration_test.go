//go:build integration

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/dispatch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// The Ponytail version this test pins. v4.8.4 is the release whose hook
// commands end in `; exit 0`, the one shell idiom AgentDesk honours; the
// expectations below are its hooks' behaviour (read from hooks/*.js at
// that commit). Override with PONYTAIL_REF at your own risk: later commits
// redefine some /ponytail commands (HEAD adds `/ponytail default MODE` and
// makes a bare `/ponytail` report-only).
const (
	ponytailPinnedCommit  = "bc9ee949d5f439e8b9f3bb92c6d6d3d1e6ebd324" // tag v4.8.4
	ponytailPinnedVersion = "4.8.4"
	ponytailID            = "ponytail"
	ponytailName          = "Ponytail" // interface.displayName
	// ponytailHooksFile is the hooks file .codex-plugin/plugin.json names.
	ponytailHooksFile = "hooks/claude-codex-hooks.json"
	// ponytailStateFile is where Ponytail keeps the live mode. Its runtime
	// treats a set PLUGIN_DATA as "running under Codex" and keeps the file
	// there, so under AgentDesk it lands in the extension's data dir.
	ponytailStateFile = ".ponytail-active"
	// noTimeoutsBranch is a test-made commit on top of the pinned one whose
	// hooks declare no timeout, so the host default (1 ms in a drill) applies.
	noTimeoutsBranch = "agentdesk-test/no-timeouts"
)

// Bounds of the test itself, generous failure guards only.
const (
	cliTimeout  = 2 * time.Minute
	turnTimeout = 90 * time.Second
)

// Prompts of the parent session, distinct enough that finding one in a
// Ralph round's request can only mean the parent conversation leaked.
const (
	firstPrompt   = "hello from the parent session"
	restartPrompt = "parent turn after the restart"
	compactPrompt = "parent turn after the compaction"
)

const (
	summaryText      = "SUMMARY-OF-THE-SESSION: the user tried Ponytail's modes."
	compactorPrefix  = "You compress a coding session"
	hostHookTimeout  = 5 * time.Second
	drillHookTimeout = time.Millisecond
)

var ponytailSkills = []string{"ponytail", "ponytail-audit", "ponytail-debt", "ponytail-gain", "ponytail-help", "ponytail-review"}

// ponytailHooks is the hook list v4.8.4 declares, in manifest order, as
// `ext show --json` reports it (argv unexpanded, timeout in seconds).
var ponytailHooks = []extHook{
	{Event: lifecycle.EventSessionStart, Matcher: "startup|resume|clear|compact", Argv: []string{"node", "${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-activate.js"}, TimeoutS: 5},
	{Event: lifecycle.EventSubagentStart, Argv: []string{"node", "${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-subagent.js"}, TimeoutS: 5},
	{Event: lifecycle.EventUserPromptSubmit, Argv: []string{"node", "${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-mode-tracker.js"}, TimeoutS: 5},
}

// extInfo is `agentdesk ext show --json`, decoded with the documented,
// stable field names.
type extInfo struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Version        string    `json:"version"`
	SourceURL      string    `json:"source_url"`
	RequestedRef   string    `json:"requested_ref"`
	Commit         string    `json:"commit"`
	PreviousCommit string    `json:"previous_commit"`
	Enabled        bool      `json:"enabled"`
	Status         string    `json:"status"`
	Hooks          []extHook `json:"hooks"`
	Skills         []struct {
		Name string `json:"name"`
		Path string `json:"path"`
	} `json:"skills"`
	Diagnostics  []string `json:"diagnostics"`
	LastError    string   `json:"last_error"`
	ReviewReason string   `json:"review_reason"`
	RecentRuns   []struct {
		Event string   `json:"event"`
		Argv  []string `json:"argv"`
		Exit  int      `json:"exit"`
		Error string   `json:"error"`
	} `json:"recent_runs"`
	Dir     string `json:"dir"`
	DataDir string `json:"data_dir"`
}

type extHook struct {
	Event    string   `json:"event"`
	Matcher  string   `json:"matcher"`
	Argv     []string `json:"argv"`
	TimeoutS int      `json:"timeout_s"`
	Inactive string   `json:"inactive,omitempty"`
}

// TestPonytail installs the real Ponytail plugin from a loopback HTTPS git
// server with the real agentdesk binary, then drives the agent loop
// in-process (same AGENTDESK_HOME) against a fake model server and checks
// what Ponytail's own hooks put into each request, through restart,
// compaction, Ralph rounds, disable, failures and uninstall.
func TestPonytail(t *testing.T) {
	e := newPonytailEnv(t)
	steps := []struct {
		name string
		run  func(*testing.T)
	}{
		{"install", e.stepInstall},
		{"enable", e.stepEnable},
		{"agentdesk_run", e.stepAgentdeskRun},
		{"new_session", e.stepNewSession},
		{"mode_commands", e.stepModeCommands},
		{"resume_after_restart", e.stepResume},
		{"compact", e.stepCompact},
		{"ralph", e.stepRalph},
		{"disable", e.stepDisable},
		{"node_missing", e.stepNodeMissing},
		{"update_and_1ms_timeout", e.stepTimeout},
		{"rollback", e.stepRollback},
		{"tampered_hook_script", e.stepTamper},
		{"malformed_output", e.stepMalformedOutput},
		{"crash_with_exit_0", e.stepCrashIgnored},
		{"uninstall", e.stepUninstall},
		{"other_hosts_untouched", e.stepOtherHostsUntouched},
	}
	for _, s := range steps {
		if !t.Run(s.name, s.run) {
			t.Fatalf("step %s failed; later steps depend on it", s.name)
		}
	}
}

// ponytailEnv is everything the steps share.
type ponytailEnv struct {
	bin       string // the agentdesk binary
	node      string // node's absolute path
	bare      string // the served bare repository
	url       string // its HTTPS URL
	caFile    string
	ref       string // as passed to `ext install --ref`
	commit    string // what ref resolves to
	derived   string // the no-timeouts commit
	home      string // AGENTDESK_HOME
	fakeHome  string // HOME
	project   string
	hostPaths map[string]pathState // other hosts' folders, before
	model     *llmtest.Server

	hookPATH    atomic.Pointer[string]
	hookTimeout atomic.Int64 // nanoseconds

	rules   map[string]string // Ponytail's own ruleset per mode
	scripts map[string][]byte // installed hook files, as fetched

	db    *storage.DB
	ag    *agent.Agent
	sess  *agent.Session
	runID string // the session `agentdesk run` created
}

func newPonytailEnv(t *testing.T) *ponytailEnv {
	repo := os.Getenv("PONYTAIL_REPO")
	if repo == "" {
		t.Skip("PONYTAIL_REPO is not set: point it at a Ponytail clone or bare mirror, e.g. " +
			"PONYTAIL_REPO=/work/.mirror/DietrichGebert+ponytail/repo make integration")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; Ponytail's hooks are Node.js scripts")
	}
	e := &ponytailEnv{node: node, ref: ponytailPinnedCommit}
	if ref := os.Getenv("PONYTAIL_REF"); ref != "" {
		e.ref = ref
	}
	// Build (main_test.go) before HOME moves: the Go build cache lives
	// under the real one.
	e.bin = agentdeskBinary(t)
	e.serveRepository(t, repo)
	e.setUpHomes(t)
	e.model = llmtest.NewOpenAI(t)
	e.model.Respond(func(r llmtest.Request) llmtest.Reply {
		if strings.HasPrefix(r.System, compactorPrefix) {
			return llmtest.Reply{Text: summaryText}
		}
		return llmtest.Reply{Text: "ok"}
	})
	nodePATH := filepath.Dir(node) + string(os.PathListSeparator) + "/usr/bin:/bin"
	e.hookPATH.Store(&nodePATH)
	e.hookTimeout.Store(int64(hostHookTimeout))
	t.Cleanup(e.closeLoop)
	return e
}

// serveRepository mirrors repo into a temp dir, adds the no-timeouts
// commit there (never in repo) and serves it over loopback HTTPS.
func (e *ponytailEnv) serveRepository(t *testing.T, repo string) {
	e.bare = filepath.Join(t.TempDir(), "ponytail.git")
	gitCmd(t, nil, "", "clone", "--quiet", "--mirror", "--", repo, e.bare)
	e.commit = strings.TrimSpace(gitCmd(t, nil, "", "--git-dir", e.bare, "rev-parse", "--verify", e.ref+"^{commit}"))
	e.derived = e.commitWithoutTimeouts(t)
	srv := gittest.Serve(t, map[string]*gittest.Repo{ponytailID: {Dir: e.bare}})
	e.url, e.caFile = srv.URL+"/"+ponytailID+".git", srv.CAFile
	t.Logf("serving %s (ref %s = %s; %s = %s) at %s", repo, e.ref, e.commit, noTimeoutsBranch, e.derived, e.url)
}

// commitWithoutTimeouts commits, on top of the pinned commit, Ponytail's
// hooks file with every "timeout" removed, with git plumbing on the
// mirror's objects.
func (e *ponytailEnv) commitWithoutTimeouts(t *testing.T) string {
	raw := gitCmd(t, nil, "", "--git-dir", e.bare, "show", e.commit+":"+ponytailHooksFile)
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string          `json:"matcher,omitempty"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatalf("%s: %v", ponytailHooksFile, err)
	}
	for _, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				delete(h, "timeout")
			}
		}
	}
	edited, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	index := []string{"GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")}
	git := func(stdin string, args ...string) string {
		return strings.TrimSpace(gitCmd(t, index, stdin, append([]string{"--git-dir", e.bare}, args...)...))
	}
	git("", "read-tree", e.commit)
	blob := git(string(edited), "hash-object", "-w", "--stdin")
	git("", "update-index", "--cacheinfo", "100644,"+blob+","+ponytailHooksFile)
	commit := git("", "commit-tree", git("", "write-tree"), "-p", e.commit, "-m", "test: hooks without timeouts")
	git("", "update-ref", "refs/heads/"+noTimeoutsBranch, commit)
	return commit
}

// gitCmd runs the git binary (server side of the test only) isolated from
// any user or system configuration.
func gitCmd(t *testing.T, env []string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=agentdesk-test", "GIT_AUTHOR_EMAIL=test@example.invalid", "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME=agentdesk-test", "GIT_COMMITTER_EMAIL=test@example.invalid", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// setUpHomes points AGENTDESK_HOME and HOME at temp dirs and seeds the
// other hosts' folders in the fake HOME with sentinels. Ponytail reads
// ~/.claude and ~/.config/ponytail when its environment is not
// redirected, so the sentinels also steer it visibly (an "ultra" default
// and mode) if AgentDesk ever leaked them.
func (e *ponytailEnv) setUpHomes(t *testing.T) {
	e.home = t.TempDir()
	e.fakeHome = t.TempDir()
	t.Setenv(storage.HomeEnv, e.home)
	t.Setenv("HOME", e.fakeHome)
	e.project = filepath.Join(e.fakeHome, "src", "app")
	if err := os.MkdirAll(e.project, 0o755); err != nil {
		t.Fatal(err)
	}
	sentinels := map[string]string{
		".claude/.ponytail-active":        "ultra",
		".claude/settings.json":           `{"theme":"sentinel"}`,
		".codex/config.toml":              "# sentinel\n",
		".pi/agent/settings.json":         `{"sentinel":true}`,
		".config/opencode/opencode.json":  `{"sentinel":true}`,
		".config/ponytail/config.json":    `{"defaultMode":"ultra"}`,
		".config/ponytail/sentinel-notes": "do not touch\n",
	}
	for rel, body := range sentinels {
		path := filepath.Join(e.fakeHome, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.hostPaths = snapshotHostDirs(t, e.fakeHome)
	// Reading for the snapshot moved the access times; put them back.
	freezeTimes(t, e.fakeHome, e.hostPaths)
}

// otherHostDirs are the folders of Claude Code, Codex, Pi, OpenCode and
// Ponytail's own config, relative to HOME.
var otherHostDirs = []string{".claude", ".codex", ".pi", ".config/opencode", ".config/ponytail"}

// pathState is one file or folder as the test saw it. Access times are
// set far before the modification time, so on a relatime (or strictatime)
// mount any read moves them; on a noatime mount only content, listing
// and modification time can show a difference.
type pathState struct {
	Mode        fs.FileMode
	Size        int64
	ModNs, AtNs int64    // modification and access time, Unix nanoseconds
	SHA256      string   // files
	Entries     []string // folders
}

var (
	frozenAtime = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	frozenMtime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
)

func snapshotHostDirs(t *testing.T, home string) map[string]pathState {
	t.Helper()
	out := map[string]pathState{}
	for _, rel := range otherHostDirs {
		snapshotPath(t, home, filepath.FromSlash(rel), out)
	}
	return out
}

// snapshotPath records rel's metadata before reading it, then recurses.
func snapshotPath(t *testing.T, home, rel string, out map[string]pathState) {
	t.Helper()
	path := filepath.Join(home, rel)
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		t.Fatalf("stat %s: %v", path, err)
	}
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := pathState{Mode: info.Mode(), Size: info.Size(), ModNs: info.ModTime().UnixNano(), AtNs: st.Atim.Nano()}
	if !info.IsDir() {
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		ps.SHA256 = hex.EncodeToString(sum[:])
		out[rel] = ps
		return
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range entries {
		ps.Entries = append(ps.Entries, d.Name())
	}
	out[rel] = ps
	for _, name := range ps.Entries {
		snapshotPath(t, home, filepath.Join(rel, name), out)
	}
}

func freezeTimes(t *testing.T, home string, paths map[string]pathState) {
	t.Helper()
	for rel, ps := range paths {
		if err := os.Chtimes(filepath.Join(home, rel), frozenAtime, frozenMtime); err != nil {
			t.Fatal(err)
		}
		ps.AtNs, ps.ModNs = frozenAtime.UnixNano(), frozenMtime.UnixNano()
		paths[rel] = ps
	}
}

// --- the agent loop, in-process on the same AGENTDESK_HOME -------------

// openLoop opens the database, the extension manager, the dispatcher and
// the agent, as an app start does.
func (e *ponytailEnv) openLoop(t *testing.T) {
	t.Helper()
	paths := storage.ResolvePaths()
	db, err := storage.Open(context.Background(), paths.Database())
	if err != nil {
		t.Fatal(err)
	}
	m, err := extensions.NewManager(context.Background(), db, paths.Extensions())
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	d := dispatch.New(m, dispatch.Config{
		HookPATH:       func() string { return *e.hookPATH.Load() },
		DefaultTimeout: func() time.Duration { return time.Duration(e.hookTimeout.Load()) },
	})
	e.db = db
	e.ag = agent.New(agent.Config{DB: db, Lifecycle: d, Skills: d, HomeDir: e.fakeHome,
		Policy: func() agent.Policy { return agent.PolicyNever },
		Provider: func() (llm.Provider, llm.Config, error) {
			cfg := e.model.Config()
			p, err := agent.NewProvider(cfg)
			return p, cfg, err
		}})
}

func (e *ponytailEnv) closeLoop() {
	if e.sess != nil {
		e.sess.Close()
		e.sess = nil
	}
	if e.db != nil {
		e.db.Close()
		e.db = nil
	}
}

func (e *ponytailEnv) waitIdle(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if err := e.sess.WaitIdle(ctx); err != nil {
		t.Fatalf("the session did not become idle: %v", err)
	}
}

// turn is what one submitted prompt or host command produced.
type turn struct {
	reqs  []llmtest.Request
	hosts []agent.Host
}

// last is the turn's final model request.
func (tr turn) last(t *testing.T) llmtest.Request {
	t.Helper()
	if len(tr.reqs) == 0 {
		t.Fatal("the turn made no model request")
	}
	return tr.reqs[len(tr.reqs)-1]
}

// texts returns the texts of the turn's host entries of kind.
func (tr turn) texts(kind agent.HostKind) []string {
	var out []string
	for _, h := range tr.hosts {
		if h.Kind == kind {
			out = append(out, h.Text)
		}
	}
	return out
}

func (e *ponytailEnv) do(t *testing.T, prompt string) turn {
	t.Helper()
	reqs, entries := len(e.model.Requests()), len(e.sess.Entries())
	e.sess.Submit(prompt)
	e.waitIdle(t)
	return e.since(reqs, entries)
}

func (e *ponytailEnv) since(reqs, entries int) turn {
	var tr turn
	tr.reqs = e.model.Requests()[reqs:]
	for _, en := range e.sess.Entries()[entries:] {
		if en.Host != nil {
			tr.hosts = append(tr.hosts, *en.Host)
		}
	}
	return tr
}

// --- Ponytail's own view ----------------------------------------------

// ponytailRules asks Ponytail's own instruction builder (in the installed
// package, run with node and an empty environment) for a mode's ruleset:
// the expectation comes from Ponytail, not from a copy of its text.
func (e *ponytailEnv) ponytailRules(t *testing.T, pkgDir string) map[string]string {
	t.Helper()
	const script = `process.stdout.write(require(process.argv[1]).getPonytailInstructions(process.argv[2]))`
	rules := map[string]string{}
	for _, mode := range []string{"lite", "full", "ultra"} {
		cmd := exec.Command(e.node, "-e", script, filepath.Join(pkgDir, "hooks", "ponytail-instructions.js"), mode)
		cmd.Env, cmd.Dir = []string{}, t.TempDir()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("Ponytail's instruction builder for %s: %v", mode, err)
		}
		if !strings.HasPrefix(string(out), "PONYTAIL MODE ACTIVE — level: "+mode) {
			t.Fatalf("unexpected %s ruleset from Ponytail: %.80q", mode, out)
		}
		rules[mode] = strings.TrimSpace(string(out))
	}
	return rules
}

// sessionRules is a mode's ruleset as it must appear in a system prompt.
func (e *ponytailEnv) sessionRules(mode string) string {
	return llm.ContextText(ponytailID, lifecycle.EventSessionStart, e.rules[mode])
}

func (e *ponytailEnv) dataDir() string {
	return filepath.Join(e.home, "extensions", "data", ponytailID)
}

// mode reads Ponytail's live mode; "" when the file is absent (mode off).
func (e *ponytailEnv) mode(t *testing.T) string {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(e.dataDir(), ponytailStateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// ponytailConfig is Ponytail's config file, found through the
// XDG_CONFIG_HOME AgentDesk points into the extension's data dir.
func (e *ponytailEnv) ponytailConfig() string {
	return filepath.Join(e.dataDir(), ".config", "ponytail", "config.json")
}

// --- the agentdesk binary ----------------------------------------------

type cliResult struct {
	stdout, stderr string
	code           int
}

func (e *ponytailEnv) cliEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.fakeHome, storage.HomeEnv + "=" + e.home, "SSL_CERT_FILE=" + e.caFile,
		envProvider + "=openai", envBaseURL + "=" + e.model.URL, envModel + "=" + llmtest.ModelName, envAPIKey + "=llmtest-key"}
}

func (e *ponytailEnv) cli(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Env, cmd.Dir, cmd.Stdin = e.cliEnv(), e.project, strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := cliResult{}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("agentdesk %s: %v", strings.Join(args, " "), err)
		}
		r.code = exit.ExitCode()
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	shown := r.stdout
	if slices.Contains(args, "--json") {
		shown = fmt.Sprintf("(%d bytes of JSON)\n", len(r.stdout))
	}
	t.Logf("$ agentdesk %s   (exit %d)\n%s", strings.Join(args, " "), r.code, shown)
	return r
}

func (e *ponytailEnv) mustCLI(t *testing.T, args ...string) cliResult {
	t.Helper()
	r := e.cli(t, "", args...)
	if r.code != 0 {
		t.Fatalf("agentdesk %s failed (%d): %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r
}

func (e *ponytailEnv) show(t *testing.T) extInfo {
	t.Helper()
	var info extInfo
	if err := json.Unmarshal([]byte(e.mustCLI(t, "ext", "show", ponytailID, "--json").stdout), &info); err != nil {
		t.Fatalf("ext show --json: %v", err)
	}
	return info
}

func (e *ponytailEnv) enableYes(t *testing.T) {
	t.Helper()
	if out := e.mustCLI(t, "ext", "enable", ponytailID, "--yes").stdout; !strings.Contains(out, "enabled ponytail (3 hooks, 6 skills)") {
		t.Fatalf("enable output:\n%s", out)
	}
}

// --- steps ---------------------------------------------------------------

func (e *ponytailEnv) stepInstall(t *testing.T) {
	r := e.mustCLI(t, "ext", "install", e.url, "--ref", e.ref)
	want := fmt.Sprintf("installed ponytail %s at %s (disabled)", e.manifestVersion(t), e.commit)
	if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "agentdesk ext enable ponytail") {
		t.Fatalf("install output lacks %q:\n%s", want, r.stdout)
	}
	info := e.show(t)
	e.checkRegistry(t, info, "disabled", e.commit)
	// Ponytail gives every hook a PowerShell commandWindows: recorded and
	// shown, never run.
	if out := e.mustCLI(t, "ext", "show", ponytailID).stdout; strings.Count(out, "Windows command declared, not used") != 3 {
		t.Fatalf("ext show does not note the three commandWindows:\n%s", out)
	}
	if info.RequestedRef != e.ref || info.PreviousCommit != "" {
		t.Fatalf("requested_ref %q previous_commit %q", info.RequestedRef, info.PreviousCommit)
	}
	// Ponytail ships both manifests: the only note says which supplied what.
	if len(info.Diagnostics) != 1 || !strings.HasPrefix(info.Diagnostics[0], "read .claude-plugin/plugin.json; .codex-plugin/plugin.json supplied") ||
		info.LastError != "" || len(info.RecentRuns) != 0 {
		t.Fatalf("a fresh install must be clean and must not have run anything: %q %q %d runs", info.Diagnostics, info.LastError, len(info.RecentRuns))
	}
	if _, err := os.Stat(filepath.Join(e.dataDir(), ponytailStateFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("a Ponytail hook ran at install time")
	}
	e.rules = e.ponytailRules(t, info.Dir)
	e.scripts = map[string][]byte{}
	for _, name := range []string{"ponytail-mode-tracker.js", "ponytail-runtime.js"} {
		body, err := os.ReadFile(filepath.Join(info.Dir, "hooks", name))
		if err != nil {
			t.Fatal(err)
		}
		e.scripts[name] = body
	}
}

// manifestVersion is what the installed commit's manifest says.
func (e *ponytailEnv) manifestVersion(t *testing.T) string {
	var mf struct{ Version string }
	raw := gitCmd(t, nil, "", "--git-dir", e.bare, "show", e.commit+":.codex-plugin/plugin.json")
	if err := json.Unmarshal([]byte(raw), &mf); err != nil {
		t.Fatal(err)
	}
	if e.commit == ponytailPinnedCommit && mf.Version != ponytailPinnedVersion {
		t.Fatalf("the pinned commit's manifest says version %q", mf.Version)
	}
	return mf.Version
}

// checkRegistry compares what `ext show --json` reports with the
// installed commit.
func (e *ponytailEnv) checkRegistry(t *testing.T, info extInfo, status, commit string) {
	t.Helper()
	if info.ID != ponytailID || info.Name != ponytailName || info.SourceURL != e.url || info.Commit != commit ||
		info.Status != status || info.Enabled != (status == "enabled") {
		t.Fatalf("registry = id %q name %q url %q commit %q status %q enabled %v; want %s at %s",
			info.ID, info.Name, info.SourceURL, info.Commit, info.Status, info.Enabled, status, commit)
	}
	if commit == e.commit && info.Version != e.manifestVersion(t) {
		t.Fatalf("version %q", info.Version)
	}
	if commit == e.commit && !reflect.DeepEqual(info.Hooks, ponytailHooks) {
		t.Fatalf("hooks = %+v\nwant %+v", info.Hooks, ponytailHooks)
	}
	var names []string
	for _, s := range info.Skills {
		names = append(names, s.Name)
		if !strings.HasPrefix(s.Path, info.Dir+string(filepath.Separator)) {
			t.Errorf("skill %s lives outside the package: %s", s.Name, s.Path)
		}
	}
	sort.Strings(names)
	if !slices.Equal(names, ponytailSkills) {
		t.Fatalf("skills = %q, want %q", names, ponytailSkills)
	}
	wantDir := filepath.Join(e.home, "extensions", "store", ponytailID, commit)
	if info.Dir != wantDir || info.DataDir != e.dataDir() {
		t.Fatalf("dir %s data %s; want %s and %s", info.Dir, info.DataDir, wantDir, e.dataDir())
	}
}

func (e *ponytailEnv) stepEnable(t *testing.T) {
	// Declining the trust prompt leaves it disabled.
	r := e.cli(t, "n\n", "ext", "enable", ponytailID)
	if r.code == 0 || !strings.Contains(r.stderr, "not enabled") || !strings.Contains(r.stderr, "Trust and enable Ponytail? [y/N]") {
		t.Fatalf("declined enable: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{
		"Ponytail will run these commands:",
		"SessionStart [startup|resume|clear|compact] node ${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-activate.js (timeout 5s)",
		"SubagentStart [all] node ${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-subagent.js (timeout 5s)",
		"UserPromptSubmit [all] node ${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-mode-tracker.js (timeout 5s)",
		extensions.TrustWarning,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("trust prompt lacks %q", want)
		}
	}
	if info := e.show(t); info.Status != "disabled" {
		t.Fatalf("declined, yet status %s", info.Status)
	}
	e.enableYes(t)
	e.checkRegistry(t, e.show(t), "enabled", e.commit)
}

// stepAgentdeskRun runs one prompt through the real binary's wiring: the
// hook PATH comes from Preferences → Advanced (the settings table).
func (e *ponytailEnv) stepAgentdeskRun(t *testing.T) {
	e.openLoop(t)
	settings := extensions.HookSettings{DefaultTimeout: hostHookTimeout, PATH: *e.hookPATH.Load(), StopLimit: lifecycle.DefaultStopHookLimit,
		ContextCapKiB: extensions.DefaultContextCapKiB}
	if err := extensions.SaveHookSettings(context.Background(), e.db, settings); err != nil {
		t.Fatal(err)
	}
	before := len(e.model.Requests())
	r := e.mustCLI(t, "run", "--project", e.project, "--new", "--approve", "reads", "/ponytail lite")
	for _, want := range []string{"◆ Ponytail: PONYTAIL:FULL", "◇ ponytail added SessionStart context", "◆ Ponytail: PONYTAIL:LITE"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("agentdesk run stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	reqs := e.model.Requests()[before:]
	if len(reqs) != 1 {
		t.Fatalf("agentdesk run made %d model requests", len(reqs))
	}
	e.checkFirstRequest(t, reqs[0], "/ponytail lite", "PONYTAIL MODE CHANGED — level: lite")
	if got := e.mode(t); got != "lite" {
		t.Fatalf("mode after agentdesk run = %q", got)
	}
	_, id, _ := strings.Cut(r.stderr, "continue with: agentdesk run --session ")
	e.runID, _, _ = strings.Cut(id, " ")
}

// checkFirstRequest: one system message holding the default ruleset
// once and the six skills; the prompt unchanged, after the tracker's
// context if it had any.
func (e *ponytailEnv) checkFirstRequest(t *testing.T, r llmtest.Request, prompt, promptContext string) {
	t.Helper()
	if r.SystemMessages != 1 || strings.Count(r.System, e.sessionRules("full")) != 1 ||
		strings.Count(r.System, "<extension-context") != 1 {
		t.Fatalf("the system prompt must hold Ponytail's full ruleset exactly once:\n%s", r.System)
	}
	for _, s := range ponytailSkills {
		if !strings.Contains(r.System, "- "+s+" — ") {
			t.Errorf("skill %s is not in the catalog", s)
		}
	}
	e.checkPrompt(t, r, prompt, promptContext)
}

// checkPrompt: the user's message is [tracker context,] prompt.
func (e *ponytailEnv) checkPrompt(t *testing.T, r llmtest.Request, prompt, promptContext string) {
	t.Helper()
	want := []string{prompt}
	if promptContext != "" {
		want = []string{llm.ContextPartText(llm.Part{Source: ponytailID, Event: lifecycle.EventUserPromptSubmit, Text: promptContext}), prompt}
	}
	if got := r.LastMessage().Texts; !slices.Equal(got, want) {
		t.Fatalf("user message = %q\nwant %q", got, want)
	}
}

func (e *ponytailEnv) stepNewSession(t *testing.T) {
	p, err := e.ag.OpenProject(context.Background(), e.project)
	if err != nil {
		t.Fatal(err)
	}
	e.sess, err = e.ag.NewSession(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	e.waitIdle(t)
	// SessionStart ran before any prompt: Ponytail wrote its default mode,
	// overriding what the earlier `agentdesk run` session left.
	if got := e.mode(t); got != "full" {
		t.Fatalf("mode after SessionStart = %q, want full", got)
	}
	tr := e.do(t, firstPrompt)
	e.checkFirstRequest(t, tr.last(t), firstPrompt, "")
	if chips := hostTexts(e.sess.Entries(), agent.HostStatus); !slices.Equal(chips, []string{"PONYTAIL:FULL"}) {
		t.Fatalf("status chips = %q", chips)
	}
	if strings.Contains(requestText(tr.last(t)), "PONYTAIL:FULL") {
		t.Fatal("a systemMessage reached the model")
	}
	info := e.show(t)
	checkRan(t, info, lifecycle.EventSessionStart, "ponytail-activate.js")
	checkRan(t, info, lifecycle.EventUserPromptSubmit, "ponytail-mode-tracker.js")
}

// hookArgv is what a Ponytail hook's argv expands to: node and the script
// inside the installed version's folder, as two plain arguments (no shell).
func hookArgv(info extInfo, script string) []string {
	return []string{"node", filepath.Join(info.Dir, "hooks", script)}
}

// checkRan finds the latest recorded run of event: successful, with the
// expanded argv.
func checkRan(t *testing.T, info extInfo, event, script string) {
	t.Helper()
	for _, r := range info.RecentRuns {
		if r.Event != event {
			continue
		}
		if !slices.Equal(r.Argv, hookArgv(info, script)) || r.Exit != 0 || r.Error != "" {
			t.Fatalf("%s run: argv %q exit %d error %q", event, r.Argv, r.Exit, r.Error)
		}
		return
	}
	t.Fatalf("no %s run recorded", event)
}

func hostTexts(entries []agent.Entry, kind agent.HostKind) []string {
	var out []string
	for _, en := range entries {
		if en.Host != nil && en.Host.Kind == kind {
			out = append(out, en.Host.Text)
		}
	}
	return out
}

// requestText is everything a request shows the model, decoded.
func requestText(r llmtest.Request) string {
	parts := []string{r.System}
	for _, m := range r.Messages {
		parts = append(parts, m.Texts...)
		parts = append(parts, m.ToolResults...)
	}
	return strings.Join(parts, "\n")
}

// stepModeCommands checks each /ponytail command against what
// ponytail-mode-tracker.js v4.8.4 does. The SessionStart ruleset stays
// as it was: Ponytail announces a switch in the prompt's context and
// re-emits a ruleset only at the next session start.
func (e *ponytailEnv) stepModeCommands(t *testing.T) {
	changed := func(mode string) string { return "PONYTAIL MODE CHANGED — level: " + mode }
	cases := []struct {
		prompt, mode, context, chip string
	}{
		{"/ponytail lite", "lite", changed("lite"), "PONYTAIL:LITE"},
		{"/ponytail full", "full", changed("full"), "PONYTAIL:FULL"},
		{"/ponytail ultra", "ultra", changed("ultra"), "PONYTAIL:ULTRA"},
		// off deletes the mode file rather than writing "off".
		{"/ponytail off", "", "PONYTAIL MODE OFF", "PONYTAIL:OFF"},
		// A bare /ponytail switches to the default mode (full unless
		// Ponytail's config.json says otherwise).
		{"/ponytail", "full", changed("full"), "PONYTAIL:FULL"},
		{"/ponytail ultra", "ultra", changed("ultra"), "PONYTAIL:ULTRA"},
		// v4.8.4 has no status subcommand: any other argument is treated
		// like a bare /ponytail and switches to the default mode.
		{"/ponytail status", "full", changed("full"), "PONYTAIL:FULL"},
		// Nor a default subcommand (HEAD adds one that writes config.json):
		// this switches to the default mode and persists nothing.
		{"/ponytail default lite", "full", changed("full"), "PONYTAIL:FULL"},
		// Ordinary prompts leave the mode alone and add no context.
		{"add a normal mode toggle", "full", "", ""},
		// Ponytail's standalone deactivation phrase.
		{"stop ponytail", "", "PONYTAIL MODE OFF", "PONYTAIL:OFF"},
		{"/ponytail ultra", "ultra", changed("ultra"), "PONYTAIL:ULTRA"},
	}
	for _, c := range cases {
		tr := e.do(t, c.prompt)
		r := tr.last(t)
		e.checkPrompt(t, r, c.prompt, c.context)
		if got := e.mode(t); got != c.mode {
			t.Fatalf("%q: mode file = %q, want %q", c.prompt, got, c.mode)
		}
		var wantChips []string
		if c.chip != "" {
			wantChips = []string{c.chip}
		}
		if chips := tr.texts(agent.HostStatus); !slices.Equal(chips, wantChips) || len(tr.texts(agent.HostNotice)) != 0 {
			t.Fatalf("%q: chips %q notices %q", c.prompt, chips, tr.texts(agent.HostNotice))
		}
		if strings.Count(r.System, e.sessionRules("full")) != 1 {
			t.Fatalf("%q: the SessionStart ruleset changed mid-session", c.prompt)
		}
	}
	if _, err := os.Stat(e.ponytailConfig()); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a mode command wrote Ponytail's config: %v", err)
	}
}

// stepResume restarts the app (new database handle, manager, dispatcher
// and agent) and resumes the session.
func (e *ponytailEnv) stepResume(t *testing.T) {
	contexts := len(hostTexts(e.sess.Entries(), agent.HostContext))
	id := e.sess.ID()
	e.closeLoop()
	e.openLoop(t)
	var err error
	if e.sess, err = e.ag.OpenSession(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	e.waitIdle(t)
	// Ponytail's activate hook applies the default mode at every session
	// start, resume included, so the "ultra" switch is gone; its output is
	// the same full ruleset as before, which adds nothing.
	if got := e.mode(t); got != "full" {
		t.Fatalf("mode after resume = %q, want full", got)
	}
	if n := len(hostTexts(e.sess.Entries(), agent.HostContext)); n != contexts {
		t.Fatalf("resume with identical SessionStart output added %d context blocks", n-contexts)
	}
	r := e.do(t, restartPrompt).last(t)
	if strings.Count(r.System, e.sessionRules("full")) != 1 || strings.Count(r.System, "<extension-context") != 1 {
		t.Fatalf("after resume the ruleset is not there exactly once:\n%s", r.System)
	}
	e.checkPrompt(t, r, restartPrompt, "")
	if r.Messages[0].Texts[0] != firstPrompt {
		t.Fatalf("resume lost the conversation: %q", r.Messages[0].Texts)
	}
}

// stepCompact changes Ponytail's default through its own config file (in
// AgentDesk's data dir for it) and compacts: the compact SessionStart
// brings the new ruleset, and the new epoch holds only that one.
func (e *ponytailEnv) stepCompact(t *testing.T) {
	if err := os.MkdirAll(filepath.Dir(e.ponytailConfig()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.ponytailConfig(), []byte(`{"defaultMode":"lite"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := e.do(t, "/compact")
	if len(tr.reqs) != 1 || !strings.HasPrefix(tr.reqs[0].System, compactorPrefix) {
		t.Fatalf("/compact made %d requests; want the one summary call", len(tr.reqs))
	}
	if len(tr.texts(agent.HostCompaction)) != 1 || len(tr.texts(agent.HostContext)) != 1 || e.mode(t) != "lite" {
		t.Fatalf("compaction entries %q, context markers %d, mode %q", tr.texts(agent.HostCompaction), len(tr.texts(agent.HostContext)), e.mode(t))
	}
	r := e.do(t, compactPrompt).last(t)
	if strings.Count(r.System, e.sessionRules("lite")) != 1 || strings.Count(r.System, "<extension-context") != 1 ||
		!strings.Contains(r.System, summaryText) {
		t.Fatalf("after /compact the system prompt must hold the summary and the lite ruleset once:\n%s", r.System)
	}
	if len(r.Messages) != 1 {
		t.Fatalf("compacted messages were sent again: %d messages", len(r.Messages))
	}
}

// stepRalph: each round gets the ruleset for the live mode from
// SubagentStart, and nothing of the parent conversation.
func (e *ponytailEnv) stepRalph(t *testing.T) {
	tr := e.do(t, "/ralph --rounds 2 tidy the README")
	if len(tr.reqs) != 2 {
		t.Fatalf("Ralph made %d model requests, want one per round", len(tr.reqs))
	}
	block := llm.ContextText(ponytailID, lifecycle.EventSubagentStart, e.rules["lite"])
	for i, r := range tr.reqs {
		if !strings.Contains(r.System, fmt.Sprintf("# Ralph round %d of 2", i+1)) {
			t.Fatalf("request %d is not round %d", i, i+1)
		}
		if strings.Count(r.System, block) != 1 || strings.Count(r.System, "<extension-context") != 1 {
			t.Fatalf("round %d must carry the SubagentStart ruleset exactly once:\n%s", i+1, r.System)
		}
		text := requestText(r)
		for _, parent := range []string{firstPrompt, restartPrompt, compactPrompt, summaryText, `event="SessionStart"`} {
			if strings.Contains(text, parent) {
				t.Fatalf("round %d sees the parent's %q", i+1, parent)
			}
		}
		if len(r.Messages) != 1 || !strings.Contains(r.Messages[0].Texts[0], "tidy the README") {
			t.Fatalf("round %d messages = %+v", i+1, r.Messages)
		}
	}
	if chips := tr.texts(agent.HostStatus); !slices.Equal(chips, []string{"PONYTAIL:LITE", "PONYTAIL:LITE"}) {
		t.Fatalf("Ralph chips = %q", chips)
	}
	checkRan(t, e.show(t), lifecycle.EventSubagentStart, "ponytail-subagent.js")
}

// stepDisable: the next request has no Ponytail context or skills, no
// hook runs, and nothing on disk is deleted.
func (e *ponytailEnv) stepDisable(t *testing.T) {
	if out := e.mustCLI(t, "ext", "disable", ponytailID).stdout; !strings.Contains(out, "disabled ponytail") {
		t.Fatalf("disable output: %s", out)
	}
	tr := e.do(t, "/ponytail ultra")
	text := requestText(tr.last(t))
	if strings.Contains(text, "<extension-context") || strings.Contains(text, "PONYTAIL MODE") {
		t.Fatalf("a disabled extension's context was sent:\n%s", text)
	}
	for _, s := range ponytailSkills {
		if strings.Contains(tr.last(t).System, "- "+s+" — ") { // the catalog lists names, no paths
			t.Errorf("disabled skill %s is still in the catalog", s)
		}
	}
	if e.mode(t) != "lite" || len(tr.hosts) != 0 {
		t.Fatalf("a disabled extension's hook ran: mode %q, host entries %+v", e.mode(t), tr.hosts)
	}
	info := e.show(t)
	e.checkRegistry(t, info, "disabled", e.commit)
	if _, err := os.Stat(e.ponytailConfig()); err != nil {
		t.Fatalf("disable removed Ponytail's data: %v", err)
	}
	e.enableYes(t)
	if r := e.do(t, "enabled again").last(t); strings.Count(r.System, e.sessionRules("lite")) != 1 {
		t.Fatal("re-enabling did not bring the session's ruleset back")
	}
}

func (e *ponytailEnv) setHookPATH(p string) { e.hookPATH.Store(&p) }

// failingTurn submits prompt expecting exactly one failure notice naming
// Ponytail and containing want, and no Ponytail context.
func (e *ponytailEnv) failingTurn(t *testing.T, prompt, want string) {
	t.Helper()
	tr := e.do(t, prompt)
	notices := tr.texts(agent.HostNotice)
	if len(notices) != 1 || !strings.HasPrefix(notices[0], ponytailName) || !strings.Contains(notices[0], want) {
		t.Fatalf("%q: notices = %q; want one containing %q", prompt, notices, want)
	}
	e.checkPrompt(t, tr.last(t), prompt, "")
}

// recoveringTurn: the hook works again, with no notice.
func (e *ponytailEnv) recoveringTurn(t *testing.T, mode string) {
	t.Helper()
	prompt := "/ponytail " + mode
	tr := e.do(t, prompt)
	e.checkPrompt(t, tr.last(t), prompt, "PONYTAIL MODE CHANGED — level: "+mode)
	if len(tr.texts(agent.HostNotice)) != 0 || e.mode(t) != mode {
		t.Fatalf("did not recover: notices %q, mode %q", tr.texts(agent.HostNotice), e.mode(t))
	}
	if info := e.show(t); info.LastError != "" || info.Status != "enabled" {
		t.Fatalf("after recovery: status %s, last_error %q", info.Status, info.LastError)
	}
}

func (e *ponytailEnv) stepNodeMissing(t *testing.T) {
	good := *e.hookPATH.Load()
	e.setHookPATH(t.TempDir()) // a PATH without node
	e.failingTurn(t, "/ponytail full", "`node` was not found on the hook PATH")
	// The same failure is not announced again.
	if tr := e.do(t, "/ponytail ultra"); len(tr.texts(agent.HostNotice)) != 0 || len(tr.last(t).LastMessage().Texts) != 1 {
		t.Fatalf("second failing turn: notices %q", tr.texts(agent.HostNotice))
	}
	if info := e.show(t); !strings.Contains(info.LastError, "`node` was not found on the hook PATH") ||
		!strings.Contains(info.LastError, "Preferences → Advanced") {
		t.Fatalf("last_error = %q", info.LastError)
	}
	e.setHookPATH(good)
	e.recoveringTurn(t, "full")
}

// stepTimeout updates to the commit without timeouts (a changed hook list:
// review again), then runs the hooks under a 1 ms host default.
func (e *ponytailEnv) stepTimeout(t *testing.T) {
	r := e.mustCLI(t, "ext", "update", ponytailID, "--ref", noTimeoutsBranch)
	short := func(c string) string { return extensions.ShortCommit(c) }
	for _, want := range []string{
		fmt.Sprintf("updated ponytail %s → %s", short(e.commit), short(e.derived)),
		"~ UserPromptSubmit [all] node ${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-mode-tracker.js (timeout 5s)  →  UserPromptSubmit [all] node ${CLAUDE_PLUGIN_ROOT}/hooks/ponytail-mode-tracker.js (timeout default)",
		"ponytail changed its hook commands and is paused until you review them.",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("update output lacks %q:\n%s", want, r.stdout)
		}
	}
	if info := e.show(t); info.Status != "needs_review" || info.PreviousCommit != e.commit {
		t.Fatalf("after update: status %s previous %s", info.Status, info.PreviousCommit)
	}
	if text := requestText(e.do(t, "while paused").last(t)); strings.Contains(text, "<extension-context") {
		t.Fatal("an extension awaiting review added context")
	}
	// Re-trust interactively: the prompt says why and shows the diff.
	r = e.cli(t, "y\n", "ext", "enable", ponytailID)
	if r.code != 0 || !strings.Contains(r.stdout, "needs review: the update changed its hook commands") ||
		!strings.Contains(r.stdout, "(timeout default)") {
		t.Fatalf("re-trust: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	e.hookTimeout.Store(int64(drillHookTimeout))
	e.failingTurn(t, "/ponytail ultra", "did not finish within 1ms and was stopped")
	if info := e.show(t); !strings.Contains(info.LastError, "did not finish within 1ms") {
		t.Fatalf("last_error = %q", info.LastError)
	}
	e.hookTimeout.Store(int64(hostHookTimeout))
	e.recoveringTurn(t, "ultra")
}

func (e *ponytailEnv) stepRollback(t *testing.T) {
	r := e.mustCLI(t, "ext", "rollback", ponytailID)
	want := fmt.Sprintf("rolled back ponytail to %s (%s); status needs_review", extensions.ShortCommit(e.commit), e.manifestVersion(t))
	if !strings.Contains(r.stdout, want) {
		t.Fatalf("rollback output lacks %q", want)
	}
	e.enableYes(t)
	info := e.show(t)
	e.checkRegistry(t, info, "enabled", e.commit)
	if info.PreviousCommit != e.derived {
		t.Fatalf("previous_commit = %s, want %s (rollback can be undone)", info.PreviousCommit, e.derived)
	}
	e.recoveringTurn(t, "lite")
}

// stepTamper edits the installed script a hook argv names: the tamper
// check pauses the extension instead of running it.
func (e *ponytailEnv) stepTamper(t *testing.T) {
	script := filepath.Join(e.show(t).Dir, "hooks", "ponytail-mode-tracker.js")
	marker := filepath.Join(e.dataDir(), "tampered-code-ran")
	tampered := append(slices.Clip(e.scripts["ponytail-mode-tracker.js"]),
		[]byte("\nrequire('fs').writeFileSync("+jsString(marker)+", 'yes');\n")...)
	overwrite(t, script, tampered)
	e.failingTurn(t, "/ponytail full", "Ponytail was paused: a file its hooks run changed on disk since you trusted it")
	if _, err := os.Stat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the tampered script ran")
	}
	info := e.show(t)
	if info.Status != "needs_review" || !strings.Contains(info.ReviewReason, "hooks/ponytail-mode-tracker.js changed since it was reviewed") {
		t.Fatalf("status %s, review_reason %q", info.Status, info.ReviewReason)
	}
	if tr := e.do(t, "still paused"); len(tr.hosts) != 0 || strings.Contains(requestText(tr.last(t)), "<extension-context") {
		t.Fatalf("a paused extension kept running or announcing: %+v", tr.hosts)
	}
	// Put the reviewed bytes back and trust again.
	overwrite(t, script, e.scripts["ponytail-mode-tracker.js"])
	if out := e.mustCLI(t, "ext", "enable", ponytailID, "--yes").stdout; !strings.Contains(out, "Ponytail needs review: a file its hooks run changed") {
		t.Fatalf("the trust prompt does not say why:\n%s", out)
	}
	e.recoveringTurn(t, "full")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func overwrite(t *testing.T, path string, body []byte) {
	t.Helper()
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

// stepMalformedOutput breaks ponytail-runtime.js, the module every hook
// requires to print its JSON. No hook argv names it, so the tamper check
// (which covers argv-named files by design) does not stop it; AgentDesk's
// output validation does: invalid JSON is a visible failure, and nothing
// of it reaches the model.
func (e *ponytailEnv) stepMalformedOutput(t *testing.T) {
	runtime := filepath.Join(e.show(t).Dir, "hooks", "ponytail-runtime.js")
	overwrite(t, runtime, append([]byte(`process.stdout.write('{"broken": ');`+"\n"), e.scripts["ponytail-runtime.js"]...))
	e.failingTurn(t, "/ponytail ultra", "printed invalid JSON")
	if info := e.show(t); !strings.Contains(info.LastError, "invalid JSON") || info.Status != "enabled" {
		t.Fatalf("status %s, last_error %q", info.Status, info.LastError)
	}
	overwrite(t, runtime, e.scripts["ponytail-runtime.js"])
	e.recoveringTurn(t, "full")
}

// stepCrashIgnored: a hook that crashes (exit 1) under a manifest's
// trailing `; exit 0` is not a failure, exactly as a shell would run it.
// The turn goes on without context or notice; the run history shows it.
func (e *ponytailEnv) stepCrashIgnored(t *testing.T) {
	runtime := filepath.Join(e.show(t).Dir, "hooks", "ponytail-runtime.js")
	overwrite(t, runtime, append([]byte("throw new Error('ponytail runtime is broken');\n"), e.scripts["ponytail-runtime.js"]...))
	tr := e.do(t, "/ponytail ultra")
	if len(tr.hosts) != 0 {
		t.Fatalf("a crash under `; exit 0` was announced: %+v", tr.hosts)
	}
	e.checkPrompt(t, tr.last(t), "/ponytail ultra", "")
	info := e.show(t)
	if len(info.RecentRuns) == 0 || info.RecentRuns[0].Event != lifecycle.EventUserPromptSubmit || info.RecentRuns[0].Exit != 1 ||
		info.RecentRuns[0].Error != "" || info.LastError != "" {
		t.Fatalf("last run %+v, last_error %q", info.RecentRuns, info.LastError)
	}
	if want := hookArgv(info, "ponytail-mode-tracker.js"); !slices.Equal(info.RecentRuns[0].Argv, want) {
		t.Fatalf("recorded argv %q, want %q", info.RecentRuns[0].Argv, want)
	}
	overwrite(t, runtime, e.scripts["ponytail-runtime.js"])
	e.recoveringTurn(t, "lite")
}

func (e *ponytailEnv) stepUninstall(t *testing.T) {
	store := filepath.Join(e.home, "extensions", "store", ponytailID)
	r := e.cli(t, "n\n", "ext", "uninstall", ponytailID)
	if r.code == 0 || !strings.Contains(r.stdout, "This deletes Ponytail: its package ("+store) || !strings.Contains(r.stderr, "not uninstalled") {
		t.Fatalf("declined uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, dir := range []string{store, e.dataDir()} {
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("a declined uninstall deleted %s", dir)
		}
	}
	if r = e.cli(t, "y\n", "ext", "uninstall", ponytailID); r.code != 0 || !strings.Contains(r.stdout, "uninstalled ponytail") {
		t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, dir := range []string{store, e.dataDir()} {
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("uninstall left %s", dir)
		}
	}
	if r = e.cli(t, "", "ext", "show", ponytailID); r.code == 0 || !strings.Contains(r.stderr, `"ponytail" is not installed`) {
		t.Fatalf("show after uninstall: exit %d %s", r.code, r.stderr)
	}
	if text := requestText(e.do(t, "after uninstall").last(t)); strings.Contains(text, "<extension-context") {
		t.Fatal("an uninstalled extension's context was sent")
	}
	// Only Ponytail went: the sessions are still there.
	sessions := e.mustCLI(t, "sessions", "--project", e.project, "--json").stdout
	if !strings.Contains(sessions, e.sess.ID()) || e.runID == "" || !strings.Contains(sessions, e.runID) {
		t.Fatalf("sessions after uninstall:\n%s", sessions)
	}
}

// stepOtherHostsUntouched compares the other hosts' folders with the
// snapshot taken before anything ran: same entries, content, modes and
// times (an access-time change means something read them).
func (e *ponytailEnv) stepOtherHostsUntouched(t *testing.T) {
	after := snapshotHostDirs(t, e.fakeHome)
	for rel, want := range e.hostPaths {
		got, ok := after[rel]
		if !ok {
			t.Errorf("%s was deleted", rel)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s changed or was read:\n got %+v\nwant %+v", rel, got, want)
		}
	}
	for rel := range after {
		if _, ok := e.hostPaths[rel]; !ok {
			t.Errorf("%s was created", rel)
		}
	}
	t.Logf("%d files and folders under %q are as seeded", len(after), otherHostDirs)
}
