package gitfetch_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// materialise fetches files and materialises folder "plugin" of them.
func materialise(t *testing.T, files map[string]gittest.File, opts ...gitfetch.Option) (string, error) {
	t.Helper()
	srv, url := serveFiles(t, files)
	res, dest, err := fetch(t, srv, url, "", opts...)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	return dest, gitfetch.Materialise(dest, "plugin", res, opts...)
}

func TestMaterialiseCopiesLinksThatLeaveTheFolder(t *testing.T) {
	dest, err := materialise(t, map[string]gittest.File{
		// local-rag's shape: a plugin folder whose hooks/shared names a
		// folder of the repository outside the plugin.
		"plugin/hooks/shared":       {Symlink: "../../shared/hooks"},
		"shared/hooks/start.sh":     {Body: "#!/bin/sh\necho start\n", Mode: 0o755},
		"shared/hooks/lib/util.txt": {Body: "util", Mode: 0o644},
		"shared/hooks/lib/alias":    {Symlink: "../../common/alias.txt"}, // a link inside the copied folder
		"shared/common/alias.txt":   {Body: "alias", Mode: 0o644},
		"shared/hooks/gone":         {Symlink: "missing"},
		"plugin/README.md":          {Symlink: "../README.md"}, // a file
		"README.md":                 {Body: "readme", Mode: 0o644},
		"plugin/local":              {Symlink: "hooks/shared"}, // stays inside: kept
		"plugin/via":                {Symlink: "../plugin/inner"},
		"plugin/inner/x":            {Body: "x", Mode: 0o644},
	})
	if err != nil {
		t.Fatalf("Materialise: %v", err)
	}
	plugin := filepath.Join(dest, "plugin")
	for _, name := range []string{"hooks/shared", "README.md", "via"} {
		if info, err := os.Lstat(filepath.Join(plugin, name)); err != nil || info.Mode()&os.ModeSymlink != 0 {
			t.Errorf("%s must be a copy now: %v %v", name, info, err)
		}
	}
	want := map[string]string{"hooks/shared/start.sh": "#!/bin/sh\necho start\n", "hooks/shared/lib/util.txt": "util",
		"hooks/shared/lib/alias": "alias", "README.md": "readme", "via/x": "x", "local/start.sh": "#!/bin/sh\necho start\n"}
	for name, body := range want {
		if got := readFile(t, filepath.Join(plugin, name)); got != body {
			t.Errorf("%s = %q, want %q", name, got, body)
		}
	}
	if info, _ := os.Stat(filepath.Join(plugin, "hooks/shared/start.sh")); info == nil || info.Mode().Perm()&0o100 == 0 {
		t.Errorf("the copied script lost its executable bit: %v", info)
	}
	if info, _ := os.Stat(filepath.Join(plugin, "hooks/shared/lib/util.txt")); info == nil || info.Mode().Perm()&0o111 != 0 {
		t.Errorf("a plain file became executable: %v", info)
	}
	if got, err := os.Readlink(filepath.Join(plugin, "local")); err != nil || got != "hooks/shared" {
		t.Errorf("a link inside the folder must stay a link: %q %v", got, err)
	}
	if _, err := os.Lstat(filepath.Join(plugin, "hooks/shared/gone")); err == nil {
		t.Error("a dangling link inside a copied folder has nothing to copy")
	}
}

func TestMaterialiseRefusesHostileLinks(t *testing.T) {
	file := gittest.File{Body: "x", Mode: 0o644}
	tests := []struct {
		name    string
		files   map[string]gittest.File
		wantErr error
		wantMsg []string
	}{
		{"link to the repository root", map[string]gittest.File{"plugin/all": {Symlink: ".."}, "a": file},
			gitfetch.ErrUnsafePath, []string{"plugin/all", "directory cycle"}},
		{"link to the folder's parent chain", map[string]gittest.File{"plugin/deep/up": {Symlink: "../../x/.."}, "x/a": file},
			gitfetch.ErrUnsafePath, []string{"plugin/deep/up", "directory cycle"}},
		{"cycle inside the copied folder", map[string]gittest.File{
			"plugin/shared": {Symlink: "../shared"}, "shared/a": file, "shared/sub/back": {Symlink: ".."},
		}, gitfetch.ErrUnsafePath, []string{"plugin/shared", "directory cycle"}},
		{"two folders naming each other", map[string]gittest.File{
			"plugin/a": {Symlink: "../x"}, "x/to-y": {Symlink: "../y"}, "y/to-x": {Symlink: "../x"},
		}, gitfetch.ErrUnsafePath, []string{"plugin/a", "directory cycle"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := materialise(t, tt.files)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Materialise error = %v, want %v", err, tt.wantErr)
			}
			for _, part := range tt.wantMsg {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not mention %q", err, part)
				}
			}
		})
	}
}

func TestMaterialiseCountsCopiesTowardTheLimits(t *testing.T) {
	files := map[string]gittest.File{"plugin/big": {Symlink: "../data"}}
	for _, name := range []string{"a", "b", "c", "d"} {
		files["data/"+name] = gittest.File{Body: strings.Repeat(name, 1000), Mode: 0o644}
	}
	// 5 entries, 4,007 bytes written (the link's target counts): the
	// copies make 9 and 8,007.
	if _, err := materialise(t, files, gitfetch.WithLimits(gitfetch.Limits{Files: 8})); !errors.Is(err, gitfetch.ErrTooLarge) {
		t.Errorf("file limit: %v", err)
	}
	if _, err := materialise(t, files, gitfetch.WithLimits(gitfetch.Limits{TreeBytes: 8006})); !errors.Is(err, gitfetch.ErrTooLarge) {
		t.Errorf("size limit: %v", err)
	}
	if _, err := materialise(t, files, gitfetch.WithLimits(gitfetch.Limits{Files: 9, TreeBytes: 8007})); err != nil {
		t.Errorf("exactly at the limits: %v", err)
	}
}
