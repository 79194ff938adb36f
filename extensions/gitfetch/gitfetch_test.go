package gitfetch_test

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// fixture is a repository with history, two branches and two tags:
//
//	main: c0 -- c1 (tags v1, annotated r1) -- c2 (HEAD)
//	dev:  d0
type fixture struct {
	srv            *gittest.Server
	url            string
	c0, c1, c2, d0 string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	repo := gittest.NewRepo(t)
	f := &fixture{
		c0: repo.Commit(t, "main", "c0", version("0")),
		c1: repo.Commit(t, "main", "c1", version("1")),
		c2: repo.Commit(t, "main", "c2", version("2")),
		d0: repo.Commit(t, "dev", "d0", version("dev")),
	}
	repo.Tag(t, "v1", f.c1, false)
	repo.Tag(t, "r1", f.c1, true)
	repo.SetHEAD(t, "main")
	f.srv = gittest.Serve(t, map[string]*gittest.Repo{"ext": repo})
	f.url = f.srv.URL + "/ext.git"
	return f
}

func version(v string) map[string]gittest.File {
	return map[string]gittest.File{"VERSION": {Body: v, Mode: 0o644}}
}

// serveFiles serves a one-commit repository holding files.
func serveFiles(t *testing.T, files map[string]gittest.File) (*gittest.Server, string) {
	t.Helper()
	repo := gittest.NewRepo(t)
	repo.Commit(t, "main", "files", files)
	repo.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"ext": repo})
	return srv, srv.URL + "/ext.git"
}

func fetch(t *testing.T, srv *gittest.Server, url, ref string, opts ...gitfetch.Option) (gitfetch.Result, string, error) {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "out")
	opts = append([]gitfetch.Option{gitfetch.WithHTTPClient(srv.Client)}, opts...)
	res, err := gitfetch.Fetch(context.Background(), url, ref, dest, opts...)
	return res, dest, err
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

func TestFetchResolvesRefs(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name        string
		ref         string
		wantCommit  string
		wantRef     string
		wantDefault bool
		wantVersion string
	}{
		{"default branch", "", f.c2, "refs/heads/main", true, "2"},
		{"HEAD", "HEAD", f.c2, "refs/heads/main", true, "2"},
		{"branch", "main", f.c2, "refs/heads/main", false, "2"},
		{"other branch", "dev", f.d0, "refs/heads/dev", false, "dev"},
		{"full ref name", "refs/heads/dev", f.d0, "refs/heads/dev", false, "dev"},
		{"lightweight tag", "v1", f.c1, "refs/tags/v1", false, "1"},
		{"annotated tag peeled", "r1", f.c1, "refs/tags/r1", false, "1"},
		{"full commit at a tip", f.c2, f.c2, f.c2, false, "2"},
		{"full commit in history", f.c0, f.c0, f.c0, false, "0"},
		{"short commit at a tip", f.d0[:7], f.d0, f.d0, false, "dev"},
		{"short commit in history", f.c0[:9], f.c0, f.c0, false, "0"},
		{"upper-case short commit", strings.ToUpper(f.c0[:10]), f.c0, f.c0, false, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, dest, err := fetch(t, f.srv, f.url, tt.ref)
			if err != nil {
				t.Fatalf("Fetch(%q): %v", tt.ref, err)
			}
			want := gitfetch.Result{Commit: tt.wantCommit, Ref: tt.wantRef, DefaultBranch: tt.wantDefault,
				Files: 1, Bytes: int64(len(tt.wantVersion))}
			if res != want {
				t.Errorf("Fetch(%q) = %+v, want %+v", tt.ref, res, want)
			}
			if got := readFile(t, filepath.Join(dest, "VERSION")); got != tt.wantVersion {
				t.Errorf("VERSION = %q, want %q", got, tt.wantVersion)
			}
		})
	}
}

func TestFetchCommitFallsBackToHistory(t *testing.T) {
	f := newFixture(t)
	f.srv.RefuseUnadvertisedWants()
	res, dest, err := fetch(t, f.srv, f.url, f.c0)
	if err != nil {
		t.Fatalf("Fetch(%s) from a server refusing unadvertised wants: %v", f.c0, err)
	}
	if res.Commit != f.c0 {
		t.Errorf("commit = %s, want %s", res.Commit, f.c0)
	}
	if got := readFile(t, filepath.Join(dest, "VERSION")); got != "0" {
		t.Errorf("VERSION = %q, want 0", got)
	}
}

