package childproc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/storage"
)

// fakeHome plants a home folder with secrets, ordinary files, AgentDesk's
// data with one extension, and a project. It returns the real path (the
// temporary folder may itself be reached through a link).
func fakeHome(t *testing.T) string {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{
		".ssh/id_ed25519", ".bashrc", ".config/gh/hosts.yml", ".config/go/env", ".config/gcloud/credentials.db",
		".docker/config.json", ".docker/contexts/meta.json", ".local/share/keyrings/login.keyring",
		".local/share/fonts/a.ttf", ".local/share/agentdesk/agentdesk.db",
		".local/share/agentdesk/extensions/store/probe/v1/plugin.json",
		".local/share/agentdesk/extensions/data/probe/state.json",
		".cache/agentdesk/repo/x", ".cache/go-build/README", "projects/p/main.go",
	} {
		path := filepath.Join(home, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// covers reports whether one of grants opens path: names it or a folder
// holding it.
func covers(grants []string, path string) bool {
	for _, g := range grants {
		if path == g || strictlyBeneath(path, g) {
			return true
		}
	}
	return false
}

func testPolicy(home string, s Sandbox, env ...string) policy {
	return newPolicy(s, home, filepath.Join(home, "tmp-private"), []string{filepath.Join(home, ".local/share/agentdesk"), filepath.Join(home, ".cache/agentdesk")}, env)
}

func TestPolicyReadsAllButTheWithheld(t *testing.T) {
	home := fakeHome(t)
	data := filepath.Join(home, ".local/share/agentdesk")
	version, extData := filepath.Join(data, "extensions/store/probe/v1"), filepath.Join(data, "extensions/data/probe")
	project := filepath.Join(home, "projects/p")
	g := testPolicy(home, Sandbox{Write: []string{project, extData}, Read: []string{version}}).grants()
	all := slices.Concat(g.Read, g.Write)

	for _, secret := range []string{".ssh/id_ed25519", ".config/gh/hosts.yml", ".config/gcloud", ".docker/config.json",
		".local/share/keyrings/login.keyring", ".local/share/agentdesk/agentdesk.db", ".cache/agentdesk/repo/x"} {
		if covers(all, filepath.Join(home, secret)) {
			t.Errorf("%s is open to the child", secret)
		}
	}
	for _, open := range []string{".bashrc", ".config/go/env", ".docker/contexts/meta.json", ".local/share/fonts/a.ttf",
		"projects/p/main.go", ".local/share/agentdesk/extensions/store/probe/v1/plugin.json"} {
		if !covers(g.Read, filepath.Join(home, open)) && !covers(g.Write, filepath.Join(home, open)) {
			t.Errorf("%s is not readable", open)
		}
	}
	for _, path := range []string{"/usr/bin", "/etc"} {
		if !covers(g.Read, path) {
			t.Errorf("%s is not readable: %v", path, g.Read)
		}
	}
	for _, w := range []string{"projects/p/main.go", ".local/share/agentdesk/extensions/data/probe/state.json", ".cache/go-build/README"} {
		if !covers(g.Write, filepath.Join(home, w)) {
			t.Errorf("%s is not writable: %v", w, g.Write)
		}
	}
	for _, w := range []string{".bashrc", ".config/go/env", ".local/share/agentdesk/extensions/store/probe/v1/plugin.json"} {
		if covers(g.Write, filepath.Join(home, w)) {
			t.Errorf("%s is writable", w)
		}
	}
	if covers(all, home) || covers(all, filepath.Join(home, ".config")) {
		t.Errorf("a folder holding secrets is granted whole: %v", all)
	}
	if !slices.Contains(g.List, "/") || !slices.Contains(g.List, home) || slices.Contains(g.List, filepath.Join(home, ".ssh")) {
		t.Errorf("List = %v, want the folders on the way to the secrets only", g.List)
	}
}

// A project that is the home folder itself, a cache variable pointing
// into a secret, or a link into one, opens none of them.
func TestPolicyNeverReopensAWithheldPath(t *testing.T) {
	home := fakeHome(t)
	if err := os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(home, "keys")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".config/go"), filepath.Join(home, "goconf")); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(home, Sandbox{Write: []string{home}}, "GOCACHE="+filepath.Join(home, ".ssh/cache"))
	if slices.Contains(p.Write, filepath.Join(home, ".ssh/cache")) {
		t.Errorf("a cache variable opened a withheld folder: %v", p.Write)
	}
	g := p.grants()
	all := slices.Concat(g.Read, g.Write)
	if covers(all, filepath.Join(home, ".ssh/id_ed25519")) || covers(all, filepath.Join(home, "keys")) {
		t.Errorf("the key is reachable: %v", all)
	}
	if !covers(g.Write, filepath.Join(home, "goconf")) || !covers(g.Write, filepath.Join(home, ".bashrc")) {
		t.Errorf("the project (the home) is not writable beside its secrets: %v", g.Write)
	}
}

// A home reached through a symbolic link (as /home -> /var/home) is
// withheld at its real location.
func TestPolicyFollowsALinkedHome(t *testing.T) {
	real := fakeHome(t)
	link := filepath.Join(t.TempDir(), "home")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	g := newPolicy(Sandbox{}, link, t.TempDir(), nil, nil).grants()
	if covers(g.Read, filepath.Join(real, ".ssh/id_ed25519")) || slices.Contains(g.Read, link) {
		t.Errorf("the key is readable through the linked home: %v", g.Read)
	}
	if !covers(g.Read, filepath.Join(real, ".bashrc")) {
		t.Errorf(".bashrc is not readable: %v", g.Read)
	}
}

func TestPolicyWritesCachesTmpAndDevicesOnly(t *testing.T) {
	home := fakeHome(t)
	tmp := filepath.Join(home, "tmp-private")
	p := testPolicy(home, Sandbox{}, "GOMODCACHE=/elsewhere/mod")
	want := []string{tmp, sharedMemory, filepath.Join(home, ".cache"), filepath.Join(home, "go/pkg/mod"),
		filepath.Join(home, ".npm"), filepath.Join(home, ".cargo/registry"), "/elsewhere/mod"}
	if !slices.Equal(p.Write, want) {
		t.Errorf("Write = %v, want %v", p.Write, want)
	}
	if !slices.Contains(p.Devices, "/dev/null") || !slices.Contains(p.Devices, "/dev/tty") {
		t.Errorf("Devices = %v", p.Devices)
	}
}

// AgentDesk's own folders are withheld wherever storage puts them.
func TestAgentDeskPathsFollowStorage(t *testing.T) {
	for _, home := range []string{"", t.TempDir()} {
		t.Setenv(storage.HomeEnv, home)
		own := agentdeskPaths()
		p := storage.ResolvePaths()
		for _, dir := range []string{p.Data, p.State, p.Cache} {
			if !beneathAny(dir, own) {
				t.Errorf("AGENTDESK_HOME=%q: %s is not withheld (%v)", home, dir, own)
			}
		}
	}
}

func TestDenialNote(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AGENTDESK_HOME", filepath.Join(home, "ad"))
	for _, c := range []struct{ output, want string }{
		{"cat: " + home + "/.ssh/id_ed25519: Permission denied\n", "the sandbox kept ~/.ssh from this command"},
		{"open ~/.aws/credentials: EACCES", "the sandbox kept ~/.aws from this command"},
		{"sqlite: " + home + "/ad/agentdesk.db: Operation not permitted", "the sandbox kept AgentDesk's own data (" + home + "/ad)"},
		{"bash: " + home + "/x: Permission denied", "the sandbox lets a command write only the project"},
		{"cat: " + home + "/.ssh/id_ed25519: No such file or directory", ""},
		{"rm: /etc/passwd: Permission denied", ""},
	} {
		got := DenialNote(c.output)
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("DenialNote(%q) = %q, want %q…", c.output, got, c.want)
		}
	}
}

