package storage

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestProjectTrustRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ProjectTrust(ctx, "/p"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("untrusted: %v", err)
	}
	if err := db.TrustProject(ctx, ProjectTrust{Path: "/p", Hash: "h1", Snapshot: "{}"}); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkProjectForReview(ctx, "/p", "changed"); err != nil {
		t.Fatal(err)
	}
	got, err := db.ProjectTrust(ctx, "/p")
	if err != nil || got.Hash != "h1" || got.ReviewReason != "changed" || got.TrustedAt.IsZero() {
		t.Fatalf("%+v %v", got, err)
	}
	if err := db.TrustProject(ctx, ProjectTrust{Path: "/p", Hash: "h2", Snapshot: "{}"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.ProjectTrust(ctx, "/p"); got.Hash != "h2" || got.ReviewReason != "" {
		t.Fatalf("re-trust: %+v", got)
	}
	if err := db.UntrustProject(ctx, "/p"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ProjectTrust(ctx, "/p"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after untrust: %v", err)
	}
}
