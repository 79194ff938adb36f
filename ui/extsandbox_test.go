package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

// An enabled card says its hooks and servers are confined; "Run
// unconfined…" asks first (the dangerous choice marked as such, Cancel
// changing nothing), then the card warns until "Confine again".
func TestCardRunsUnconfinedOnlyAfterAsking(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	p := newPaneEnv(t, nil, nil)
	ctx := t.Context()
	p.install(p.server.URL + "/demo.git")
	p.waitText("Review and enable")
	if strings.Contains(p.text(), "Confined: its hooks") {
		t.Fatal("a disabled card speaks of its sandbox")
	}
	p.tap("Review and enable")
	p.waitText("Enable Demo?")
	p.tap("Enable")
	p.waitText("Confined: its hooks and servers cannot read your credentials")

	p.tap("Run unconfined…")
	p.waitText("Run Demo unconfined?")
	if b := findButton(topOverlay(p.win), "Run unconfined"); b == nil || b.Importance != widget.DangerImportance {
		t.Error("the confirmation is not marked as dangerous")
	}
	p.tap("Cancel")
	p.loop.runQueued()
	if info, _ := p.exts.Show(ctx, "demo"); info.Unconfined {
		t.Fatal("Cancel lifted the sandbox")
	}

	p.tap("Run unconfined…")
	p.waitText("Run Demo unconfined?")
	p.tap("Run unconfined")
	p.waitText("⚠ Runs unconfined, as you chose")
	if info, _ := p.exts.Show(ctx, "demo"); !info.Unconfined {
		t.Fatal("the card says unconfined, the registry does not")
	}
	p.tap("Confine again")
	p.waitText("Confined again")
	p.waitText("Confined: its hooks")
	if info, _ := p.exts.Show(ctx, "demo"); info.Unconfined {
		t.Fatal("still unconfined after Confine again")
	}
}
