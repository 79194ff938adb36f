// Package gittest builds bare git repositories object by object and serves
// them over loopback HTTPS, so tests of code that fetches extensions need no
// network and can produce exact trees (modes, symlinks, submodule entries)
// that a normal checkout could not. It is imported only from _test.go files.
package gittest

import (
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// File is one tree entry of a commit built by Repo.Commit.
type File struct {
	Body string
	// Mode selects a regular (0644) or executable (0755: any x bit) file.
	Mode os.FileMode
	// Symlink, if set, makes the entry a symbolic link with this target.
	Symlink string
	// Gitlink, if set, makes the entry a submodule pointing at this commit.
	Gitlink string
}

// Repo is a bare repository on disk whose objects are written directly with
// go-git, bypassing any worktree or index.
type Repo struct {
	// Dir is the bare repository directory.
	Dir string

	repo    *git.Repository
	commits int
}

// commitEpoch makes commit hashes reproducible from run to run.
var commitEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// NewRepo creates an empty bare repository in a fresh temporary directory.
func NewRepo(t testing.TB) *Repo {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, true)
	if err != nil {
		t.Fatalf("init bare repository: %v", err)
	}
	return &Repo{Dir: dir, repo: repo}
}

// Commit replaces the whole tree of branch with files (paths use "/"),
// parented on the branch's current tip if it has one, and returns the new
// commit's hash.
func (r *Repo) Commit(t testing.TB, branch, msg string, files map[string]File) string {
	t.Helper()
	tree := r.writeTree(t, files)
	var parents []plumbing.Hash
	if tip, err := r.repo.Storer.Reference(plumbing.NewBranchReferenceName(branch)); err == nil {
		parents = append(parents, tip.Hash())
	}
	commit := r.writeObject(t, r.newCommit(tree, msg, parents...))
	r.setRef(t, plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), commit))
	return commit.String()
}

// Tag points refs/tags/name at commit, through an annotated tag object if
// annotated is set.
func (r *Repo) Tag(t testing.TB, name, commit string, annotated bool) {
	t.Helper()
	target := plumbing.NewHash(commit)
	if annotated {
		tag := &object.Tag{
			Name:       name,
			Tagger:     r.signature(),
			Message:    "release " + name + "\n",
			TargetType: plumbing.CommitObject,
			Target:     target,
		}
		target = r.writeObject(t, tag)
	}
	r.setRef(t, plumbing.NewHashReference(plumbing.NewTagReferenceName(name), target))
}

// SetHEAD makes branch the repository's default branch.
func (r *Repo) SetHEAD(t testing.TB, branch string) {
	t.Helper()
	r.setRef(t, plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(branch)))
}

// CommitPrefixCollision makes two commits whose hashes share their first
// digits hex digits and a merge of both as the new tip of branch, so the two
// are reachable but neither is advertised. It returns the two commit hashes.
// Finding the pair is a birthday search over in-memory hashes: about
// 16^(digits/2) candidates, so keep digits small (7 takes ~20k).
func (r *Repo) CommitPrefixCollision(t testing.TB, branch string, digits int) (first, second string) {
	t.Helper()
	tree := r.writeTree(t, map[string]File{"README.md": {Body: "collision\n", Mode: 0o644}})
	a, b := findPrefixCollision(t, r, tree, digits)
	r.writeObject(t, a)
	r.writeObject(t, b)
	merge := r.writeObject(t, r.newCommit(tree, "merge", a.Hash, b.Hash))
	r.setRef(t, plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), merge))
	return a.Hash.String(), b.Hash.String()
}

// maxCollisionCandidates bounds the birthday search far beyond what a
// 7-digit collision needs, so a mistake fails instead of spinning.
const maxCollisionCandidates = 10_000_000

func findPrefixCollision(t testing.TB, r *Repo, tree plumbing.Hash, digits int) (a, b *object.Commit) {
	t.Helper()
	seen := make(map[string]*object.Commit)
	for i := range maxCollisionCandidates {
		c := r.newCommit(tree, fmt.Sprintf("candidate %d", i))
		obj := &plumbing.MemoryObject{}
		if err := c.Encode(obj); err != nil {
			t.Fatalf("encode commit: %v", err)
		}
		c.Hash = obj.Hash()
		prefix := c.Hash.String()[:digits]
		if prev, ok := seen[prefix]; ok {
			return prev, c
		}
		seen[prefix] = c
	}
	t.Fatalf("no %d-digit prefix collision among %d commits", digits, maxCollisionCandidates)
	return nil, nil
}

func (r *Repo) newCommit(tree plumbing.Hash, msg string, parents ...plumbing.Hash) *object.Commit {
	sig := r.signature()
	return &object.Commit{
		Author:       sig,
		Committer:    sig,
		Message:      msg + "\n",
		TreeHash:     tree,
		ParentHashes: parents,
	}
}

