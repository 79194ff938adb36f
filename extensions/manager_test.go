package extensions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

func TestLifecycleInstallEnableUpdateRollbackUninstall(t *testing.T) {
	r := repo(t, fixtureFiles(t))
	e := newTestEnv(t, map[string]*gittest.Repo{"fixture": r})
	ctx := context.Background()

	info := e.install("fixture", "")
	if info.Status != StatusDisabled || info.Enabled {
		t.Fatalf("a new install must be disabled: %+v", info.Status)
	}
	if info.Name != "Fixture" || info.Version != "1.0.0" || len(info.Skills) != 1 {
		t.Fatalf("info = %+v", info)
	}
	if !containsText(info.Diagnostics, "CwdChanged") {
		t.Errorf("unsupported capabilities must be visible: %v", info.Diagnostics)
	}
	if len(info.MCPServers) != 1 || info.MCPServers[0].Name != "never" || info.MCPServers[0].State != MCPNotStarted {
		t.Errorf("MCP servers = %+v, want the declared one, not started", info.MCPServers)
	}
	if _, err := os.Stat(filepath.Join(info.Dir, "hooks", "hook.sh")); err != nil {
		t.Fatalf("package not in the store: %v", err)
	}
	first := info.Commit

	// Enabling needs the hash of the list the user saw.
	if _, err := e.m.Enable(ctx, "fixture", "not-the-hash"); !errors.Is(err, ErrTrustChanged) {
		t.Fatalf("enable with a wrong hash = %v", err)
	}
	trust, _ := e.m.TrustPrompt(ctx, "fixture")
	if !trust.NeedsConfirmation() || len(trust.Hooks) != 5 || trust.Warning == "" {
		t.Fatalf("trust prompt = %+v; want the five runnable hooks (not the shell one) and the warning", trust)
	}
	if info = e.enable("fixture"); info.Status != StatusEnabled {
		t.Fatalf("status after trust = %s", info.Status)
	}

	// An update that only changes a skill keeps it enabled.
	files := fixtureFiles(t)
	files["skills/second/SKILL.md"] = gittest.File{Body: "---\nname: second\ndescription: two\n---\n"}
	second := r.Commit(t, "main", "add a skill", files)
	res, err := e.m.Update(ctx, "fixture", "", nil)
	if err != nil || res.UpToDate || res.NewCommit != second || res.Info.Status != StatusEnabled || res.SkillsDiff == "" {
		t.Fatalf("update with unchanged hooks = %+v, %v", res, err)
	}
	if res, _ := e.m.Update(ctx, "fixture", "", nil); !res.UpToDate {
		t.Fatal("a second update must say it is already up to date")
	}

	// An update that changes a hook command needs review and is inactive.
	files["hooks/hooks.json"] = gittest.File{Body: strings.Replace(files["hooks/hooks.json"].Body, `"timeout": 5`, `"timeout": 9`, 1)}
	third := r.Commit(t, "main", "change a hook", files)
	res, err = e.m.Update(ctx, "fixture", "", nil)
	if err != nil || res.Info.Status != StatusNeedsReview || res.Hooks.Empty() {
		t.Fatalf("update with changed hooks = %+v, %v", res.Info.Status, err)
	}
	trust, _ = e.m.TrustPrompt(ctx, "fixture")
	if trust.Diff == nil || len(trust.Diff.Changed) != 1 || trust.Reason == "" {
		t.Fatalf("re-trust must show the diff: %+v", trust)
	}
	// Only the active and the previous version stay on disk.
	if _, err := os.Stat(e.m.store.versionDir("fixture", first)); !os.IsNotExist(err) {
		t.Errorf("the oldest version is still on disk: %v", err)
	}

	// Rollback goes back to the trusted hooks: enabled again.
	info, err = e.m.Rollback(ctx, "fixture")
	if err != nil || info.Commit != second || info.PreviousCommit != third || info.Status != StatusEnabled {
		t.Fatalf("rollback = %s/%s %s, %v", info.Commit, info.PreviousCommit, info.Status, err)
	}

	// The registry and store survive a restart.
	e.db.Close()
	e.open()
	info, err = e.m.Show(ctx, "fixture")
	if err != nil || info.Commit != second || info.Status != StatusEnabled {
		t.Fatalf("after restart: %+v %v", info.Status, err)
	}

	os.MkdirAll(info.DataDir, 0o700)
	if err := e.m.Uninstall(ctx, "fixture"); err != nil {
		t.Fatal(err)
	}
	if state := e.storeState(); len(state) != 0 {
		t.Fatalf("uninstall left %v", state)
	}
	if list, _ := e.m.List(ctx); len(list) != 0 {
		t.Fatalf("registry after uninstall: %+v", list)
	}
}