func TestFetchShortCommitMustBeUnique(t *testing.T) {
	repo := gittest.NewRepo(t)
	a, b := repo.CommitPrefixCollision(t, "main", gitfetch.MinShortCommit)
	repo.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"ext": repo})
	url := srv.URL + "/ext.git"

	_, _, err := fetch(t, srv, url, a[:gitfetch.MinShortCommit])
	if !errors.Is(err, gitfetch.ErrAmbiguousRef) {
		t.Fatalf("Fetch(%s) error = %v, want ErrAmbiguousRef", a[:gitfetch.MinShortCommit], err)
	}
	if !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) {
		t.Errorf("error %q does not name both candidates %s and %s", err, a, b)
	}

	unique := a[:commonPrefix(a, b)+1]
	res, _, err := fetch(t, srv, url, unique)
	if err != nil {
		t.Fatalf("Fetch(%s): %v", unique, err)
	}
	if res.Commit != a {
		t.Errorf("Fetch(%s) commit = %s, want %s", unique, res.Commit, a)
	}
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func TestFetchUnknownRef(t *testing.T) {
	f := newFixture(t)
	for _, ref := range []string{
		"nope",
		"refs/heads/nope",
		"abc12",     // too short to be a commit
		"deadbeef0", // hex, but no such commit in history
		"0123456789abcdef0123456789abcdef01234567",
	} {
		t.Run(ref, func(t *testing.T) {
			_, dest, err := fetch(t, f.srv, f.url, ref)
			if !errors.Is(err, gitfetch.ErrRefNotFound) {
				t.Fatalf("Fetch(%q) error = %v, want ErrRefNotFound", ref, err)
			}
			if !strings.Contains(err.Error(), ref) {
				t.Errorf("error %q does not name the ref", err)
			}
			if _, err := os.Lstat(dest); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("dest was created for an unknown ref: %v", err)
			}
		})
	}
}

func TestFetchKeepsModesAndInsideSymlinks(t *testing.T) {
	srv, url := serveFiles(t, map[string]gittest.File{
		"bin/run.sh":  {Body: "#!/bin/sh\necho hi\n", Mode: 0o755},
		"README.md":   {Body: "readme", Mode: 0o644},
		"lib/a.txt":   {Body: "a", Mode: 0o644},
		"docs/a.txt":  {Symlink: "../lib/a.txt"},
		"shared":      {Symlink: "lib"},
		"self/parent": {Symlink: ".."},
	})
	_, dest, err := fetch(t, srv, url, "")
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	modes := []struct {
		name     string
		wantExec bool
	}{{"bin/run.sh", true}, {"README.md", false}, {"lib/a.txt", false}}
	for _, m := range modes {
		info, err := os.Stat(filepath.Join(dest, m.name))
		if err != nil {
			t.Fatal(err)
		}
		if gotExec := info.Mode().Perm()&0o100 != 0; gotExec != m.wantExec {
			t.Errorf("%s mode %v: executable = %v, want %v", m.name, info.Mode(), gotExec, m.wantExec)
		}
	}
	links := map[string]string{"docs/a.txt": "../lib/a.txt", "shared": "lib", "self/parent": ".."}
	for name, want := range links {
		got, err := os.Readlink(filepath.Join(dest, name))
		if err != nil || got != want {
			t.Errorf("Readlink(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	if got := readFile(t, filepath.Join(dest, "shared", "a.txt")); got != "a" {
		t.Errorf("shared/a.txt = %q, want a", got)
	}
}

func TestFetchRefusesUnsafeTrees(t *testing.T) {
	file := gittest.File{Body: "x", Mode: 0o644}
	tests := []struct {
		name    string
		files   map[string]gittest.File
		wantErr error
		wantMsg string
	}{
		{"symlink to /etc/passwd", map[string]gittest.File{"passwd": {Symlink: "/etc/passwd"}}, gitfetch.ErrUnsafePath, "passwd -> /etc/passwd"},
		{"symlink up and out", map[string]gittest.File{"docs/up": {Symlink: "../../outside"}}, gitfetch.ErrUnsafePath, "docs/up"},
		{"symlinked directory outside", map[string]gittest.File{"skills": {Symlink: "../other-extension/skills"}, "a": file}, gitfetch.ErrUnsafePath, "skills"},
		{"escape through another link", map[string]gittest.File{
			"a/b/l3": {Symlink: "../../x"}, "x/keep": file, "up": {Symlink: "a/b/l3/../.."},
		}, gitfetch.ErrUnsafePath, "up -> a/b/l3/../.."},
		{"symlink loop", map[string]gittest.File{"a": {Symlink: "b"}, "b": {Symlink: "a"}}, gitfetch.ErrUnsafePath, "loop"},
		{"windows drive target", map[string]gittest.File{"c": {Symlink: `C:\Windows`}}, gitfetch.ErrUnsafePath, "c ->"},
		{"symlink into .git", map[string]gittest.File{"cfg": {Symlink: ".git/config"}}, gitfetch.ErrUnsafePath, "cfg -> .git/config points into the git metadata"},
		{"symlink into a disguised .git", map[string]gittest.File{"d/cfg": {Symlink: "../.GIT./hooks"}}, gitfetch.ErrUnsafePath, "d/cfg"},
		{"dot-dot chain out", map[string]gittest.File{"a/b/c/l": {Symlink: "../../../../../../etc"}}, gitfetch.ErrUnsafePath, "a/b/c/l"},
		{"dot-dot entry", map[string]gittest.File{"../evil": file}, gitfetch.ErrUnsafePath, ".."},
		{".git directory", map[string]gittest.File{".git/hooks/post-checkout": file}, gitfetch.ErrUnsafePath, ".git"},
		{"disguised .git", map[string]gittest.File{"sub/.GIT./config": file}, gitfetch.ErrUnsafePath, ".GIT."},
		{"case collision", map[string]gittest.File{"README.md": file, "readme.md": file}, gitfetch.ErrUnsafePath, "letter case"},
		{"submodule", map[string]gittest.File{"vendor/lib": {Gitlink: strings.Repeat("ab", 20)}}, gitfetch.ErrSubmodule, "vendor/lib"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, url := serveFiles(t, tt.files)
			_, dest, err := fetch(t, srv, url, "")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Fetch error = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tt.wantMsg)
			}
			if _, err := os.Lstat(dest); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("an unsafe tree was partly written (dest: %v)", err)
			}
		})
	}
}

