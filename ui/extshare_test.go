package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// An enabled extension's card says what it takes of the catalog budget
// and how many of its skills are described, so a user sees why a skill
// is listed by name only.
func TestCardShowsItsShareOfTheCatalog(t *testing.T) {
	big := gittest.NewRepo(t)
	files := map[string]gittest.File{".claude-plugin/plugin.json": {Body: `{"name": "big", "interface": {"displayName": "Big"}}`}}
	for i := range 300 {
		name := fmt.Sprintf("big-%03d", i)
		files["skills/"+name+"/SKILL.md"] = gittest.File{Body: "---\nname: " + name + "\ndescription: " +
			strings.Repeat("Helps with a part of the work, with examples. ", 4) + "\n---\nBody.\n"}
	}
	big.Commit(t, "main", "v1", files)
	big.SetHEAD(t, "main")
	p := newPaneEnv(t, map[string]*gittest.Repo{"big": big}, nil)
	ctx := t.Context()
	info, err := p.exts.Install(ctx, p.server.URL+"/big.git", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	p.pane.reload()
	p.waitText("300 skills")
	if strings.Contains(p.text(), "In the model's catalog") {
		t.Fatalf("a disabled extension's card claims a share of the catalog:\n%s", p.text())
	}
	tr, err := p.exts.TrustPrompt(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.exts.Enable(ctx, info.ID, tr.Hash); err != nil {
		t.Fatal(err)
	}
	p.pane.reload()
	p.waitText("In the model's catalog: ")
	share := p.pane.fit.Shares[info.ID]
	want := fmt.Sprintf("In the model's catalog: %.1f KB of its %.1f KB · skills and agents: ", float64(share.Bytes)/1000, float64(listing.Budget(listing.DefaultWindow))/1000)
	text := p.text()
	if i := strings.Index(text, "In the model's catalog: "); i >= 0 {
		t.Log(strings.SplitN(text[i:], "\n", 2)[0])
	}
	if share.NamesOnly == 0 || !strings.Contains(text, want) || !strings.Contains(text, fmt.Sprintf("%d by name only", share.NamesOnly)) {
		t.Errorf("card lacks its share %+v (%q … %d by name only):\n%s", share, want, share.NamesOnly, text)
	}
}
