package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func sampleHooks() []Hook {
	return []Hook{
		{Event: EventSessionStart, Matcher: "startup|resume", Argv: []string{"node", "${CLAUDE_PLUGIN_ROOT}/a.js"}, Timeout: 5, IgnoreExit: true},
		{Event: EventUserPromptSubmit, Argv: []string{"node", "${CLAUDE_PLUGIN_ROOT}/b.js"}},
	}
}

func TestHooksHash(t *testing.T) {
	base := HooksHash(sampleHooks())
	if base != HooksHash(sampleHooks()) || len(base) != 64 {
		t.Fatalf("hash not stable: %q", base)
	}
	same := []struct {
		name   string
		mutate func(h []Hook)
	}{
		{"status message", func(h []Hook) { h[0].StatusMessage = "Loading…" }},
		{"command text", func(h []Hook) { h[0].Command = "node a.js" }},
		{"star matcher equals empty", func(h []Hook) { h[1].Matcher = "*" }},
	}
	for _, tt := range same {
		h := sampleHooks()
		tt.mutate(h)
		if HooksHash(h) != base {
			t.Errorf("%s changed the hash", tt.name)
		}
	}
	withReason := func(reason string) string {
		h := sampleHooks()
		h[1].Inactive = reason
		return HooksHash(h)
	}
	if withReason("needs a shell") != withReason("not executable") {
		t.Error("inactive reason wording changed the hash")
	}
	different := []struct {
		name   string
		mutate func(h []Hook)
	}{
		{"argv", func(h []Hook) { h[0].Argv[1] = "${CLAUDE_PLUGIN_ROOT}/evil.js" }},
		{"argv split differently", func(h []Hook) { h[0].Argv = []string{"node ${CLAUDE_PLUGIN_ROOT}/a.js"} }},
		{"timeout", func(h []Hook) { h[0].Timeout = 6 }},
		{"matcher", func(h []Hook) { h[0].Matcher = "startup" }},
		{"event", func(h []Hook) { h[1].Event = EventSubagentStart }},
		{"ignore exit", func(h []Hook) { h[0].IgnoreExit = false }},
		{"inactive", func(h []Hook) { h[1].Inactive = needsShellReason }},
		{"order", func(h []Hook) { h[0], h[1] = h[1], h[0] }},
		{"removed", func(h []Hook) { h[1] = h[0] }},
	}
	for _, tt := range different {
		h := sampleHooks()
		tt.mutate(h)
		if HooksHash(h) == base {
			t.Errorf("%s did not change the hash", tt.name)
		}
	}
	if HooksHash(nil) == base || HooksHash(nil) != HooksHash([]Hook{}) {
		t.Error("empty list hash")
	}
}

func TestDiffHooks(t *testing.T) {
	old := sampleHooks()
	if d := DiffHooks(old, sampleHooks()); !d.Empty() {
		t.Fatalf("equal lists differ: %+v", d)
	}
	updated := sampleHooks()
	updated[0].Timeout = 10                                                                                   // changed in place
	updated[1].Matcher = "x"                                                                                  // moves to another group: removed + added
	updated = append(updated, Hook{Event: EventSessionStart, Matcher: "startup|resume", Argv: []string{"c"}}) // second in its group: added
	d := DiffHooks(old, updated)
	if len(d.Changed) != 1 || d.Changed[0].Old.Timeout != 5 || d.Changed[0].New.Timeout != 10 {
		t.Errorf("changed = %+v", d.Changed)
	}
	if len(d.Added) != 2 || d.Added[0].Matcher != "x" || d.Added[1].Argv[0] != "c" {
		t.Errorf("added = %+v", d.Added)
	}
	if len(d.Removed) != 1 || d.Removed[0].Event != EventUserPromptSubmit || d.Removed[0].Matcher != "" {
		t.Errorf("removed = %+v", d.Removed)
	}
	if d := DiffHooks(old, nil); len(d.Removed) != 2 || len(d.Added) != 0 {
		t.Errorf("all removed: %+v", d)
	}
}

func TestHookKey(t *testing.T) {
	a := Hook{Event: EventSessionStart, Argv: []string{"a b", "c"}}
	b := Hook{Event: EventSessionStart, Argv: []string{"a", "b c"}}
	if a.Key() == b.Key() || a.Key() != (Hook{Event: EventSessionStart, Matcher: "x", Argv: []string{"a b", "c"}}).Key() {
		t.Fatalf("keys: %q %q", a.Key(), b.Key())
	}
}

func TestCheckStamps(t *testing.T) {
	root := ponytailTree(t)
	pkg := mustLoad(t, root)
	script := filepath.Join(root, "hooks", "ponytail-subagent.js")
	info, err := os.Stat(script)
	if err != nil {
		t.Fatal(err)
	}
	original, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}

	tampered := append([]byte(nil), original...)
	tampered[0] ^= 0x20 // same size
	if err := os.WriteFile(script, tampered, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(script, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	err = CheckStamps(root, pkg.Stamps)
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "hooks/ponytail-subagent.js") ||
		!strings.Contains(err.Error(), "content differs") {
		t.Fatalf("same-size edit with restored mtime: err = %v", err)
	}

	if err := os.WriteFile(script, append(original, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckStamps(root, pkg.Stamps); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "size") {
		t.Fatalf("size change: err = %v", err)
	}

	if err := os.WriteFile(script, original, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(script, later, later); err != nil {
		t.Fatal(err)
	}
	if err := CheckStamps(root, pkg.Stamps); err != nil {
		t.Fatalf("restored content with a new mtime: %v", err)
	}

	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	outside := writeTree(t, t.TempDir(), map[string]string{"x.js": string(original)})
	symlink(t, filepath.Join(outside, "x.js"), script)
	if err := CheckStamps(root, pkg.Stamps); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "ponytail-subagent.js") {
		t.Fatalf("symlink swapped to outside: err = %v", err)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	if err := CheckStamps(root, pkg.Stamps); !errors.Is(err, ErrChanged) {
		t.Fatalf("deleted file: err = %v", err)
	}
}
