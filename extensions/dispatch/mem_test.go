//go:build unix

package dispatch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// memRegistry is an in-memory Registry: extensions loaded from folders
// written by the test, no git server, no database.
type memRegistry struct {
	mu       sync.Mutex
	exts     []extensions.Active
	runs     []storage.HookRun
	reviews  map[string]string
	leases   map[string]int
	onRemove []func(string)
}

func (r *memRegistry) Active(context.Context) []extensions.Active {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []extensions.Active
	for _, x := range r.exts {
		if r.reviews[x.ID] == "" {
			out = append(out, x)
		}
	}
	return out
}

func (r *memRegistry) StillActive(_ context.Context, id, commit string) bool {
	for _, x := range r.Active(context.Background()) {
		if x.ID == id && x.Commit == commit {
			return true
		}
	}
	return false
}

func (r *memRegistry) Lease(dir string) func() {
	r.mu.Lock()
	r.leases[dir]++
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		r.leases[dir]--
		r.mu.Unlock()
	}
}

func (r *memRegistry) MarkForReview(_ context.Context, id, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reviews[id] = reason
	return nil
}

func (r *memRegistry) RecordRun(run storage.HookRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, run)
}

func (r *memRegistry) OnRemove(f func(string)) { r.onRemove = append(r.onRemove, f) }

// remove is a disable: the callbacks run, then the extension is gone.
func (r *memRegistry) remove(id string) {
	for _, f := range r.onRemove {
		f(id)
	}
	r.mu.Lock()
	r.exts = slices.DeleteFunc(r.exts, func(x extensions.Active) bool { return x.ID == id })
	r.mu.Unlock()
}

func newMemRegistry() *memRegistry {
	return &memRegistry{reviews: map[string]string{}, leases: map[string]int{}}
}

