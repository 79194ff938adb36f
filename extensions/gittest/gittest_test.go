package gittest

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git binary needed to inspect repositories: %v", err)
	}
	cmd := exec.CommandContext(context.Background(), "git", append([]string{"--git-dir", dir}, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestCommitWritesExactEntries(t *testing.T) {
	repo := NewRepo(t)
	sub := strings.Repeat("ab", 20)
	commit := repo.Commit(t, "main", "entries", map[string]File{
		"bin/run":    {Body: "#!/bin/sh\n", Mode: 0o755},
		"README.md":  {Body: "hi\n", Mode: 0o644},
		"link":       {Symlink: "README.md"},
		"vendor/lib": {Gitlink: sub},
	})
	got := runGit(t, repo.Dir, "ls-tree", "-r", "--format=%(objectmode) %(objecttype) %(path)", commit)
	want := strings.Join([]string{
		"100644 blob README.md",
		"100755 blob bin/run",
		"120000 blob link",
		"160000 commit vendor/lib",
	}, "\n")
	if got != want {
		t.Errorf("ls-tree:\n%s\nwant:\n%s", got, want)
	}
	if target := runGit(t, repo.Dir, "cat-file", "-p", commit+":link"); target != "README.md" {
		t.Errorf("symlink target = %q", target)
	}
}

func TestCommitHistoryTagsAndHEAD(t *testing.T) {
	repo := NewRepo(t)
	first := repo.Commit(t, "main", "first", map[string]File{"a": {Body: "1"}})
	second := repo.Commit(t, "main", "second", map[string]File{"a": {Body: "2"}})
	repo.Tag(t, "light", first, false)
	repo.Tag(t, "heavy", first, true)
	repo.Commit(t, "dev", "dev", map[string]File{"b": {Body: "3"}})
	repo.SetHEAD(t, "dev")

	if parent := runGit(t, repo.Dir, "rev-parse", second+"^"); parent != first {
		t.Errorf("parent of second = %s, want %s", parent, first)
	}
	if typ := runGit(t, repo.Dir, "cat-file", "-t", "refs/tags/heavy"); typ != "tag" {
		t.Errorf("annotated tag object type = %s", typ)
	}
	if typ := runGit(t, repo.Dir, "cat-file", "-t", "refs/tags/light"); typ != "commit" {
		t.Errorf("lightweight tag points to a %s", typ)
	}
	if peeled := runGit(t, repo.Dir, "rev-parse", "heavy^{commit}"); peeled != first {
		t.Errorf("heavy peels to %s, want %s", peeled, first)
	}
	if head := runGit(t, repo.Dir, "symbolic-ref", "HEAD"); head != "refs/heads/dev" {
		t.Errorf("HEAD = %s", head)
	}
}

func TestCommitPrefixCollision(t *testing.T) {
	repo := NewRepo(t)
	a, b := repo.CommitPrefixCollision(t, "main", 5)
	if a == b || a[:5] != b[:5] {
		t.Fatalf("commits %s and %s do not share a 5-digit prefix", a, b)
	}
	parents := runGit(t, repo.Dir, "log", "-1", "--format=%P", "main")
	if parents != a+" "+b {
		t.Errorf("main's parents = %q, want %s %s", parents, a, b)
	}
}

func TestServe(t *testing.T) {
	repo := NewRepo(t)
	repo.Commit(t, "main", "c", map[string]File{"a": {Body: "1"}})
	repo.SetHEAD(t, "main")
	srv := Serve(t, map[string]*Repo{"ext": repo, "private": repo})
	srv.RequireAuth("private")
	tests := []struct {
		path       string
		wantStatus int
	}{
		{"/ext.git/info/refs?service=git-upload-pack", http.StatusOK},
		{"/private.git/info/refs?service=git-upload-pack", http.StatusUnauthorized},
		{"/missing.git/info/refs?service=git-upload-pack", http.StatusNotFound},
		{"/no-repo-here", http.StatusNotFound},
	}
	for _, tt := range tests {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", tt.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.wantStatus {
			t.Errorf("GET %s = %d, want %d\n%s", tt.path, resp.StatusCode, tt.wantStatus, body)
		}
	}
	if n := srv.Requests(); n != len(tests) {
		t.Errorf("Requests() = %d, want %d", n, len(tests))
	}
}
