package extensions

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/storage"
)

func TestSandboxFoldersRoundTrip(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	t.Setenv("HOME", home)
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t.Cleanup(func() { childproc.SetUserFolders(childproc.UserFolders{}) })
	if f := LoadSandboxFolders(ctx, db); f.Read != nil || f.Write != nil || f.Secrets != nil {
		t.Fatalf("defaults = %+v, want none", f)
	}
	in := childproc.UserFolders{Read: SplitPaths(" /opt/sdk \n\n~/.ssh/known_hosts"), Write: []string{"/srv/out"},
		Secrets: SplitPaths(".config/rclone, /etc/secret")}
	if err := SaveSandboxFolders(ctx, db, in); err != nil {
		t.Fatal(err)
	}
	want := childproc.UserFolders{Read: []string{"/opt/sdk", filepath.Join(home, ".ssh/known_hosts")}, Write: []string{"/srv/out"},
		Secrets: []string{".config/rclone", "/etc/secret"}}
	if got := LoadSandboxFolders(ctx, db); !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v, want %+v", got, want)
	}
	if err := SaveSandboxFolders(ctx, db, childproc.UserFolders{Write: []string{"relative/dir"}}); err == nil {
		t.Error("a relative writable folder was saved")
	}
	if got := LoadSandboxFolders(ctx, db); !reflect.DeepEqual(got, want) {
		t.Errorf("a refused save changed the settings: %+v", got)
	}
}
