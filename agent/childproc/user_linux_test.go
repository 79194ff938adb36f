package childproc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The folders of Preferences → Advanced reach every child's policy: an
// extra secret is withheld, an extra writable folder in the home is
// writable, an extra readable one inside a withheld folder is readable,
// and the built-in secrets stay withheld.
func TestUserFoldersReachThePolicy(t *testing.T) {
	requireLandlock(t)
	home, project := plantedHome(t)
	for name, body := range map[string]string{"notes/token.txt": "TOKEN BYTES", ".ssh/known_hosts": "host"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(home, name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, "shared"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := Sandbox{Write: []string{project}}
	check := func(script string, ok bool) {
		t.Helper()
		out, code := runConfined(t, project, s, script)
		if (code == 0) != ok {
			t.Errorf("%s: exit %d, want success %v: %s", script, code, ok, out)
		}
		if strings.Contains(out, "TOKEN") || strings.Contains(out, "PRIVATE KEY") {
			t.Errorf("%s: a secret reached the output: %s", script, out)
		}
	}
	check("cat ~/notes/token.txt >/dev/null", true)
	check("echo x > ~/shared/f", false)

	SetUserFolders(UserFolders{Secrets: []string{"notes"}, Write: []string{filepath.Join(home, "shared")},
		Read: []string{filepath.Join(home, ".ssh/known_hosts")}})
	t.Cleanup(func() { SetUserFolders(UserFolders{}) })
	check("cat ~/notes/token.txt", false)
	check("echo x > ~/shared/f", true)
	check("cat ~/.ssh/known_hosts", true)
	check("cat ~/.ssh/id_ed25519", false)
}