// add writes a plugin whose hooks.json declares hooks (event → script
// bodies with an optional matcher) and loads it as an active extension.
func (r *memRegistry) add(t *testing.T, id string, hooks []memHook) extensions.Active {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, body string, mode os.FileMode) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude-plugin/plugin.json", `{"name":"`+id+`","version":"1.0.0"}`, 0o644)
	decl := map[string][]map[string]any{}
	for i, h := range hooks {
		script := "hooks/" + h.event + "-" + string(rune('a'+i)) + ".sh"
		write(script, "#!/bin/sh\n"+h.script+"\n", 0o755)
		entry := map[string]any{"hooks": []map[string]any{{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/" + script}}}
		if h.matcher != "" {
			entry["matcher"] = h.matcher
		}
		decl[h.event] = append(decl[h.event], entry)
	}
	body, _ := json.Marshal(map[string]any{"hooks": decl})
	write("hooks/hooks.json", string(body), 0o644)
	pkg, err := manifest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	x := extensions.Active{ID: id, Label: strings.ToUpper(id[:1]) + id[1:], Commit: "c1", Dir: dir, Data: filepath.Join(t.TempDir(), "data"), Pkg: pkg}
	r.mu.Lock()
	r.exts = append(r.exts, x)
	r.mu.Unlock()
	return x
}

type memHook struct{ event, matcher, script string }

func memDispatcher(t *testing.T, r *memRegistry) *Dispatcher {
	d := New(r, Config{HookPATH: func() string { return testPATH }})
	t.Cleanup(d.Close)
	return d
}

// Context hooks of several extensions merge in installation order, each
// run is recorded with its argv, and a hook's failure is one notice.
func TestMemSessionStartMergesInOrder(t *testing.T) {
	r := newMemRegistry()
	r.add(t, "alpha", []memHook{{event: lifecycle.EventSessionStart, script: "sleep 0.2; echo from alpha"}})
	r.add(t, "beta", []memHook{{event: lifecycle.EventSessionStart, script: "echo from beta"}})
	r.add(t, "gamma", []memHook{{event: lifecycle.EventSessionStart, script: "echo broken >&2; exit 3"}})
	d := memDispatcher(t, r)
	res := d.SessionStart(context.Background(), sessionStartEvent(t.TempDir()))
	var texts []string
	for _, b := range res.Blocks {
		texts = append(texts, b.Source+": "+b.Text)
	}
	if !slices.Equal(texts, []string{"alpha: from alpha", "beta: from beta"}) {
		t.Fatalf("blocks %q, want alpha then beta (installation order, not finishing order)", texts)
	}
	if len(res.Notices) != 1 || res.Notices[0].Source != "gamma" || res.Notices[0].Kind != lifecycle.NoticeFailure {
		t.Fatalf("notices %+v, want gamma's failure once", res.Notices)
	}
	if again := d.SessionStart(context.Background(), sessionStartEvent(t.TempDir())); len(again.Notices) != 0 {
		t.Errorf("the same failure told twice: %+v", again.Notices)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.runs) != 6 {
		t.Fatalf("%d run records, want 6", len(r.runs))
	}
	for _, run := range r.runs {
		if run.Event != lifecycle.EventSessionStart || len(run.Argv) != 1 || !strings.HasPrefix(run.Argv[0], "/") {
			t.Errorf("run record %+v", run)
		}
	}
	for dir, n := range r.leases {
		if n != 0 {
			t.Errorf("lease on %s not released (%d)", dir, n)
		}
	}
}

// Guard answers merge as hooks.md says: any deny denies, an ask forces
// the dialog, an allow approves nothing; matchers pick the hooks.
func TestMemGuardVerdicts(t *testing.T) {
	deny := `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}'`
	ask := `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check"}}'`
	allow := `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`
	for _, tt := range []struct {
		name      string
		hooks     map[string]memHook
		tool      string
		wantDeny  bool
		wantAsk   bool
		wantRuns  int
		wantBlock string
	}{
		{"allow approves nothing", map[string]memHook{"a": {lifecycle.EventPreToolUse, "", allow}}, "run_command", false, false, 1, ""},
		{"deny beats allow", map[string]memHook{"a": {lifecycle.EventPreToolUse, "", allow}, "b": {lifecycle.EventPreToolUse, "", deny}}, "run_command", true, false, 2, "B"},
		{"ask forces the dialog", map[string]memHook{"a": {lifecycle.EventPreToolUse, "", ask}}, "run_command", false, true, 1, ""},
		{"a matcher for Bash does not run for Read", map[string]memHook{"a": {lifecycle.EventPreToolUse, "Bash", deny}}, "read_file", false, false, 0, ""},
		{"a matcher for Bash runs for run_command", map[string]memHook{"a": {lifecycle.EventPreToolUse, "Bash", deny}}, "run_command", true, false, 1, "A"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newMemRegistry()
			for _, id := range slices.Sorted(func(yield func(string) bool) {
				for id := range tt.hooks {
					if !yield(id) {
						return
					}
				}
			}) {
				r.add(t, id, []memHook{tt.hooks[id]})
			}
			d := memDispatcher(t, r)
			claude := map[string]string{"run_command": "Bash", "read_file": "Read"}[tt.tool]
			v := d.PreToolUse(context.Background(), lifecycle.ToolEvent{Tool: tt.tool, ClaudeTool: claude, SessionID: "s", ProjectDir: t.TempDir(),
				Input: json.RawMessage(`{"command":"rm -rf x","path":"x"}`)})
			if denied := len(v.Reasons) > 0; denied != tt.wantDeny || v.Ask != tt.wantAsk {
				t.Fatalf("verdict %+v: denied %v ask %v, want %v %v", v, denied, v.Ask, tt.wantDeny, tt.wantAsk)
			}
			if tt.wantBlock != "" && v.Reasons[0].Label != tt.wantBlock {
				t.Errorf("denied by %q, want %q", v.Reasons[0].Label, tt.wantBlock)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			if len(r.runs) != tt.wantRuns {
				t.Errorf("%d hooks ran, want %d", len(r.runs), tt.wantRuns)
			}
		})
	}
}

// A hook file changed since trust pauses its extension through the
// registry, and nothing of it runs.
func TestMemTamperedFileMarksForReview(t *testing.T) {
	r := newMemRegistry()
	x := r.add(t, "alpha", []memHook{{event: lifecycle.EventSessionStart, script: "echo ok"}})
	script := filepath.Join(x.Dir, "hooks", lifecycle.EventSessionStart+"-a.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := memDispatcher(t, r)
	res := d.SessionStart(context.Background(), sessionStartEvent(t.TempDir()))
	if len(res.Blocks) != 0 || len(res.Notices) != 1 || !strings.Contains(res.Notices[0].Text, "changed on disk") {
		t.Fatalf("result %+v", res)
	}
	if r.reviews["alpha"] == "" || len(r.runs) != 0 {
		t.Fatalf("reviews %v, runs %d", r.reviews, len(r.runs))
	}
}

// Removing an extension stops its running hook at once (the registry's
// OnRemove), long before the hook's timeout.
func TestMemRemoveStopsRunningHook(t *testing.T) {
	r := newMemRegistry()
	x := r.add(t, "slow", []memHook{{event: lifecycle.EventUserPromptSubmit, script: `echo $$ > "$CLAUDE_PLUGIN_DATA/pid"; exec sleep 1000`}})
	d := memDispatcher(t, r)
	done := make(chan lifecycle.HookResult, 1)
	go func() {
		done <- d.UserPromptSubmit(context.Background(), lifecycle.PromptEvent{SessionID: "s", ProjectDir: t.TempDir(), Prompt: "hi"})
	}()
	pidFile := filepath.Join(x.Data, "pid")
	waitFile(t, pidFile)
	body, _ := os.ReadFile(pidFile)
	pid := readPID(t, string(body))
	r.remove("slow")
	waitHookStopped(t, done, pid, "its extension was removed")
}

// What a successful hook leaves running belongs to the dispatcher: shown
// on the card (AddState) and ended when its extension is removed.
func TestMemLingeringBelongsToTheDispatcher(t *testing.T) {
	r := newMemRegistry()
	x := r.add(t, "daemon", []memHook{{event: lifecycle.EventSessionStart,
		script: `sleep 1000 >/dev/null 2>&1 </dev/null & echo $! > "$CLAUDE_PLUGIN_DATA/pid"; echo started`}})
	d := memDispatcher(t, r)
	if res := d.SessionStart(context.Background(), sessionStartEvent(t.TempDir())); len(res.Blocks) != 1 {
		t.Fatalf("result %+v", res)
	}
	body, _ := os.ReadFile(filepath.Join(x.Data, "pid"))
	pid := readPID(t, string(body))
	info := extensions.Info{ID: "daemon"}
	d.AddState(&info)
	if len(info.Lingering) != 1 || childproctest.Gone(pid) {
		t.Fatalf("lingering %v (daemon %d gone: %v)", info.Lingering, pid, childproctest.Gone(pid))
	}
	other := New(r, Config{HookPATH: func() string { return testPATH }})
	t.Cleanup(other.Close)
	info = extensions.Info{ID: "daemon"}
	other.AddState(&info)
	if len(info.Lingering) != 0 {
		t.Errorf("another dispatcher lists the first one's processes: %v", info.Lingering)
	}
	r.remove("daemon")
	childproctest.WaitGone(t, pid)
}
