//go:build unix

package hookrun

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeShell writes an executable script standing in for the user's login
// shell; it is the program run, not a command handed to a shell.
func fakeShell(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-shell")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoginShellPATHProbe(t *testing.T) {
	home := t.TempDir()
	existing := filepath.Join(home, ".local", "bin")
	if err := os.MkdirAll(existing, 0o700); err != nil {
		t.Fatal(err)
	}
	fallback := "/app/bin:/usr/bin:" + existing
	// The app's own PATH first, then what only the login shell has.
	merged := "/app/bin:/usr/bin:/login/bin:/bin:" + existing
	tests := []struct {
		name  string
		shell string
		want  string
	}{
		// Drops -l so the system profile cannot rewrite PATH, then runs the
		// probe's -c script with a real shell, after a chatty profile line.
		{"login shell answers", fakeShell(t, "echo 'Last login: today'\nshift\nPATH=/login/bin:/usr/bin:/bin exec /bin/sh \"$@\"\n"), merged},
		{"no shell", "", fallback},
		{"shell fails", fakeShell(t, "exit 1\n"), fallback},
		{"shell prints no PATH", fakeShell(t, "echo hello\n"), fallback},
		{"shell hangs", fakeShell(t, "exec sleep 600\n"), fallback},
		{"shell missing", filepath.Join(home, "no-such-shell"), fallback},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			probe := pathProbe{
				shell:   tt.shell,
				env:     []string{"PATH=/app/bin::relative:/usr/bin:/app/bin", "HOME=" + home},
				home:    home,
				timeout: 200 * time.Millisecond,
				commonDirs: []string{
					existing, filepath.Join(home, ".volta", "bin"), "/usr/bin",
				},
			}
			if got := probe.resolve(context.Background()); got != tt.want {
				t.Fatalf("resolve = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExtractPATH(t *testing.T) {
	tests := []struct {
		name, out, want string
		ok              bool
	}{
		{"bare", pathMarker + "/a:/b" + pathMarker, "/a:/b", true},
		{"profile noise around it", "motd\n" + pathMarker + "/a" + pathMarker + "\nbye", "/a", true},
		{"unterminated", pathMarker + "/a", "", false},
		{"empty", pathMarker + pathMarker, "", false},
		{"no marker", "/a:/b", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extractPATH([]byte(tt.out))
			if got != tt.want || (err == nil) != tt.ok {
				t.Fatalf("extractPATH = %q, %v; want %q, ok=%v", got, err, tt.want, tt.ok)
			}
		})
	}
}
