package gitfetch

import (
	"maps"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/memory"
)

// MinShortCommit is the shortest abbreviated commit hash accepted, as git's
// default core.abbrev.
const MinShortCommit = 7

// fullCommitLength is the length of a SHA-1 commit hash in hex.
const fullCommitLength = 40

// advertised is the remote's ref listing (ls-remote).
type advertised struct {
	// head is HEAD as listed: symbolic (the default branch), a hash
	// (detached), or nil when the remote does not list it.
	head *plumbing.Reference
	refs map[plumbing.ReferenceName]plumbing.Hash
	// peeled holds the commit an annotated tag points to, by tag name.
	peeled map[plumbing.ReferenceName]plumbing.Hash
}

// target is what a requested ref resolved to before downloading.
type target struct {
	// src is the remote ref to fetch; empty to fetch by commit hash.
	src plumbing.ReferenceName
	// commit is the commit expected, zero when only prefix is known.
	commit plumbing.Hash
	// prefix is an abbreviated commit hash that no tip matches.
	prefix string
	// byCommit reports that a commit hash was requested, so the fetched
	// commit must equal commit even if src moved in the meantime.
	byCommit bool
	result   Result
}

func (c *call) resolve(ref string) (target, error) {
	adv, err := c.listRefs()
	if err != nil {
		return target{}, err
	}
	return resolveTarget(adv, ref, c.url)
}

func (c *call) listRefs() (advertised, error) {
	remote := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{c.url}})
	refs, err := remote.ListContext(c.ctx, &git.ListOptions{PeelingOption: git.AppendPeeled})
	if err != nil {
		return advertised{}, c.fail(err)
	}
	return newAdvertised(refs), nil
}

func newAdvertised(refs []*plumbing.Reference) advertised {
	adv := advertised{refs: map[plumbing.ReferenceName]plumbing.Hash{}, peeled: map[plumbing.ReferenceName]plumbing.Hash{}}
	for _, ref := range refs {
		name := ref.Name()
		switch {
		case name == plumbing.HEAD:
			adv.head = ref
		case ref.Type() != plumbing.HashReference:
			continue
		case strings.HasSuffix(name.String(), "^{}"):
			adv.peeled[plumbing.ReferenceName(strings.TrimSuffix(name.String(), "^{}"))] = ref.Hash()
		default:
			adv.refs[name] = ref.Hash()
		}
	}
	return adv
}

// commitOf returns the commit a listed ref points to, peeling tags.
func (a advertised) commitOf(name plumbing.ReferenceName) plumbing.Hash {
	if h, ok := a.peeled[name]; ok {
		return h
	}
	return a.refs[name]
}

// resolveTarget decides what ref means in the listing, in the order git
// clone --branch uses: the default branch for "" or HEAD, then a full ref
// name, a branch, a tag, and finally a commit hash.
func resolveTarget(adv advertised, ref, rawURL string) (target, error) {
	if ref == "" || ref == plumbing.HEAD.String() {
		return adv.defaultBranch(rawURL)
	}
	if name, ok := adv.lookupName(ref); ok {
		return target{src: name, commit: adv.commitOf(name), result: Result{Ref: name.String()}}, nil
	}
	if isHex(ref) && len(ref) >= MinShortCommit && len(ref) <= fullCommitLength {
		return adv.commitTarget(strings.ToLower(ref), rawURL)
	}
	return target{}, newError(ErrRefNotFound, nil, "ref %q not found in %s", ref, rawURL)
}

func (a advertised) defaultBranch(rawURL string) (target, error) {
	noHead := newError(ErrRefNotFound, nil, "%s has no default branch (HEAD); name a branch, tag or commit", rawURL)
	switch {
	case a.head == nil:
		return target{}, noHead
	case a.head.Type() == plumbing.SymbolicReference:
		name := a.head.Target()
		hash, ok := a.refs[name]
		if !ok {
			return target{}, noHead
		}
		return target{src: name, commit: hash, result: Result{Ref: name.String(), DefaultBranch: true}}, nil
	default:
		hash := a.head.Hash()
		return target{src: plumbing.HEAD, commit: hash, result: Result{Ref: hash.String(), DefaultBranch: true}}, nil
	}
}

func (a advertised) lookupName(ref string) (plumbing.ReferenceName, bool) {
	candidates := []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)}
	if strings.HasPrefix(ref, "refs/") {
		candidates = []plumbing.ReferenceName{plumbing.ReferenceName(ref)}
	}
	for _, name := range candidates {
		if _, ok := a.refs[name]; ok {
			return name, true
		}
	}
	return "", false
}

// commitTarget matches a (possibly abbreviated) lower-case commit hash
// against the advertised tips, so a pinned commit that is still a tip is
// fetched shallowly like a branch.
func (a advertised) commitTarget(hex, rawURL string) (target, error) {
	tips := a.tipsMatching(hex)
	if len(tips) > 1 {
		return target{}, ambiguousError(hex, rawURL, slices.Collect(maps.Keys(tips)))
	}
	for commit, name := range tips {
		return target{src: name, commit: commit, byCommit: true, result: Result{Ref: commit.String()}}, nil
	}
	if len(hex) == fullCommitLength {
		return target{commit: plumbing.NewHash(hex), byCommit: true, result: Result{Ref: hex}}, nil
	}
	return target{prefix: hex, byCommit: true}, nil
}

// tipsMatching maps each distinct tip commit starting with hex to one ref
// naming it, preferring branches (refs/heads sorts before refs/tags).
func (a advertised) tipsMatching(hex string) map[plumbing.Hash]plumbing.ReferenceName {
	names := slices.Sorted(maps.Keys(a.refs))
	if a.head != nil && a.head.Type() == plumbing.HashReference {
		names = append(names, plumbing.HEAD)
	}
	tips := map[plumbing.Hash]plumbing.ReferenceName{}
	for _, name := range names {
		commit := a.commitOf(name)
		if name == plumbing.HEAD {
			commit = a.head.Hash()
		}
		if _, seen := tips[commit]; !seen && strings.HasPrefix(commit.String(), hex) {
			tips[commit] = name
		}
	}
	return tips
}

func ambiguousError(hex, rawURL string, matches []plumbing.Hash) error {
	names := make([]string, len(matches))
	for i, h := range matches {
		names[i] = h.String()
	}
	slices.Sort(names)
	return newError(ErrAmbiguousRef, nil, "short commit %q is ambiguous in %s: it matches %s; use more digits",
		hex, rawURL, strings.Join(names, ", "))
}

func isHex(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return s != ""
}
