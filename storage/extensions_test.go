package storage

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

func version(id, commit string) ExtensionVersion {
	return ExtensionVersion{ExtensionID: id, Commit: commit, Version: "1.0", DisplayName: id, HooksHash: "h-" + commit, Package: []byte(`{}`)}
}

func TestExtensionRegistryLifecycle(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	for _, id := range []string{"b-ext", "a-ext"} {
		if err := db.InstallExtension(ctx, Extension{ID: id, SourceURL: "https://x/" + id}, version(id, "c1")); err != nil {
			t.Fatal(err)
		}
	}
	err := db.InstallExtension(ctx, Extension{ID: "a-ext"}, version("a-ext", "c9"))
	if !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate install = %v, want ErrExists", err)
	}
	list, _ := db.Extensions(ctx)
	if len(list) != 2 || list[0].ID != "b-ext" || list[1].ID != "a-ext" || list[0].Enabled {
		t.Fatalf("registry = %+v; want installation order, disabled", list)
	}

	// Two updates: the oldest version's record is dropped and reported.
	for _, c := range []string{"c2", "c3"} {
		v := version("a-ext", c)
		_, dropped, err := db.UpdateExtension(ctx, "a-ext", &v, func(e *Extension) error {
			e.PreviousCommit, e.ActiveCommit = e.ActiveCommit, c
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if c == "c3" && !reflect.DeepEqual(dropped, []string{"c1"}) {
			t.Fatalf("dropped = %v, want [c1]", dropped)
		}
	}
	if _, err := db.ExtensionVersion(ctx, "a-ext", "c1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("pruned version still readable: %v", err)
	}
	if v, err := db.ExtensionVersion(ctx, "a-ext", "c2"); err != nil || v.HooksHash != "h-c2" {
		t.Errorf("previous version = %+v, %v", v, err)
	}

	// A failing change leaves the row untouched.
	boom := errors.New("boom")
	if _, _, err := db.UpdateExtension(ctx, "a-ext", nil, func(e *Extension) error {
		e.Enabled = true
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if e, _ := db.Extension(ctx, "a-ext"); e.Enabled || e.ActiveCommit != "c3" || e.PreviousCommit != "c2" {
		t.Fatalf("row after failed change = %+v", e)
	}

	if err := db.DeleteExtension(ctx, "a-ext"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExtensionVersion(ctx, "a-ext", "c3"); !errors.Is(err, ErrNotFound) {
		t.Errorf("versions survive uninstall: %v", err)
	}
	if err := db.InstallExtension(ctx, Extension{ID: "c-ext"}, version("c-ext", "c1")); err != nil {
		t.Fatal(err)
	}
	list, _ = db.Extensions(ctx)
	if list[len(list)-1].ID != "c-ext" {
		t.Errorf("a new install must come last: %+v", list)
	}
}

func TestHookRunsBoundedAndErrorsCleared(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	db.InstallExtension(ctx, Extension{ID: "x"}, version("x", "c1"))
	start := time.UnixMilli(1_700_000_000_000)
	for i := 0; i < HookRunHistory+7; i++ {
		r := HookRun{ExtensionID: "x", HookKey: "k", Event: "SessionStart", Argv: []string{"node", fmt.Sprint(i)},
			StartedAt: start.Add(time.Duration(i) * time.Second), Duration: 12 * time.Millisecond, ExitCode: 1, Error: "exit 1"}
		if err := db.RecordHookRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := db.HookRuns(ctx, "x", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != HookRunHistory || runs[0].Argv[1] != fmt.Sprint(HookRunHistory+6) || runs[0].Duration != 12*time.Millisecond {
		t.Fatalf("runs: %d kept, newest %+v", len(runs), runs[0])
	}
	if errs, _ := db.HookErrors(ctx, "x"); errs["k"] != "exit 1" {
		t.Fatalf("hook errors = %v", errs)
	}
	if err := db.RecordHookRun(ctx, HookRun{ExtensionID: "x", HookKey: "k", Event: "SessionStart", Argv: []string{"node"}, StartedAt: start}); err != nil {
		t.Fatal(err)
	}
	if errs, _ := db.HookErrors(ctx, "x"); len(errs) != 0 {
		t.Fatalf("a later success must clear the error: %v", errs)
	}
}