// signature advances the clock per call so successive commits differ even
// with identical trees and messages.
func (r *Repo) signature() object.Signature {
	r.commits++
	return object.Signature{
		Name:  "gittest",
		Email: "gittest@example.invalid",
		When:  commitEpoch.Add(time.Duration(r.commits) * time.Minute),
	}
}

type encoder interface {
	Encode(plumbing.EncodedObject) error
}

func (r *Repo) writeObject(t testing.TB, o encoder) plumbing.Hash {
	t.Helper()
	obj := r.repo.Storer.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		t.Fatalf("encode object: %v", err)
	}
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatalf("store object: %v", err)
	}
	return h
}

func (r *Repo) writeBlob(t testing.TB, body string) plumbing.Hash {
	t.Helper()
	obj := r.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		t.Fatalf("blob writer: %v", err)
	}
	if _, err := w.Write([]byte(body)); err != nil {
		t.Fatalf("write blob: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("close blob: %v", err)
	}
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatalf("store blob: %v", err)
	}
	return h
}

func (r *Repo) setRef(t testing.TB, ref *plumbing.Reference) {
	t.Helper()
	if err := r.repo.Storer.SetReference(ref); err != nil {
		t.Fatalf("set %s: %v", ref.Name(), err)
	}
}

// dirNode is one directory of the tree being built.
type dirNode struct {
	files map[string]File
	dirs  map[string]*dirNode
}

func newDirNode() *dirNode {
	return &dirNode{files: map[string]File{}, dirs: map[string]*dirNode{}}
}

func (r *Repo) writeTree(t testing.TB, files map[string]File) plumbing.Hash {
	t.Helper()
	root := newDirNode()
	for name, f := range files {
		dir, base := path.Split(name)
		node := root
		for _, part := range strings.Split(strings.Trim(dir, "/"), "/") {
			if part == "" {
				continue
			}
			if node.dirs[part] == nil {
				node.dirs[part] = newDirNode()
			}
			node = node.dirs[part]
		}
		node.files[base] = f
	}
	return r.writeDir(t, root)
}

func (r *Repo) writeDir(t testing.TB, node *dirNode) plumbing.Hash {
	t.Helper()
	tree := &object.Tree{}
	for name, sub := range node.dirs {
		tree.Entries = append(tree.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.writeDir(t, sub)})
	}
	for name, f := range node.files {
		tree.Entries = append(tree.Entries, r.fileEntry(t, name, f))
	}
	sort.Sort(object.TreeEntrySorter(tree.Entries))
	return r.writeObject(t, tree)
}

func (r *Repo) fileEntry(t testing.TB, name string, f File) object.TreeEntry {
	t.Helper()
	switch {
	case f.Gitlink != "":
		return object.TreeEntry{Name: name, Mode: filemode.Submodule, Hash: plumbing.NewHash(f.Gitlink)}
	case f.Symlink != "":
		return object.TreeEntry{Name: name, Mode: filemode.Symlink, Hash: r.writeBlob(t, f.Symlink)}
	case f.Mode&0o111 != 0:
		return object.TreeEntry{Name: name, Mode: filemode.Executable, Hash: r.writeBlob(t, f.Body)}
	default:
		return object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: r.writeBlob(t, f.Body)}
	}
}

// CommitZeros commits a tree holding one file of size zero bytes at name
// on branch. The blob is written as a loose object streaming through
// zlib, never held in memory: a few megabytes on disk for gigabytes of
// content (a decompression bomb).
func (r *Repo) CommitZeros(t testing.TB, branch, name string, size int64) string {
	t.Helper()
	blob, err := writeZerosObject(r.Dir, size)
	if err != nil {
		t.Fatalf("write a blob of %d zeros: %v", size, err)
	}
	tree := r.writeObject(t, &object.Tree{Entries: []object.TreeEntry{{Name: name, Mode: filemode.Regular, Hash: blob}}})
	commit := r.writeObject(t, r.newCommit(tree, "zeros"))
	r.setRef(t, plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), commit))
	return commit.String()
}

func writeZerosObject(dir string, size int64) (plumbing.Hash, error) {
	tmp, err := os.CreateTemp(filepath.Join(dir, "objects"), "zeros")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	hasher := plumbing.NewHasher(plumbing.BlobObject, size)
	zw, _ := zlib.NewWriterLevel(tmp, zlib.BestSpeed)
	fmt.Fprintf(zw, "blob %d\x00", size)
	out := io.MultiWriter(zw, hasher)
	chunk := make([]byte, 1<<20)
	for left := size; left > 0; left -= int64(len(chunk)) {
		if _, err := out.Write(chunk[:min(left, int64(len(chunk)))]); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	if err := zw.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	h := hasher.Sum()
	hex := h.String()
	final := filepath.Join(dir, "objects", hex[:2], hex[2:])
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return plumbing.ZeroHash, err
	}
	return h, os.Rename(tmp.Name(), final)
}
