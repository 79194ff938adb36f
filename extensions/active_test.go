package extensions

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// otherProcess is a second database connection and Manager on the same
// home, as another AgentDesk process (the CLI) has.
func (e *testEnv) otherProcess() *Manager {
	e.t.Helper()
	db, err := storage.Open(context.Background(), e.paths.Database())
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { db.Close() })
	m, err := NewManager(context.Background(), db, e.paths.Extensions(), WithHTTPClient(e.server.Client))
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

func activeIDs(xs []Active) []string {
	var ids []string
	for _, x := range xs {
		ids = append(ids, x.ID)
	}
	return ids
}

// Active keeps its list while the registry does not change: no decode on
// a repeated call; a write by another process (an enable, a disable, a
// re-stamp of a version record) is seen by the next call.
func TestActiveKeptUntilTheRegistryChanges(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{
		"one": repo(t, plugin("one", "", true)),
		"two": repo(t, plugin("two", "", true)),
	})
	ctx := context.Background()
	e.install("one", "")
	e.install("two", "")
	e.enable("one")
	if got := activeIDs(e.m.Active(ctx)); len(got) != 1 || got[0] != "one" {
		t.Fatalf("active = %v, want [one]", got)
	}
	before := activeDecodes.Load()
	for range 50 {
		e.m.Active(ctx)
	}
	if n := activeDecodes.Load() - before; n != 0 {
		t.Fatalf("50 calls on an unchanged registry decoded %d packages, want 0", n)
	}

	other := e.otherProcess()
	tr, err := other.TrustPrompt(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Enable(ctx, "two", tr.Hash); err != nil {
		t.Fatal(err)
	}
	before = activeDecodes.Load()
	if got := activeIDs(e.m.Active(ctx)); len(got) != 2 || got[1] != "two" {
		t.Fatalf("after an enable by another process: active = %v, want [one two]", got)
	}
	if n := activeDecodes.Load() - before; n != 1 {
		t.Errorf("the rebuild decoded %d packages, want 1 (only the newly enabled one)", n)
	}

	// A re-stamp of one's record in another connection: same commit and
	// hooks hash, new content.
	row, err := e.db.Extension(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	otherDB, err := storage.Open(ctx, e.paths.Database())
	if err != nil {
		t.Fatal(err)
	}
	defer otherDB.Close()
	v, err := otherDB.ExtensionVersion(ctx, "one", row.ActiveCommit)
	if err != nil {
		t.Fatal(err)
	}
	var pkg manifest.Package
	if err := json.Unmarshal(v.Package, &pkg); err != nil {
		t.Fatal(err)
	}
	pkg.Manifest.Description = "re-stamped"
	if v.Package, err = json.Marshal(&pkg); err != nil {
		t.Fatal(err)
	}
	if _, _, err := otherDB.UpdateExtension(ctx, "one", &v, func(*storage.Extension) error { return nil }); err != nil {
		t.Fatal(err)
	}
	got := e.m.Active(ctx)
	if len(got) != 2 || got[0].Pkg.Manifest.Description != "re-stamped" {
		t.Fatalf("after a re-stamp in another connection: %v, description %q, want the new record", activeIDs(got), got[0].Pkg.Manifest.Description)
	}

	if _, err := other.Disable(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	if got := activeIDs(e.m.Active(ctx)); len(got) != 1 || got[0] != "two" {
		t.Fatalf("after a disable by another process: active = %v, want [two]", got)
	}
}

// A new process decodes each active package once: revalidate, as the
// registry opens, hands what it decoded to Active's first build.
func TestNewProcessDecodesEachPackageOnce(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{
		"one": repo(t, plugin("one", "", true)),
		"two": repo(t, plugin("two", "", true)),
	})
	ctx := context.Background()
	for _, id := range []string{"one", "two"} {
		e.install(id, "")
		e.enable(id)
	}
	other := e.otherProcess() // revalidates both as it opens
	before := activeDecodes.Load()
	if got := activeIDs(other.Active(ctx)); len(got) != 2 {
		t.Fatalf("active = %v, want [one two]", got)
	}
	if n := activeDecodes.Load() - before; n != 0 {
		t.Errorf("the first Active of a new process decoded %d packages again, want 0", n)
	}
}
