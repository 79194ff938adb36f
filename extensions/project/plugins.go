package project

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// maxSettingsBytes bounds the settings file read for enabledPlugins.
const maxSettingsBytes = 1 << 20

// EnabledPlugins are the plugins the folder's .claude/settings.json and
// .claude/settings.local.json ask for (Claude Code's "enabledPlugins":
// {"plugin@marketplace": true}; the local file wins per plugin), sorted.
// A file that is missing or unreadable asks for nothing.
func EnabledPlugins(dir string) []string {
	want := map[string]bool{}
	for _, name := range []string{manifest.ProjectSettings, manifest.ProjectLocalSettings} {
		for plugin, on := range readEnabledPlugins(filepath.Join(dir, name)) {
			want[plugin] = on
		}
	}
	var out []string
	for plugin, on := range want {
		if on {
			out = append(out, plugin)
		}
	}
	slices.Sort(out)
	return out
}

func readEnabledPlugins(path string) map[string]bool {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, maxSettingsBytes))
	if err != nil {
		return nil
	}
	var settings struct {
		EnabledPlugins map[string]bool `json:"enabledPlugins"`
	}
	if json.Unmarshal(body, &settings) != nil {
		return nil
	}
	return settings.EnabledPlugins
}

// Proposal is what a folder's enabledPlugins ask for: the installed
// extensions they name that are not active there yet, and the names that
// match no installed extension.
type Proposal struct {
	Extensions []extensions.Info
	Missing    []string
}

// Empty reports whether there is nothing to propose.
func (p Proposal) Empty() bool { return len(p.Extensions) == 0 && len(p.Missing) == 0 }

// Names are the proposed extensions' names, for "This project asks for
// plugins X, Y".
func (p Proposal) Names() []string {
	var out []string
	for _, x := range p.Extensions {
		out = append(out, x.ForDisplay().Name)
	}
	return out
}

// Propose is what f's enabledPlugins ask for, once nothing of the folder
// waits for trust (it is trusted, or declares nothing that needs it):
// never while the trust bar asks. Nothing is enabled here; the user
// enables the proposed extensions in the folder (Manager.EnableIn,
// AddProject). "name@marketplace" matches an extension installed as that
// marketplace plugin, or with that id.
func (r *Registry) Propose(ctx context.Context, f Folder) (Proposal, error) {
	if f.Waits() {
		return Proposal{}, nil
	}
	asked := EnabledPlugins(f.Dir)
	if len(asked) == 0 {
		return Proposal{}, nil
	}
	infos, err := r.Manager.List(ctx)
	if err != nil {
		return Proposal{}, err
	}
	var p Proposal
	for _, name := range asked {
		plugin, _, _ := strings.Cut(name, "@")
		i := slices.IndexFunc(infos, func(x extensions.Info) bool { return x.Plugin == plugin || x.ID == plugin })
		switch {
		case i < 0:
			p.Missing = append(p.Missing, name)
		case !infos[i].EnabledIn(f.Dir) || infos[i].Status == extensions.StatusNeedsReview:
			if !slices.ContainsFunc(p.Extensions, func(x extensions.Info) bool { return x.ID == infos[i].ID }) {
				p.Extensions = append(p.Extensions, infos[i])
			}
		}
	}
	return p, nil
}
