//go:build realplugins

package extensions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// TestRealPlugins installs published plugins and marketplaces from local
// clones (bare or not), served over loopback HTTPS, and logs what each
// gives: every plugin of a marketplace is installed, hooks and skills
// counted, diagnostics shown, then uninstalled. It needs no network; a
// marketplace entry pointing to another repository fails with "cannot
// reach host". Run it by hand:
//
//	REAL_PLUGINS="/path/to/superpowers.git /path/to/claude-plugins-official.git" \
//	  go test -tags realplugins -run TestRealPlugins -v ./extensions/
func TestRealPlugins(t *testing.T) {
	paths := strings.Fields(os.Getenv("REAL_PLUGINS"))
	if len(paths) == 0 {
		t.Skip("REAL_PLUGINS names no repositories")
	}
	repos := map[string]*gittest.Repo{}
	var names []string
	for i, p := range paths {
		name := strings.TrimSuffix(filepath.Base(strings.TrimSuffix(p, "/")), ".git") + "-" + string(rune('a'+i))
		repos[name] = &gittest.Repo{Dir: p}
		names = append(names, name)
	}
	e := newTestEnv(t, repos)
	ok, failed := 0, 0
	for _, n := range names {
		o, f := installAll(t, e, n)
		ok, failed = ok+o, failed+f
	}
	t.Logf("installed %d, failed %d", ok, failed)
}

func installAll(t *testing.T, e *testEnv, name string) (ok, failed int) {
	ctx := context.Background()
	info, err := e.m.Install(ctx, e.url(name), "", nil)
	var mkt *MarketplaceError
	if !errors.As(err, &mkt) {
		if err != nil {
			t.Logf("%s: %v", name, err)
			return 0, 1
		}
		logInstalled(t, name, info)
		e.m.Uninstall(ctx, info.ID)
		return 1, 0
	}
	t.Logf("%s: a marketplace of %d plugins", name, len(mkt.Marketplace.Plugins))
	for _, p := range mkt.Marketplace.Plugins {
		info, err := e.m.InstallFrom(ctx, Source{URL: e.url(name), Plugin: p.Name}, nil)
		if err != nil {
			t.Logf("  FAIL %s (%s): %v", p.Name, p.Source, err)
			failed++
			continue
		}
		logInstalled(t, "  "+p.Name, info)
		e.m.Uninstall(ctx, info.ID)
		ok++
	}
	return ok, failed
}

func logInstalled(t *testing.T, name string, info Info) {
	var hooks []string
	for _, h := range info.Hooks {
		state := "runs"
		if h.Inactive != "" {
			state = "inactive: " + h.Inactive
		}
		hooks = append(hooks, h.Event+" "+h.ArgvText()+" ("+state+")")
	}
	var commands []string
	for _, c := range info.Commands {
		commands = append(commands, "/"+c.Name)
	}
	t.Logf("%s: ok, %d hooks, %d skills, commands %q; hooks %q; notes %q", name, len(info.Hooks), len(info.Skills), commands, hooks, info.Diagnostics)
}
