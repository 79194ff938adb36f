package extensions

import (
	"context"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// Running unconfined is chosen for what the user trusts of an extension:
// an update that keeps its hooks keeps the choice, one that changes them
// (and so asks for trust again) confines it again, and a disabled
// extension cannot be chosen.
func TestUnconfinedHoldsForWhatWasTrusted(t *testing.T) {
	ctx := context.Background()
	r := repo(t, fixtureFiles(t))
	e := newTestEnv(t, map[string]*gittest.Repo{"fixture": r})
	e.install("fixture", "")
	if _, err := e.m.SetUnconfined(ctx, "fixture", true); err == nil || !strings.Contains(err.Error(), "not enabled") {
		t.Fatalf("SetUnconfined on a disabled extension = %v, want a refusal", err)
	}
	e.enable("fixture")
	info, err := e.m.SetUnconfined(ctx, "fixture", true)
	if err != nil || !info.Unconfined || !activeUnconfined(t, e.m) {
		t.Fatalf("after SetUnconfined(on): info %v, active %v, err %v", info.Unconfined, activeUnconfined(t, e.m), err)
	}

	files := fixtureFiles(t)
	files["skills/second/SKILL.md"] = gittest.File{Body: "---\nname: second\ndescription: two\n---\n"}
	r.Commit(t, "main", "add a skill", files)
	if res, err := e.m.Update(ctx, "fixture", "", nil); err != nil || !res.Info.Unconfined {
		t.Fatalf("an update with the same hooks: unconfined %v, %v; want it kept", res.Info.Unconfined, err)
	}

	files["hooks/hooks.json"] = gittest.File{Body: strings.Replace(files["hooks/hooks.json"].Body, `"timeout": 5`, `"timeout": 9`, 1)}
	r.Commit(t, "main", "change a hook", files)
	if _, err := e.m.Update(ctx, "fixture", "", nil); err != nil {
		t.Fatal(err)
	}
	e.enable("fixture") // trusts the new list
	if info, _ := e.m.Show(ctx, "fixture"); info.Unconfined || activeUnconfined(t, e.m) {
		t.Fatal("the hooks changed and were trusted again, but the extension still runs unconfined")
	}

	if _, err := e.m.SetUnconfined(ctx, "fixture", true); err != nil {
		t.Fatal(err)
	}
	if err := e.m.Uninstall(ctx, "fixture"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := e.m.db.Setting(ctx, unconfinedSetting("fixture")); ok {
		t.Error("uninstall left the unconfined choice behind")
	}
}

func activeUnconfined(t *testing.T, m *Manager) bool {
	t.Helper()
	for _, x := range m.Active(context.Background()) {
		if x.ID == "fixture" {
			return x.Unconfined
		}
	}
	t.Fatal("fixture is not active")
	return false
}