func TestFetchEnforcesLimits(t *testing.T) {
	ten := gittest.File{Body: "0123456789", Mode: 0o644}
	three := map[string]gittest.File{"a": ten, "b": ten, "c": ten}
	tests := []struct {
		name    string
		limits  gitfetch.Limits
		files   map[string]gittest.File
		wantMsg string // empty: within the limit
	}{
		{"files at the limit", gitfetch.Limits{Files: 3}, three, ""},
		{"too many files", gitfetch.Limits{Files: 2}, three, "more than 2 files"},
		{"file at the limit", gitfetch.Limits{FileBytes: 10}, three, ""},
		{"file too big", gitfetch.Limits{FileBytes: 9}, three, "10 bytes, over the 9-byte limit"},
		{"tree too big", gitfetch.Limits{TreeBytes: 25}, three, "more than 25 bytes"},
		{"download too big", gitfetch.Limits{WireBytes: 16 << 10},
			map[string]gittest.File{"noise": {Body: randomText(t, 256<<10)}}, "exceeds the 16384-byte limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, url := serveFiles(t, tt.files)
			_, _, err := fetch(t, srv, url, "", gitfetch.WithLimits(tt.limits))
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("Fetch within limits: %v", err)
				}
				return
			}
			if !errors.Is(err, gitfetch.ErrTooLarge) {
				t.Fatalf("Fetch error = %v, want ErrTooLarge", err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not say %q", err, tt.wantMsg)
			}
		})
	}
}

