package gitfetch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// fetchedRef is where the single fetched ref is stored locally.
const fetchedRef = plumbing.ReferenceName("refs/gitfetch/fetched")

// maxTagChain bounds how many annotated tags are peeled to reach a commit.
const maxTagChain = 10

// historyRefSpecs fetch every branch and tag with full history: the
// fallback for a commit that is not a tip, which may live on any of them.
var historyRefSpecs = []config.RefSpec{
	"+refs/heads/*:refs/remotes/origin/*",
	"+refs/tags/*:refs/tags/*",
}

// snapshot is a fetched commit and the in-memory objects it came with.
type snapshot struct {
	objects storer.EncodedObjectStorer
	commit  *object.Commit
	result  Result
}

// fetch downloads the objects of t's commit: one checkout strategy per kind
// of target.
func (c *call) fetch(t target) (snapshot, error) {
	switch {
	case t.src != "":
		snap, err := c.fetchTip(t)
		if err == nil && t.byCommit && snap.commit.Hash != t.commit {
			// The tip moved after it was listed; the commit may still be
			// in its history.
			return c.fetchCommit(t)
		}
		return snap, err
	case !t.commit.IsZero():
		return c.fetchCommit(t)
	default:
		return c.fetchPrefix(t)
	}
}

// fetchTip makes a shallow, single-ref, tag-less fetch of a listed ref.
func (c *call) fetchTip(t target) (snapshot, error) {
	spec := config.RefSpec(fmt.Sprintf("+%s:%s", t.src, fetchedRef))
	objects, err := c.download([]config.RefSpec{spec}, 1)
	if err != nil {
		return snapshot{}, c.fail(err)
	}
	ref, err := objects.Reference(fetchedRef)
	if err != nil {
		return snapshot{}, fmt.Errorf("fetch %s from %s: %w", t.src, c.url, err)
	}
	commit, err := peelToCommit(objects, ref.Hash(), t.src.String())
	if err != nil {
		return snapshot{}, err
	}
	return snapshot{objects: objects, commit: commit, result: t.result}, nil
}

// fetchCommit fetches one commit by hash: shallowly if the server accepts
// unadvertised wants (uploadpack.allowReachableSHA1InWant, as GitHub and
// GitLab do), otherwise by downloading history and looking it up.
func (c *call) fetchCommit(t target) (snapshot, error) {
	spec := config.RefSpec(fmt.Sprintf("%s:%s", t.commit, fetchedRef))
	objects, err := c.download([]config.RefSpec{spec}, 1)
	if err != nil {
		if !c.retryable(err) {
			return snapshot{}, c.fail(err)
		}
		if objects, err = c.download(historyRefSpecs, 0); err != nil {
			return snapshot{}, c.fail(err)
		}
	}
	snap, err := c.commitIn(objects, t.commit)
	snap.result = t.result
	return snap, err
}

// fetchPrefix downloads history to find the one commit whose hash starts
// with t.prefix.
func (c *call) fetchPrefix(t target) (snapshot, error) {
	objects, err := c.download(historyRefSpecs, 0)
	if err != nil {
		return snapshot{}, c.fail(err)
	}
	matches, err := commitsWithPrefix(objects, t.prefix)
	if err != nil {
		return snapshot{}, fmt.Errorf("fetch %s: %w", c.url, err)
	}
	switch len(matches) {
	case 0:
		return snapshot{}, newError(ErrRefNotFound, nil, "commit %q not found in %s", t.prefix, c.url)
	case 1:
		return c.commitIn(objects, matches[0])
	default:
		return snapshot{}, ambiguousError(t.prefix, c.url, matches)
	}
}

func (c *call) commitIn(objects *memory.Storage, hash plumbing.Hash) (snapshot, error) {
	commit, err := object.GetCommit(objects, hash)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return snapshot{}, newError(ErrRefNotFound, nil, "commit %s not found in %s", hash, c.url)
	}
	if err != nil {
		return snapshot{}, fmt.Errorf("read commit %s from %s: %w", hash, c.url, err)
	}
	return snapshot{objects: objects, commit: commit, result: Result{Ref: hash.String()}}, nil
}

// retryable reports whether a failed shallow fetch by hash may be retried
// by downloading history: the server refused the want, rather than the
// network, the credentials, the limits or the caller stopping it.
func (c *call) retryable(err error) bool {
	if c.ctx.Err() != nil || c.overLimit.Load() || errors.Is(err, ErrTooLarge) {
		return false
	}
	for _, cause := range causes(err) {
		if classifyOne(cause, c.url, c.host) != nil {
			return false
		}
	}
	return true
}

// download fetches specs into fresh memory storage with no tags (a tag
// is fetched only when it is the ref asked for) and no submodules.
func (c *call) download(specs []config.RefSpec, depth int) (*memory.Storage, error) {
	objects := &countingStorage{Storage: memory.NewStorage(), progress: c.progress, limits: c.limits}
	remote := git.NewRemote(objects, &config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{c.url}})
	err := remote.FetchContext(c.ctx, &git.FetchOptions{
		RefSpecs: specs,
		Depth:    depth,
		Tags:     git.NoTags,
		Progress: c.sideband(),
	})
	c.progress.flush()
	if objects.refused != nil && c.ctx.Err() == nil && !c.overLimit.Load() {
		return nil, objects.refused
	}
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil, err
	}
	return objects.Storage, nil
}

// sideband returns where go-git writes the server's progress text, or nil
// so that go-git asks the server not to send any.
func (c *call) sideband() sideband.Progress {
	if !c.progress.enabled() {
		return nil
	}
	return &serverProgress{reporter: c.progress}
}

// countingStorage reports each object go-git decodes from the pack: memory
// storage receives them one at a time, as they arrive, through
// SetEncodedObject.
type countingStorage struct {
	*memory.Storage
	progress *reporter
	limits   Limits
	// refused is the size limit the pack broke (see packcheck.go).
	refused error
}

func (s *countingStorage) SetEncodedObject(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	h, err := s.Storage.SetEncodedObject(obj)
	if err == nil {
		s.progress.update(func(p *Progress) { p.Objects++ })
	}
	return h, err
}

// peelToCommit follows annotated tags from hash to the commit they name.
func peelToCommit(objects storer.EncodedObjectStorer, hash plumbing.Hash, name string) (*object.Commit, error) {
	for range maxTagChain {
		obj, err := objects.EncodedObject(plumbing.AnyObject, hash)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return object.DecodeCommit(objects, obj)
		case plumbing.TagObject:
			tag, err := object.DecodeTag(objects, obj)
			if err != nil {
				return nil, fmt.Errorf("read tag %s: %w", name, err)
			}
			hash = tag.Target
		default:
			return nil, newError(ErrRefNotFound, nil, "%s names a %s, not a commit", name, obj.Type())
		}
	}
	return nil, newError(ErrRefNotFound, nil, "%s: more than %d nested tags", name, maxTagChain)
}

func commitsWithPrefix(objects *memory.Storage, prefix string) ([]plumbing.Hash, error) {
	iter, err := objects.IterEncodedObjects(plumbing.CommitObject)
	if err != nil {
		return nil, err
	}
	var matches []plumbing.Hash
	err = iter.ForEach(func(obj plumbing.EncodedObject) error {
		if strings.HasPrefix(obj.Hash().String(), prefix) {
			matches = append(matches, obj.Hash())
		}
		return nil
	})
	return matches, err
}
