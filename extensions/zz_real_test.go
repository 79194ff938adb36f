//go:build realplugins

package extensions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

func TestRealPlugins(t *testing.T) {
	names := strings.Fields(os.Getenv("REAL_REPOS"))
	repos := map[string]*gittest.Repo{}
	for _, n := range names {
		repos[n] = &gittest.Repo{Dir: "/work/.mirror/" + n + "/repo"}
	}
	e := newTestEnv(t, repos)
	ctx := context.Background()
	ok, failed := 0, 0
	for _, n := range names {
		_, err := e.m.Install(ctx, e.url(n), "", nil)
		var mkt *MarketplaceError
		if !errors.As(err, &mkt) {
			if err != nil {
				failed++
			} else {
				ok++
			}
			fmt.Printf("%-40s plain install: %v\n", n, err)
			if err == nil {
				list, _ := e.m.List(ctx)
				for _, i := range list {
					for _, h := range i.Hooks {
						fmt.Printf("   hook %s %q inactive=%q\n", h.Event, h.Argv, h.Inactive)
					}
					fmt.Printf("   diagnostics %q\n", i.Diagnostics)
				}
			}
			continue
		}
		fmt.Printf("%-40s marketplace of %d plugins\n", n, len(mkt.Marketplace.Plugins))
		for _, p := range mkt.Marketplace.Plugins {
			info, err := e.m.InstallFrom(ctx, Source{URL: e.url(n), Plugin: p.Name}, nil)
			if err != nil {
				failed++
				fmt.Printf("   FAIL %-30s %s: %v\n", p.Name, p.Source, firstLineOf(err.Error()))
				continue
			}
			ok++
			var diags []string
			for _, d := range info.Diagnostics {
				diags = append(diags, firstLineOf(d))
			}
			fmt.Printf("   ok   %-30s hooks=%d skills=%d  %s\n", p.Name, len(info.Hooks), len(info.Skills), strings.Join(diags, " | "))
			e.m.Uninstall(ctx, info.ID)
		}
	}
	fmt.Printf("installed %d, failed %d\n", ok, failed)
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
