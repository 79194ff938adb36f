//go:build unix

package dispatch

import (
	"context"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// Plugins' styles are "EXT:NAME", so two plugins' "terse" never collide;
// the project's own keep their names. A disabled extension's styles are
// gone at once; a turn's snapshot keeps the styles it started with.
func TestOutputStylesNamesAndFollowsTheRegistry(t *testing.T) {
	r := newMemRegistry()
	style := func(name string, keep bool) manifest.OutputStyle {
		return manifest.OutputStyle{Name: name, Path: "output-styles/" + name + ".md", Description: name + "\x1b[31m", KeepCodingInstructions: keep, Body: "Be " + name + "."}
	}
	r.exts = []extensions.Active{
		{ID: manifest.ProjectID, Label: "Project settings", Pkg: &manifest.Package{OutputStyles: []manifest.OutputStyle{style("reviewer", true)}}},
		{ID: "alpha", Label: "Alpha", Pkg: &manifest.Package{OutputStyles: []manifest.OutputStyle{style("terse", true), style("writer", false)}}},
		{ID: "beta", Label: "Beta", Pkg: &manifest.Package{OutputStyles: []manifest.OutputStyle{style("terse", false)}}},
	}
	d := memDispatcher(t, r)
	names := func(ctx context.Context) []string {
		var out []string
		for _, s := range d.OutputStyles(ctx, "/proj") {
			out = append(out, s.Name)
		}
		return out
	}
	if got, want := names(context.Background()), []string{"reviewer", "alpha:terse", "alpha:writer", "beta:terse"}; !slices.Equal(got, want) {
		t.Fatalf("styles %q, want %q", got, want)
	}
	s := d.OutputStyles(context.Background(), "/proj")[1]
	if s.Short != "terse" || s.Extension != "alpha" || s.Label != "Alpha" || s.Description != "terse" || !s.KeepCodingInstructions ||
		s.Prompt != "Be terse." || s.Path != "output-styles/terse.md" {
		t.Errorf("alpha:terse = %+v", s)
	}
	turn := d.BeginTurn(context.Background(), "/proj")
	r.remove("alpha")
	if got, want := names(context.Background()), []string{"reviewer", "beta:terse"}; !slices.Equal(got, want) {
		t.Errorf("after disabling alpha: %q, want %q", got, want)
	}
	if got, want := names(turn), []string{"reviewer", "beta:terse"}; !slices.Equal(got, want) {
		t.Errorf("the turn started before disabling alpha here sees %q, want %q", got, want)
	}
	// A change the process is not told of (another process's) waits for
	// the next turn.
	r.mu.Lock()
	r.exts = r.exts[:1]
	r.mu.Unlock()
	if got := names(turn); len(got) != 2 {
		t.Errorf("the turn sees another process's change: %q, want its snapshot's two", got)
	}
	if got := names(d.BeginTurn(context.Background(), "/proj")); !slices.Equal(got, []string{"reviewer"}) {
		t.Errorf("the next turn sees %q, want [reviewer]", got)
	}
}