func TestWithholds(t *testing.T) {
	home := "/home/u"
	for dir, want := range map[string]bool{
		"/home/u/.ssh": true, "/home/u/.ssh/keys": true, "/home/u": true, "/home": true,
		"/home/u/docs": false, "/srv/shared": false, "/home/u/.sshx": false,
	} {
		if got := Withholds(dir, home); got != want {
			t.Errorf("Withholds(%s) = %v, want %v", dir, got, want)
		}
	}
}

// The walk from / is kept between children, but an entry added to a
// folder it walked through (the home, ~/.config) after it is seen by the
// next child, and a withheld folder created later stays withheld.
func TestRootWalkFollowsTheFolders(t *testing.T) {
	home := fakeHome(t)
	before := testPolicy(home, Sandbox{}).grants()
	added := filepath.Join(home, ".config", "newtool")
	if err := os.WriteFile(added, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o700); err != nil {
		t.Fatal(err)
	}
	after := testPolicy(home, Sandbox{}).grants()
	if covers(before.Read, added) || !covers(after.Read, added) {
		t.Errorf("a file added to ~/.config after the first walk: readable before %v, after %v; want false, true",
			covers(before.Read, added), covers(after.Read, added))
	}
	if covers(after.Read, filepath.Join(home, ".aws", "credentials")) {
		t.Error("~/.aws, created after the first walk, is readable")
	}
	again := testPolicy(home, Sandbox{}).grants()
	if !slices.Equal(again.Read, after.Read) {
		t.Errorf("an unchanged tree walks to other grants: %v, then %v", after.Read, again.Read)
	}
	again.Read[0] = "changed by a caller"
	if testPolicy(home, Sandbox{}).grants().Read[0] == "changed by a caller" {
		t.Error("callers share the kept walk's slices")
	}
}
