package storage

import (
	"context"
	"testing"
)

func TestPermissionRules(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	p, err := db.OpenProject(ctx, "/p")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"Bash(npm test:*)", "Edit(src/**)", "Bash(npm test:*)"} {
		if err := db.AddPermissionRule(ctx, p.ID, "allow", r); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AddPermissionRule(ctx, p.ID, "maybe", "Bash"); err == nil {
		t.Fatal("an unknown behaviour must be refused")
	}
	rules, err := db.PermissionRules(ctx, p.ID)
	if err != nil || len(rules) != 2 || rules[0].Rule != "Bash(npm test:*)" || rules[1].Rule != "Edit(src/**)" {
		t.Fatalf("rules %+v, %v", rules, err)
	}
	if _, _, err := db.DeletePermissionRule(ctx, rules[0].ID); err != nil {
		t.Fatal(err)
	}
	if rules, _ = db.PermissionRules(ctx, p.ID); len(rules) != 1 || rules[0].Rule != "Edit(src/**)" {
		t.Fatalf("after delete: %+v", rules)
	}
}
