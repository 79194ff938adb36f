package extensions

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/marketplace"
)

// PluginResult is what installing one picked plugin of a marketplace did:
// Info when it was installed, Err (naming why) when it was not.
type PluginResult struct {
	Plugin string
	Info   Info
	Err    error
}

// InstallPlugins installs the named plugins of the marketplace at url,
// in the order given, from one download of it: the marketplace is fetched
// and read once and each plugin's folder is copied out of that tree (a
// plugin whose entry names another repository is fetched from there).
// Each plugin is installed on its own, as InstallFrom would: one that
// cannot be installed gets its reason and the others go on. done, when
// set, hears each result as it comes. The error is for the whole command
// (the repository could not be fetched or is no marketplace) and then no
// plugin was tried; a cancelled context leaves the rest "not tried".
func (m *Manager) InstallPlugins(ctx context.Context, url, ref string, plugins []string, progress func(Progress), done func(PluginResult)) ([]PluginResult, error) {
	url, ref = strings.TrimSpace(url), strings.TrimSpace(ref)
	names := pickedOnce(plugins)
	if len(names) == 0 {
		return nil, fmt.Errorf("install %s: no plugin named", url)
	}
	f, err := m.fetchRepo(ctx, url, ref, progress)
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	defer f.st.discard()
	if _, ok := marketplace.Find(f.st.dir); !ok {
		return nil, fmt.Errorf("%s is not a marketplace (it has no %s): install it without a plugin name", url, marketplace.Paths[0])
	}
	mkt, err := marketplace.Load(f.st.dir)
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", url, err)
	}
	results := make([]PluginResult, 0, len(names))
	for _, name := range names {
		r := PluginResult{Plugin: name}
		if err := ctx.Err(); err != nil {
			r.Err = fmt.Errorf("not tried: %w", err)
		} else {
			r.Info, r.Err = m.installPicked(ctx, Source{URL: url, Ref: ref, Plugin: name}, f, mkt, progress)
		}
		results = append(results, r)
		if done != nil {
			done(r)
		}
	}
	return results, nil
}

func (m *Manager) installPicked(ctx context.Context, src Source, f *fetched, mkt *marketplace.Marketplace, progress func(Progress)) (Info, error) {
	pf, err := m.fetchEntry(ctx, f, mkt, src.Plugin, progress, true)
	if err != nil {
		return Info{}, err
	}
	s, err := m.validate(pf, progress)
	if err != nil {
		return Info{}, err
	}
	return m.register(ctx, src, s, progress)
}

// pickedOnce trims names and drops blanks and repeats, keeping the order.
func pickedOnce(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// InstallSummary is one line for a many-plugin install: "89 installed,
// 3 failed: a, b, c".
func InstallSummary(results []PluginResult) string {
	var failed []string
	for _, r := range results {
		if r.Err != nil {
			failed = append(failed, r.Plugin)
		}
	}
	s := fmt.Sprintf("%d installed", len(results)-len(failed))
	if len(failed) > 0 {
		s += fmt.Sprintf(", %d failed: %s", len(failed), strings.Join(failed, ", "))
	}
	return s
}