func TestRefsBranchTagCommitShortAndUnknown(t *testing.T) {
	r := gittest.NewRepo(t)
	v1 := r.Commit(t, "main", "v1", plugin("refs", "", true))
	r.Tag(t, "v1.0", v1, true)
	dev := r.Commit(t, "dev", "dev", plugin("refs", "echo dev", true))
	r.SetHEAD(t, "main")
	e := newTestEnv(t, map[string]*gittest.Repo{"refs": r})
	ctx := context.Background()
	for _, c := range []struct{ ref, commit string }{{"", v1}, {"dev", dev}, {"v1.0", v1}, {dev, dev}, {dev[:8], dev}} {
		info, err := e.m.Install(ctx, e.url("refs"), c.ref, nil)
		if err != nil || info.Commit != c.commit || info.RequestedRef != c.ref {
			t.Fatalf("install at %q = %s %q, %v", c.ref, info.Commit, info.RequestedRef, err)
		}
		if err := e.m.Uninstall(ctx, "refs"); err != nil {
			t.Fatal(err)
		}
	}
	_, err := e.m.Install(ctx, e.url("refs"), "no-such-branch", nil)
	if !errors.Is(err, gitfetch.ErrRefNotFound) || !strings.Contains(err.Error(), "no-such-branch") {
		t.Fatalf("unknown ref = %v", err)
	}
}

func TestHostileRepositoriesAreRejectedAndLeaveNothing(t *testing.T) {
	big := strings.Repeat("x", 300<<10)
	cases := []struct {
		name  string
		files map[string]gittest.File
		want  string
	}{
		{"dotdot", with(plugin("a", "", false), map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"name":"a","skills":"../x"}`}}), ".."},
		{"absolute", with(plugin("a", "", false), map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"name":"a","hooks":"/etc/hooks.json"}`}}), "/etc/hooks.json"},
		{"passwd", with(plugin("a", "", false), map[string]gittest.File{"link": {Symlink: "/etc/passwd"}}), "link"},
		{"dirlink", with(plugin("a", "", false), map[string]gittest.File{"skills": {Symlink: "../../.."}}), "skills"},
		{"hookslink", with(plugin("a", "", false), map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"name":"a","hooks":"h/hooks.json"}`}, "h": {Symlink: "/etc"}}), "h"},
		{"dotgitlink", with(plugin("a", "", false), map[string]gittest.File{"cfg": {Symlink: ".git/config"}}), "cfg -> .git/config points into the git metadata"},
		{"gitlink", with(plugin("a", "", false), map[string]gittest.File{"vendor/sub": {Gitlink: strings.Repeat("ab", 20)}}), "submodule"},
		{"bigmanifest", map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"name":"a","description":"` + big + `"}`}}, "256"},
		{"badjson", map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"name":`}}, "JSON"},
		{"noname", map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"version":"1"}`}}, "name"},
		{"slashname", map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"name":"a/b"}`}}, "name"},
		{"scriptoutside", with(plugin("a", "", false), map[string]gittest.File{"hooks/hooks.json": {Body: `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/../evil.sh"}]}]}}`}}), ".."},
		{"nomanifest", map[string]gittest.File{"README.md": {Body: "hi"}}, "manifest"},
	}
	repos := map[string]*gittest.Repo{}
	for _, c := range cases {
		repos[c.name] = repo(t, c.files)
	}
	e := newTestEnv(t, repos)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.m.Install(context.Background(), e.url(c.name), "", nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("install = %v, want an error naming %q", err, c.want)
			}
			if state := e.storeState(); len(state) != 0 {
				t.Fatalf("a rejected install left %v", state)
			}
			if list, _ := e.m.List(context.Background()); len(list) != 0 {
				t.Fatalf("a rejected install is in the registry: %+v", list)
			}
		})
	}
}

