package extensions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// Every stored version gets its store format recorded next to it, at
// install and at update.
func TestStoreFormatIsRecorded(t *testing.T) {
	r := repo(t, plugin("k", "", false))
	e := newTestEnv(t, map[string]*gittest.Repo{"k": r})
	first := e.install("k", "")
	r.Commit(t, "main", "v2", plugin("k", "", true))
	res, err := e.m.Update(context.Background(), "k", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{first.Dir, res.Info.Dir} {
		if data, err := os.ReadFile(dir + ".format"); err != nil || string(data) != "1\n" {
			t.Errorf("%s.format = %q, %v; want 1", dir, data, err)
		}
	}
}

// A version stored by a newer AgentDesk (a higher format, or a record this
// one cannot read) is read-only: it still loads, says why it is read-only,
// and no update, rollback, uninstall or start-up sweep rewrites or
// deletes it. Leftovers of this AgentDesk's own format are still swept.
func TestNewerStoreFormatIsReadOnly(t *testing.T) {
	for _, record := range []string{"2\n", "a newer layout"} {
		t.Run(strings.TrimSpace(record), func(t *testing.T) { newerStoreIsKept(t, record) })
	}
}

func newerStoreIsKept(t *testing.T, record string) {
	ctx := context.Background()
	r := repo(t, plugin("k", "", false))
	e := newTestEnv(t, map[string]*gittest.Repo{"k": r})
	e.install("k", "")
	r.Commit(t, "main", "v2", plugin("k", "", true))
	if _, err := e.m.Update(ctx, "k", "", nil); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(e.paths.Extensions(), "store")
	newer := []string{
		filepath.Join(root, "k", "1111111111111111111111111111111111111111"), // not in the registry
		filepath.Join(root, "ghost", "2222222222222222222222222222222222222222"),
		filepath.Join(e.paths.Extensions(), "data", "ghost"),
	}
	for _, dir := range newer[:2] {
		writeFile(t, filepath.Join(dir, "x"), "x")
		writeFile(t, dir+".format", record)
	}
	writeFile(t, filepath.Join(newer[2], "x"), "x")
	ownLeftover := filepath.Join(root, "k", "3333333333333333333333333333333333333333")
	writeFile(t, filepath.Join(ownLeftover, "x"), "x")
	writeFile(t, ownLeftover+".format", "1\n")
	info, _ := e.m.Show(ctx, "k")
	writeFile(t, info.Dir+".format", record) // the active version, as a newer AgentDesk stored it

	e.open() // start-up sweep
	for _, dir := range newer {
		if _, err := os.Stat(filepath.Join(dir, "x")); err != nil {
			t.Errorf("the sweep deleted %s, stored by a newer AgentDesk: %v", dir, err)
		}
	}
	for _, p := range []string{ownLeftover, ownLeftover + ".format"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("the sweep left %s, a leftover of this AgentDesk's own format", p)
		}
	}
	if info, err := e.m.Show(ctx, "k"); err != nil || !containsText(info.Diagnostics, "newer AgentDesk") || len(info.Skills) != 1 {
		t.Errorf("show = %+v, %v; want it loaded and saying it is read-only", info, err)
	}
	r.Commit(t, "main", "v3", plugin("k", "", false))
	_, errUpdate := e.m.Update(ctx, "k", "", nil)
	_, errRollback := e.m.Rollback(ctx, "k")
	errUninstall := e.m.Uninstall(ctx, "k")
	for op, err := range map[string]error{"update": errUpdate, "rollback": errRollback, "uninstall": errUninstall} {
		if !errors.Is(err, ErrNewerStore) || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s of a newer AgentDesk's extension = %v; want ErrNewerStore", op, err)
		}
	}
	if after, err := e.m.Show(ctx, "k"); err != nil || after.Commit != info.Commit || after.PreviousCommit != info.PreviousCommit {
		t.Errorf("the registry changed: %+v, %v", after, err)
	}
	if _, err := os.Stat(info.Dir); err != nil {
		t.Errorf("the active version is gone: %v", err)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}
