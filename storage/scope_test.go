package storage

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// An extension's projects and its switched-off MCP tools survive a
// reopen, every write moves the registry generation (so a process's
// decoded list is rebuilt), and an uninstall takes both along.
func TestExtensionProjectsAndToolsOff(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	if err := db.InstallExtension(ctx, Extension{ID: "x", SourceURL: "https://x/x"}, version("x", "c1")); err != nil {
		t.Fatal(err)
	}
	gen := func() int64 {
		n, err := db.RegistryGeneration(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	g := gen()
	if _, _, err := db.UpdateExtension(ctx, "x", nil, func(e *Extension) error {
		e.Enabled, e.Projects = true, []string{"/src/a", "/src/b"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if gen() == g {
		t.Error("a projects write did not move the registry generation")
	}
	e, err := db.Extension(ctx, "x")
	if err != nil || !reflect.DeepEqual(e.Projects, []string{"/src/a", "/src/b"}) {
		t.Fatalf("projects = %v, %v", e.Projects, err)
	}
	g = gen()
	ref := MCPToolRef{Extension: "x", Server: "srv", Tool: "echo"}
	if err := db.SetMCPToolOff(ctx, ref, true); err != nil {
		t.Fatal(err)
	}
	if gen() == g {
		t.Error("switching a tool off did not move the registry generation")
	}
	if off, _ := db.MCPToolsOff(ctx); !reflect.DeepEqual(off, []MCPToolRef{ref}) {
		t.Fatalf("tools off = %v", off)
	}
	if err := db.SetMCPToolOff(ctx, MCPToolRef{Extension: "nope", Server: "s", Tool: "t"}, true); !errors.Is(err, ErrNotFound) {
		t.Errorf("switch of an unknown extension = %v, want ErrNotFound", err)
	}
	if err := db.SetMCPToolOff(ctx, ref, false); err != nil {
		t.Fatal(err)
	}
	if off, _ := db.MCPToolsOff(ctx); len(off) != 0 {
		t.Fatalf("tool still off after switching it on: %v", off)
	}
	_ = db.SetMCPToolOff(ctx, ref, true)
	if err := db.DeleteExtension(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if off, _ := db.MCPToolsOff(ctx); len(off) != 0 {
		t.Errorf("uninstall left switched-off tools: %v", off)
	}
}
