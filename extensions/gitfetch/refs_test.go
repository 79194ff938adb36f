package gitfetch

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestResolveTarget(t *testing.T) {
	const (
		main   = "1111111111111111111111111111111111111111"
		tagObj = "2222222222222222222222222222222222222222"
		tagged = "3333333333333333333333333333333333333333"
		twinA  = "abcdef0111111111111111111111111111111111"
		twinB  = "abcdef0222222222222222222222222222222222"
	)
	listing := func(head *plumbing.Reference) advertised {
		refs := []*plumbing.Reference{
			plumbing.NewHashReference("refs/heads/main", plumbing.NewHash(main)),
			plumbing.NewHashReference("refs/heads/same", plumbing.NewHash(tagged)),
			plumbing.NewHashReference("refs/tags/same", plumbing.NewHash(main)),
			plumbing.NewHashReference("refs/tags/r1", plumbing.NewHash(tagObj)),
			plumbing.NewHashReference("refs/tags/r1^{}", plumbing.NewHash(tagged)),
			plumbing.NewHashReference("refs/heads/twin-a", plumbing.NewHash(twinA)),
			plumbing.NewHashReference("refs/heads/twin-b", plumbing.NewHash(twinB)),
		}
		if head != nil {
			refs = append(refs, head)
		}
		return newAdvertised(refs)
	}
	symbolic := plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/main")
	tests := []struct {
		name    string
		head    *plumbing.Reference
		ref     string
		want    target
		wantErr error
	}{
		{"default branch", symbolic, "", target{src: "refs/heads/main", commit: plumbing.NewHash(main),
			result: Result{Ref: "refs/heads/main", DefaultBranch: true}}, nil},
		{"detached HEAD", plumbing.NewHashReference(plumbing.HEAD, plumbing.NewHash(tagged)), "",
			target{src: plumbing.HEAD, commit: plumbing.NewHash(tagged), result: Result{Ref: tagged, DefaultBranch: true}}, nil},
		{"no HEAD", nil, "", target{}, ErrRefNotFound},
		{"unborn HEAD", plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/gone"), "", target{}, ErrRefNotFound},
		{"branch wins over tag", symbolic, "same", target{src: "refs/heads/same", commit: plumbing.NewHash(tagged),
			result: Result{Ref: "refs/heads/same"}}, nil},
		{"full tag name", symbolic, "refs/tags/same", target{src: "refs/tags/same", commit: plumbing.NewHash(main),
			result: Result{Ref: "refs/tags/same"}}, nil},
		{"annotated tag peeled", symbolic, "r1", target{src: "refs/tags/r1", commit: plumbing.NewHash(tagged),
			result: Result{Ref: "refs/tags/r1"}}, nil},
		{"short commit of a tip prefers the branch", symbolic, tagged[:7], target{src: "refs/heads/same",
			commit: plumbing.NewHash(tagged), byCommit: true, result: Result{Ref: tagged}}, nil},
		{"tag object hash is not a commit", symbolic, tagObj[:8], target{prefix: tagObj[:8], byCommit: true}, nil},
		{"full commit not at a tip", symbolic, strings.Repeat("4", 40), target{commit: plumbing.NewHash(strings.Repeat("4", 40)),
			byCommit: true, result: Result{Ref: strings.Repeat("4", 40)}}, nil},
		{"short commit not at a tip", symbolic, "4444444", target{prefix: "4444444", byCommit: true}, nil},
		{"ambiguous tips", symbolic, "abcdef0", target{}, ErrAmbiguousRef},
		{"too short", symbolic, "abcdef", target{}, ErrRefNotFound},
		{"too long", symbolic, strings.Repeat("4", 41), target{}, ErrRefNotFound},
		{"unknown name", symbolic, "release", target{}, ErrRefNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveTarget(listing(tt.head), tt.ref, "https://example.invalid/x.git")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("resolveTarget(%q) error = %v, want %v", tt.ref, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("resolveTarget(%q) = %+v, want %+v", tt.ref, got, tt.want)
			}
		})
	}
}