func TestLimitsTooManyFilesAndTooManyBytes(t *testing.T) {
	many := plugin("many", "", false)
	for i := 0; i < 30; i++ {
		many[filepathN("f", i)] = gittest.File{Body: "x"}
	}
	large := with(plugin("large", "", false), map[string]gittest.File{"blob": {Body: strings.Repeat("y", 64<<10)}})
	e := newTestEnv(t, map[string]*gittest.Repo{"many": repo(t, many), "large": repo(t, large)},
		WithFetchLimits(gitfetch.Limits{Files: 20, FileBytes: 32 << 10}))
	for _, name := range []string{"many", "large"} {
		_, err := e.m.Install(context.Background(), e.url(name), "", nil)
		if !errors.Is(err, gitfetch.ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", name, err)
		}
	}
	if state := e.storeState(); len(state) != 0 {
		t.Fatalf("left %v", state)
	}
}

func filepathN(prefix string, i int) string {
	return prefix + "/" + string(rune('a'+i%26)) + string(rune('a'+i/26))
}

func TestDuplicateIDRejected(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"one": repo(t, plugin("same", "", true)), "two": repo(t, plugin("same", "", false))})
	e.install("one", "")
	_, err := e.m.Install(context.Background(), e.url("two"), "", nil)
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), `"same"`) {
		t.Fatalf("duplicate = %v", err)
	}
	info, _ := e.m.Show(context.Background(), "same")
	if info.SourceURL != e.url("one") {
		t.Fatal("the first install was changed by the rejected duplicate")
	}
}

func TestFailedUpdateLeavesActiveVersion(t *testing.T) {
	r := repo(t, plugin("upd", "echo one", false))
	e := newTestEnv(t, map[string]*gittest.Repo{"upd": r})
	before := e.install("upd", "")
	e.enable("upd")
	r.Commit(t, "main", "broken", map[string]gittest.File{".codex-plugin/plugin.json": {Body: `{"name": 5}`}})
	_, err := e.m.Update(context.Background(), "upd", "", nil)
	if err == nil {
		t.Fatal("an invalid update was accepted")
	}
	after, _ := e.m.Show(context.Background(), "upd")
	if after.Commit != before.Commit || after.Status != StatusEnabled || after.PreviousCommit != "" {
		t.Fatalf("after a failed update: %s %s %q", after.Commit, after.Status, after.PreviousCommit)
	}
	if state := e.storeState(); containsText(state, "staging/") {
		t.Fatalf("staging not cleaned: %v", state)
	}
}

