//go:build unix

package dispatch

import (
	"context"
	"testing"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// The agent set is kept only while the active list is the same: a new
// option value, a new package (an update or a re-stamp) or a removal is
// in the next call, and a caller changing what it got changes nothing.
func TestAgentsKeptWhileTheListIsTheSame(t *testing.T) {
	r := newMemRegistry()
	d := memDispatcher(t, r)
	pkg := &manifest.Package{Agents: []manifest.Agent{{Name: "reviewer", Description: "reviews", Body: "v1 ${user_config.mode}"}}}
	x := extensions.Active{ID: "alpha", Label: "Alpha", Commit: "c1", Dir: "/store/alpha/c1", Pkg: pkg, OptionArgv: map[string]string{"mode": "fast"}}
	set := func(xs ...extensions.Active) {
		r.mu.Lock()
		r.exts = xs
		r.mu.Unlock()
	}
	prompt := func() string {
		got := d.Agents(context.Background(), "/proj").Agents
		if len(got) != 1 {
			return ""
		}
		p := got[0].Prompt
		got[0].Prompt = "changed by the caller"
		return p
	}
	set(x)
	if p := prompt(); p != "v1 fast" || prompt() != "v1 fast" {
		t.Fatalf("prompt %q, want v1 fast twice", p)
	}
	x.OptionArgv = map[string]string{"mode": "slow"}
	set(x)
	if p := prompt(); p != "v1 slow" {
		t.Errorf("after an option change: %q", p)
	}
	x.Pkg = &manifest.Package{Agents: []manifest.Agent{{Name: "reviewer", Description: "reviews", Body: "v2 ${user_config.mode}"}}}
	set(x)
	if p := prompt(); p != "v2 slow" {
		t.Errorf("after a new package: %q", p)
	}
	set()
	if got := d.Agents(context.Background(), "/proj").Agents; len(got) != 0 {
		t.Errorf("after removal: %+v", got)
	}
}