func randomText(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFetchRefusesNonHTTPSWithoutNetwork(t *testing.T) {
	f := newFixture(t)
	host := strings.TrimPrefix(f.srv.URL, "https://")
	for _, url := range []string{
		"http://" + host + "/ext.git",
		"HTTP://" + host + "/ext.git",
		"file:///tmp/ext.git",
		"ssh://git@" + host + "/ext.git",
		"git://" + host + "/ext.git",
		"git@" + host + ":ext.git",
		"/tmp/ext.git",
		"ext.git",
		"https:///no-host.git",
	} {
		t.Run(url, func(t *testing.T) {
			_, _, err := fetch(t, f.srv, url, "")
			if !errors.Is(err, gitfetch.ErrNotHTTPS) {
				t.Errorf("Fetch error = %v, want ErrNotHTTPS", err)
			}
			if _, err := gitfetch.Resolve(context.Background(), url, "", gitfetch.WithHTTPClient(f.srv.Client)); !errors.Is(err, gitfetch.ErrNotHTTPS) {
				t.Errorf("Resolve error = %v, want ErrNotHTTPS", err)
			}
		})
	}
	if n := f.srv.Requests(); n != 0 {
		t.Errorf("server saw %d requests for refused URLs", n)
	}
}

func TestFetchNamesNetworkFailures(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T) (url string, opts []gitfetch.Option)
		wantErr error
		wantMsg string
	}{
		{"closed port", func(t *testing.T) (string, []gitfetch.Option) {
			return "https://" + closedAddr(t) + "/ext.git", nil
		}, gitfetch.ErrUnreachable, "cannot reach host 127.0.0.1"},
		{"untrusted certificate", func(t *testing.T) (string, []gitfetch.Option) {
			f := newFixture(t)
			return f.url, nil // default client: system roots lack the test CA
		}, gitfetch.ErrTLS, "TLS certificate for 127.0.0.1"},
		{"private repository", func(t *testing.T) (string, []gitfetch.Option) {
			f := newFixture(t)
			f.srv.RequireAuth("ext")
			return f.url, []gitfetch.Option{gitfetch.WithHTTPClient(f.srv.Client)}
		}, gitfetch.ErrAuthRequired, "private repositories are not supported yet"},
		{"missing repository", func(t *testing.T) (string, []gitfetch.Option) {
			f := newFixture(t)
			return f.srv.URL + "/missing.git", []gitfetch.Option{gitfetch.WithHTTPClient(f.srv.Client)}
		}, gitfetch.ErrNotFound, "missing.git not found"},
		{"empty repository", func(t *testing.T) (string, []gitfetch.Option) {
			srv := gittest.Serve(t, map[string]*gittest.Repo{"empty": gittest.NewRepo(t)})
			return srv.URL + "/empty.git", []gitfetch.Option{gitfetch.WithHTTPClient(srv.Client)}
		}, gitfetch.ErrEmptyRepository, "is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, opts := tt.setup(t)
			dest := filepath.Join(t.TempDir(), "out")
			_, err := gitfetch.Fetch(context.Background(), url, "", dest, opts...)
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Fetch error = %v, want %v saying %q", err, tt.wantErr, tt.wantMsg)
			}
			if _, err := gitfetch.Resolve(context.Background(), url, "", opts...); !errors.Is(err, tt.wantErr) {
				t.Errorf("Resolve error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

func TestFetchReportsProgress(t *testing.T) {
	files := map[string]gittest.File{}
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		files["dir/"+name] = gittest.File{Body: name, Mode: 0o644}
	}
	srv, url := serveFiles(t, files)
	var events []gitfetch.Progress
	_, _, err := fetch(t, srv, url, "", gitfetch.WithProgress(func(p gitfetch.Progress) { events = append(events, p) }))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	phases := map[gitfetch.Phase][]gitfetch.Progress{}
	var order []gitfetch.Phase
	for i, e := range events {
		if i > 0 && e.Bytes < events[i-1].Bytes {
			t.Errorf("bytes went down: %+v after %+v", e, events[i-1])
		}
		if len(order) == 0 || order[len(order)-1] != e.Phase {
			order = append(order, e.Phase)
		}
		phases[e.Phase] = append(phases[e.Phase], e)
	}
	wantOrder := []gitfetch.Phase{gitfetch.PhaseConnecting, gitfetch.PhaseReceiving, gitfetch.PhaseWriting}
	if strings.Join(phaseNames(order), ",") != strings.Join(phaseNames(wantOrder), ",") {
		t.Fatalf("phases = %v, want %v", order, wantOrder)
	}
	checkCounts(t, phases[gitfetch.PhaseReceiving], 0)
	checkCounts(t, phases[gitfetch.PhaseWriting], len(files))
	if last := events[len(events)-1]; last.Bytes == 0 {
		t.Errorf("no bytes counted: %+v", last)
	}
}

func phaseNames(phases []gitfetch.Phase) []string {
	names := make([]string, len(phases))
	for i, p := range phases {
		names[i] = string(p)
	}
	return names
}

// checkCounts verifies that a phase's object count rises from zero to its
// announced total (which must equal wantTotal unless that is 0).
func checkCounts(t *testing.T, events []gitfetch.Progress, wantTotal int) {
	t.Helper()
	first, last := events[0], events[len(events)-1]
	if first.Objects != 0 || last.Objects == 0 || last.Objects != last.TotalObjects {
		t.Errorf("%s: objects went %d -> %d/%d, want 0 -> total", first.Phase, first.Objects, last.Objects, last.TotalObjects)
	}
	if wantTotal != 0 && last.TotalObjects != wantTotal {
		t.Errorf("%s: total = %d, want %d", first.Phase, last.TotalObjects, wantTotal)
	}
	for i := 1; i < len(events); i++ {
		if events[i].Objects < events[i-1].Objects {
			t.Errorf("%s: objects went down: %d after %d", first.Phase, events[i].Objects, events[i-1].Objects)
		}
	}
}

func TestFetchStopsWhenCancelled(t *testing.T) {
	srv, url := serveFiles(t, map[string]gittest.File{"noise": {Body: randomText(t, 1<<20)}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelWhileReceiving := func(p gitfetch.Progress) {
		if p.Phase == gitfetch.PhaseReceiving {
			cancel()
		}
	}
	dest := filepath.Join(t.TempDir(), "out")
	_, err := gitfetch.Fetch(ctx, url, "", dest,
		gitfetch.WithHTTPClient(srv.Client), gitfetch.WithProgress(cancelWhileReceiving))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Fetch error = %v, want context.Canceled", err)
	}
}

func TestResolveMatchesFetch(t *testing.T) {
	f := newFixture(t)
	for _, ref := range []string{"", "main", "dev", "v1", "r1", f.c0, f.c2[:8]} {
		t.Run(ref, func(t *testing.T) {
			before := f.srv.Requests()
			commit, err := gitfetch.Resolve(context.Background(), f.url, ref, gitfetch.WithHTTPClient(f.srv.Client))
			if err != nil {
				t.Fatalf("Resolve(%q): %v", ref, err)
			}
			if n := f.srv.Requests() - before; n != 1 {
				t.Errorf("Resolve made %d requests, want 1 (the ref listing)", n)
			}
			res, _, err := fetch(t, f.srv, f.url, ref)
			if err != nil {
				t.Fatalf("Fetch(%q): %v", ref, err)
			}
			if commit != res.Commit {
				t.Errorf("Resolve(%q) = %s, Fetch wrote %s", ref, commit, res.Commit)
			}
		})
	}
}

func TestResolveNeedsFullHashForHistory(t *testing.T) {
	f := newFixture(t)
	_, err := gitfetch.Resolve(context.Background(), f.url, f.c0[:8], gitfetch.WithHTTPClient(f.srv.Client))
	if !errors.Is(err, gitfetch.ErrRefNotFound) || !strings.Contains(err.Error(), "full commit hash") {
		t.Errorf("Resolve(short non-tip) error = %v, want ErrRefNotFound asking for the full hash", err)
	}
}

func TestFetchDestination(t *testing.T) {
	f := newFixture(t)
	empty := t.TempDir()
	if _, err := gitfetch.Fetch(context.Background(), f.url, "", empty, gitfetch.WithHTTPClient(f.srv.Client)); err != nil {
		t.Errorf("Fetch into an existing empty directory: %v", err)
	}
	before := f.srv.Requests()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := gitfetch.Fetch(context.Background(), f.url, "", full, gitfetch.WithHTTPClient(f.srv.Client))
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("Fetch into a non-empty directory error = %v, want 'not empty'", err)
	}
	if n := f.srv.Requests() - before; n != 0 {
		t.Errorf("non-empty destination still made %d requests", n)
	}
}

func TestCredentialsInURLRefused(t *testing.T) {
	_, err := gitfetch.Resolve(context.Background(), "https://user:secret@example.com/x.git", "")
	if !errors.Is(err, gitfetch.ErrCredentialsInURL) || strings.Contains(err.Error(), "secret") {
		t.Fatalf("err = %v; want ErrCredentialsInURL without echoing the password", err)
	}
}