func TestConcurrentInstallsDoNotCorruptTheStore(t *testing.T) {
	repos := map[string]*gittest.Repo{}
	for _, n := range []string{"c1", "c2", "c3", "c4"} {
		repos[n] = repo(t, plugin(n, "", true))
	}
	repos["dup"] = repo(t, plugin("c1", "", false))
	e := newTestEnv(t, repos)
	// A second manager on the same database and store stands in for a
	// second app instance.
	other, err := NewManager(context.Background(), e.db, e.paths.Extensions(), WithHTTPClient(e.server.Client))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(repos))
	i := 0
	for name := range repos {
		m := e.m
		if i%2 == 1 {
			m = other
		}
		i++
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := m.Install(context.Background(), e.url(name), "", nil)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	failures := 0
	for err := range errs {
		if err != nil {
			if !errors.Is(err, ErrDuplicate) {
				t.Errorf("install: %v", err)
			}
			failures++
		}
	}
	list, _ := e.m.List(context.Background())
	if failures != 1 || len(list) != 4 {
		t.Fatalf("%d failures, %d installed; want exactly the duplicate refused", failures, len(list))
	}
	for _, info := range list {
		if wantSkills := map[bool]int{true: 0, false: 1}[info.SourceURL == e.url("dup")]; info.Status != StatusDisabled || len(info.Skills) != wantSkills {
			t.Errorf("%s: %s with %d skills", info.ID, info.Status, len(info.Skills))
		}
	}
	if got := e.storeState(); len(got) != 12 { // store/<id>, store/<id>/<commit> and its .format for four
		t.Errorf("store = %v", got)
	}
}

func TestNonHTTPSRefused(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{})
	for _, u := range []string{"http://example.com/x.git", "file:///tmp/x", "git@github.com:a/b.git"} {
		if _, err := e.m.Install(context.Background(), u, "", nil); !errors.Is(err, gitfetch.ErrNotHTTPS) {
			t.Errorf("%s: %v", u, err)
		}
	}
}

func TestSweepRemovesCrashLeftovers(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"k": repo(t, plugin("k", "", false))})
	info := e.install("k", "")
	root := e.paths.Extensions()
	junk := []string{
		filepath.Join(root, "staging", "deadbeef", "file"),
		filepath.Join(root, "store", "k", "0123456789012345678901234567890123456789", "x"),
		filepath.Join(root, "store", "ghost", "abc", "x"),
		filepath.Join(root, "data", "ghost", "x"),
	}
	for _, j := range junk {
		os.MkdirAll(filepath.Dir(j), 0o700)
		os.WriteFile(j, []byte("x"), 0o600)
	}
	e.open() // start-up sweeps
	for _, j := range junk {
		if _, err := os.Stat(j); !os.IsNotExist(err) {
			t.Errorf("%s survived the sweep", j)
		}
	}
	if _, err := os.Stat(info.Dir); err != nil {
		t.Fatalf("the active version was swept: %v", err)
	}
}

func containsText(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func TestCheckUpdateReadsTheRemoteOnly(t *testing.T) {
	r := repo(t, fixtureFiles(t))
	e := newTestEnv(t, map[string]*gittest.Repo{"fixture": r})
	ctx := context.Background()
	first := e.install("fixture", "").Commit

	c, err := e.m.CheckUpdate(ctx, "fixture")
	if err != nil || c.Available || c.Latest != first || c.Pinned {
		t.Fatalf("check right after install = %+v, %v; want up to date", c, err)
	}
	files := fixtureFiles(t)
	files["README.md"] = gittest.File{Body: "new\n"}
	second := r.Commit(t, "main", "docs", files)
	c, err = e.m.CheckUpdate(ctx, "fixture")
	if err != nil || !c.Available || c.Current != first || c.Latest != second {
		t.Fatalf("check after a push = %+v, %v; want %s available", c, err, second)
	}
	if info, _ := e.m.Show(ctx, "fixture"); info.Commit != first {
		t.Fatal("checking installed something")
	}

	// A commit ref is pinned: no network, nothing newer.
	if err := e.m.Uninstall(ctx, "fixture"); err != nil {
		t.Fatal(err)
	}
	e.install("fixture", first)
	if c, err = e.m.CheckUpdate(ctx, "fixture"); err != nil || !c.Pinned || c.Available {
		t.Fatalf("check of a pinned commit = %+v, %v", c, err)
	}
	if _, err := e.m.CheckUpdate(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("check of a missing extension: %v", err)
	}
}
