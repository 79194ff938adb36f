package extensions

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/storage"
)

func TestHookSettingsRoundTripAndBounds(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if s := LoadHookSettings(ctx, db); s.StopLimit != lifecycle.DefaultStopHookLimit || s.DefaultTimeout != 5*time.Second || s.ContextCapKiB != 64 ||
		s.MCPToolShare != lifecycle.DefaultMCPToolShare {
		t.Fatalf("defaults = %+v", s)
	}
	want := HookSettings{DefaultTimeout: 9 * time.Second, PATH: "/opt/bin", StopLimit: 0, ContextCapKiB: 128,
		MCPStartTimeout: 45 * time.Second, MCPCallTimeout: 90 * time.Second, MCPToolShare: 25}
	if err := SaveHookSettings(ctx, db, want); err != nil {
		t.Fatal(err)
	}
	if got := LoadHookSettings(ctx, db); got != want {
		t.Fatalf("loaded %+v, want %+v (0 continuations is a valid choice)", got, want)
	}
	for _, bad := range []HookSettings{{DefaultTimeout: 0, StopLimit: 1, ContextCapKiB: 64}, {DefaultTimeout: time.Second, StopLimit: -1, ContextCapKiB: 64},
		{DefaultTimeout: time.Second, StopLimit: lifecycle.MaxStopHookLimit + 1, ContextCapKiB: 64},
		{DefaultTimeout: time.Second, ContextCapKiB: 2}, {DefaultTimeout: time.Second, ContextCapKiB: 2048},
		{DefaultTimeout: time.Second, ContextCapKiB: 64, MCPStartTimeout: MaxMCPStartTimeout + time.Second},
		{DefaultTimeout: time.Second, ContextCapKiB: 64, MCPCallTimeout: time.Millisecond},
		{DefaultTimeout: time.Second, ContextCapKiB: 64, MCPToolShare: -1}, {DefaultTimeout: time.Second, ContextCapKiB: 64, MCPToolShare: 101}} {
		if err := SaveHookSettings(ctx, db, bad); err == nil {
			t.Errorf("%+v was saved", bad)
		}
	}
	if got := LoadHookSettings(ctx, db); got != want {
		t.Fatalf("a refused save changed the settings: %+v", got)
	}
}
