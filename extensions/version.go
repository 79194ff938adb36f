package extensions

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// encodePackage stores a validated package with its paths relative to
// the version folder, so the record stays true wherever the folder is
// (it is validated in staging and then renamed into the store).
func encodePackage(pkg *manifest.Package, root string) ([]byte, error) {
	rel := *pkg
	rel.Skills = append(rel.Skills[:0:0], pkg.Skills...)
	for i := range rel.Skills {
		rel.Skills[i].Dir = relTo(root, rel.Skills[i].Dir)
	}
	rel.SkillRoots = nil
	for _, d := range pkg.SkillRoots {
		rel.SkillRoots = append(rel.SkillRoots, relTo(root, d))
	}
	return json.Marshal(&rel)
}

func relTo(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// decodePackage reads a stored package, making its paths absolute under
// the version folder dir.
func decodePackage(v storage.ExtensionVersion, dir string) (*manifest.Package, error) {
	var pkg manifest.Package
	if err := json.Unmarshal(v.Package, &pkg); err != nil {
		return nil, fmt.Errorf("registry record of %s at %s is unreadable: %w", v.ExtensionID, short(v.Commit), err)
	}
	for i := range pkg.Skills {
		pkg.Skills[i].Dir = filepath.Join(dir, filepath.FromSlash(pkg.Skills[i].Dir))
	}
	for i, d := range pkg.SkillRoots {
		pkg.SkillRoots[i] = filepath.Join(dir, filepath.FromSlash(d))
	}
	return &pkg, nil
}

// runnableHooks are the hooks that would run once enabled; only those
// need the user's trust.
func runnableHooks(pkg *manifest.Package) []manifest.Hook {
	var out []manifest.Hook
	for _, h := range pkg.Hooks {
		if h.Inactive == "" {
			out = append(out, h)
		}
	}
	return out
}

// runnableServers are the MCP servers that would start once enabled.
func runnableServers(pkg *manifest.Package) []manifest.MCPServer {
	var out []manifest.MCPServer
	for _, s := range pkg.MCPServers {
		if s.Inactive == "" {
			out = append(out, s)
		}
	}
	return out
}

// trustHash is the hash of what the user trusts: the runnable hooks and
// MCP servers.
func trustHash(pkg *manifest.Package) string {
	return manifest.TrustHashWithLSP(runnableHooks(pkg), runnableServers(pkg), runnableLSP(pkg))
}

// needsTrust reports whether enabling pkg runs anything of it: hooks or
// MCP servers.
func needsTrust(pkg *manifest.Package) bool {
	return len(runnableHooks(pkg)) > 0 || len(runnableServers(pkg)) > 0 || len(runnableLSP(pkg)) > 0
}

// displayName prefers interface.displayName, then the manifest name.
func displayName(m manifest.Manifest) string {
	if m.DisplayName != "" {
		return m.DisplayName
	}
	return m.Name
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
