package listing

import (
	"fmt"
	"strings"
	"testing"
)

func skills(n int) []Entry {
	var out []Entry
	for i := range n {
		out = append(out, Entry{Kind: KindSkill, Name: fmt.Sprintf("skill-%04d", i),
			Description: strings.Repeat(fmt.Sprintf("does task %d well; ", i), 8)})
	}
	return out
}

func TestBudget(t *testing.T) {
	if got := Budget(32768); got != 13107 {
		t.Errorf("Budget(32k) = %d, want 13107", got)
	}
	if Budget(0) != Budget(DefaultWindow) || Budget(200000) != 80000 {
		t.Errorf("Budget(0) = %d, Budget(200k) = %d", Budget(0), Budget(200000))
	}
}

// Catalogs of 0, 1, 200 and 2,000 skills plus a project skill and an
// agent: the rendered text stays within the budget, the first entries
// are in full, and the tiers degrade in order.
func TestFitOrderAndTruncation(t *testing.T) {
	budget := Budget(32768)
	for _, n := range []int{0, 1, 200, 2000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			entries := append([]Entry{{Kind: KindSkill, Name: "own-skill", Description: "the project's own skill", First: true},
				{Kind: KindAgent, Name: "reviewer", Description: "reviews code"}}, skills(n)...)
			f := FitTo(entries, budget)
			text := f.Render(KindSkill, "skills") + f.Render(KindAgent, "agents")
			if len(text) > budget {
				t.Fatalf("%d bytes rendered, budget %d", len(text), budget)
			}
			if f.Bytes > budget {
				t.Errorf("Bytes %d over budget", f.Bytes)
			}
			if f.Entries[0].Name != "own-skill" || f.Entries[0].Tier != Full {
				t.Errorf("first entry %+v, want own-skill in full", f.Entries[0])
			}
			last := Full
			for _, p := range f.Entries[1:] {
				if p.Tier < last {
					t.Fatalf("%s is %v after a %v entry: tiers out of order", p.Name, p.Tier, last)
				}
				last = p.Tier
			}
			d, names, hidden := f.Counts()
			t.Logf("%d skills: %d bytes of %d; %d described, %d names only, %d more", n, len(text), budget, d, names, hidden)
			switch n {
			case 0, 1:
				if names+hidden != 0 || !strings.Contains(text, "reviewer: reviews code") {
					t.Errorf("a small catalog must be in full: %q", text)
				}
			case 200:
				if hidden != 0 {
					t.Errorf("200 skills: %d not listed, want every name listed", hidden)
				}
				if !strings.Contains(text, "reviewer") {
					t.Errorf("the agent was pushed out")
				}
			case 2000:
				if hidden == 0 || !strings.Contains(text, fmt.Sprintf("and %d more skills: use tool_search", hidden-countHidden(f, KindAgent))) {
					t.Errorf("2000 skills: want an \"and N more\" line, got %d hidden; tail %q", hidden, text[max(0, len(text)-200):])
				}
			}
		})
	}
}

func countHidden(f Fit, kind string) int {
	n := 0
	for _, p := range f.Entries {
		if p.Kind == kind && p.Tier == Hidden {
			n++
		}
	}
	return n
}

func TestSearchRanking(t *testing.T) {
	entries := []Entry{
		{Kind: KindSkill, Name: "pdf-tools", Description: "fill and split PDF forms"},
		{Kind: KindAgent, Name: "pdf", Description: "an agent for documents"},
		{Kind: KindCommand, Name: "review", Description: "review the PDF export code"},
		{Kind: KindSkill, Name: "terraform", Description: "infrastructure as code"},
	}
	got := Search(entries, "pdf", 5)
	var names []string
	for _, e := range got {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "pdf,pdf-tools,review" {
		t.Errorf("Search(pdf) = %v, want exact name, then name match, then description", names)
	}
	if len(Search(skills(50), "skill", 5)) != 5 {
		t.Errorf("want at most 5 results")
	}
	if Search(entries, "kubernetes", 5) != nil {
		t.Errorf("no match must give nothing")
	}
}

func TestClose(t *testing.T) {
	got := Close([]string{"pdf-tools", "terraform", "pdf-forms", "python"}, "pdf-tool")
	if len(got) < 1 || got[0] != "pdf-tools" {
		t.Errorf("Close = %v, want pdf-tools first", got)
	}
	for _, g := range got {
		if g == "terraform" {
			t.Errorf("terraform is not close to pdf-tool: %v", got)
		}
	}
}

// Each owner's share counts its entries by tier and its bytes as
// rendered: together they are the rendered lists, less the lines
// ("also (names only …)", "and N more") no one owns.
func TestSharesByOwner(t *testing.T) {
	entries := []Entry{{Kind: KindSkill, Name: "own-skill", Description: "the project's own skill", First: true, Owner: "project"},
		{Kind: KindAgent, Name: "reviewer", Description: "reviews code", Owner: "big"}}
	for _, e := range skills(400) {
		e.Owner = "big"
		entries = append(entries, e)
	}
	f := FitTo(entries, Budget(32768))
	shares := f.Shares()
	if own := shares["project"]; own != (Share{Bytes: len("\n- own-skill — the project's own skill"), Full: 1}) {
		t.Errorf("project's share %+v", own)
	}
	big := shares["big"]
	if big.Full+big.Shortened+big.NamesOnly+big.Hidden != 401 || big.NamesOnly == 0 {
		t.Errorf("big's share %+v: want its 401 entries, some by name only", big)
	}
	d, names, hidden := f.Counts()
	if big.Full+big.Shortened+shares["project"].Full != d || big.NamesOnly != names || big.Hidden != hidden {
		t.Errorf("shares %+v do not add up to the counts %d, %d, %d", shares, d, names, hidden)
	}
	text := f.Render(KindSkill, "skills") + f.Render(KindAgent, "agents")
	if sum := shares["project"].Bytes + big.Bytes; sum > len(text) || sum < len(text)-300 {
		t.Errorf("shares sum to %d bytes, the lists are %d", sum, len(text))
	}
}
