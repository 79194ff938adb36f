// Package project serves a folder's own Claude Code configuration (the
// hooks of .claude/settings.json, its commands, agents, skills and
// .mcp.json, read by manifest.LoadProject) as the extension "project",
// behind folder trust: nothing of it runs until the user trusted that
// folder, and a change to what runs waits for trust again. Registry puts
// it in front of the installed extensions, so dispatch, guards,
// approvals and the MCP host need no second path.
package project

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/agent/permissions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// Status is a folder's trust state.
type Status string

const (
	StatusNone      Status = "none"      // it declares nothing that waits for trust
	StatusUntrusted Status = "untrusted" // never trusted
	StatusTrusted   Status = "trusted"
	StatusChanged   Status = "changed" // trusted once; what runs changed since
)

// Folder is a folder's own settings as they are on disk now, and their
// trust.
type Folder struct {
	Dir      string // canonical
	Pkg      *manifest.Package
	Settings permissions.Settings
	Snapshot Snapshot // what runs now
	Hash     string   // of Snapshot
	Status   Status
	// Reason says why a trusted folder waits again when a file its
	// hooks run changed on disk.
	Reason string
	// Trusted is what the user trusted last; nil when never.
	Trusted   *Snapshot
	TrustedAt time.Time
}

// Snapshot is what trust covers: what runs and what lets things run
// without asking.
type Snapshot struct {
	Hooks      []manifest.Hook      `json:"hooks"`
	MCPServers []manifest.MCPServer `json:"mcp_servers"`
	Files      []manifest.FileStamp `json:"files"` // the project files hooks and servers run, hashed
	Rules      []string             `json:"rules"` // allow and ask rules, "allow Bash(npm test:*)"
	Env        []string             `json:"env"`   // NAME=value, sorted
	// Dirs are permissions.additionalDirectories as written: folders the
	// file tools may read and change beside the project.
	Dirs []string `json:"additional_directories,omitempty"`
}

// hashVersion starts the hashed encoding.
const hashVersion = "agentdesk-project-v1"

// Hash is the trust hash of s: manifest.TrustHash of its hooks and
// servers, then the files' digests, the rules and the environment.
func (s Snapshot) Hash() string {
	h := sha256.New()
	h.Write([]byte(hashVersion + "\x00" + manifest.TrustHash(s.Hooks, s.MCPServers) + "\x00"))
	for _, f := range s.Files {
		fmt.Fprintf(h, "f%d:%s%s\x00", len(f.Path), f.Path, f.SHA256)
	}
	for _, r := range s.Rules {
		fmt.Fprintf(h, "r%d:%s\x00", len(r), r)
	}
	for _, e := range s.Env {
		fmt.Fprintf(h, "e%d:%s\x00", len(e), e)
	}
	for _, d := range s.Dirs {
		fmt.Fprintf(h, "d%d:%s\x00", len(d), d)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Canonical is the folder trust is kept for: absolute, symlinks
// resolved (as agent.Canonical records a project).
func Canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Read loads the folder's own settings and their trust from db.
func Read(ctx context.Context, db *storage.DB, dir string) (Folder, error) {
	dir, err := Canonical(dir)
	if err != nil {
		return Folder{}, fmt.Errorf("project folder: %w", err)
	}
	pkg, err := manifest.LoadProject(dir)
	if err != nil {
		return Folder{}, fmt.Errorf("project settings of %s: %w", dir, err)
	}
	f := Folder{Dir: dir, Pkg: pkg, Settings: permissions.LoadProject(dir)}
	f.Snapshot = snapshotOf(pkg, f.Settings)
	f.Hash = f.Snapshot.Hash()
	t, err := db.ProjectTrust(ctx, dir)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		f.Status = StatusUntrusted
	case err != nil:
		return Folder{}, err
	default:
		var was Snapshot
		if json.Unmarshal([]byte(t.Snapshot), &was) == nil {
			f.Trusted = &was
		}
		f.TrustedAt, f.Reason = t.TrustedAt, t.ReviewReason
		f.Status = StatusChanged
		if t.Hash == f.Hash && t.ReviewReason == "" {
			f.Status = StatusTrusted
		}
	}
	if !f.Declares() && f.Status != StatusTrusted {
		f.Status = StatusNone
	}
	return f, nil
}

// Env is the settings env the project's hooks and servers get once the
// folder is trusted, by name, less credential-named variables (see
// permissions.Settings.Environ, which gives run_command the same).
func (f Folder) Env() map[string]string {
	kept, _ := f.Settings.Environ()
	if len(kept) == 0 {
		return nil
	}
	out := make(map[string]string, len(kept))
	for _, kv := range kept {
		name, value, _ := strings.Cut(kv, "=")
		out[name] = value
	}
	return out
}

// Declares reports whether the folder has anything that waits for trust.
func (f Folder) Declares() bool {
	return f.Pkg.Declares() || len(f.Snapshot.Rules) > 0 || len(f.Snapshot.Env) > 0 || len(f.Snapshot.Dirs) > 0
}

// Runs reports whether the folder's settings apply now.
func (f Folder) Runs() bool { return f.Status == StatusTrusted }

// Waits reports whether the folder declares something that waits for
// the user's trust (never trusted, or changed since).
func (f Folder) Waits() bool { return f.Status == StatusUntrusted || f.Status == StatusChanged }

func snapshotOf(pkg *manifest.Package, set permissions.Settings) Snapshot {
	s := Snapshot{Hooks: pkg.Hooks, MCPServers: pkg.MCPServers}
	for _, st := range pkg.Stamps {
		s.Files = append(s.Files, manifest.FileStamp{Path: st.Path, SHA256: st.SHA256})
	}
	for _, r := range set.Rules {
		if r.Behavior != permissions.Deny { // deny rules apply untrusted: they only narrow
			s.Rules = append(s.Rules, string(r.Behavior)+" "+r.Text)
		}
	}
	for k, v := range set.Env {
		s.Env = append(s.Env, k+"="+v)
	}
	slices.Sort(s.Env)
	s.Dirs = slices.Clone(set.AdditionalDirectories)
	return s
}

// Trust records that the user trusts f as it is now.
func Trust(ctx context.Context, db *storage.DB, f Folder) error {
	snap, err := json.Marshal(f.Snapshot)
	if err != nil {
		return err
	}
	return db.TrustProject(ctx, storage.ProjectTrust{Path: f.Dir, Hash: f.Hash, Snapshot: string(snap)})
}

// Untrust forgets the trust of the folder dir.
func Untrust(ctx context.Context, db *storage.DB, dir string) error {
	dir, err := Canonical(dir)
	if err != nil {
		return fmt.Errorf("project folder: %w", err)
	}
	return db.UntrustProject(ctx, dir)
}

// Summary counts what the folder declares, for the window's bar and
// the command line: "1 hook, 1 MCP server, 2 commands, 1 agent, allow
// rules".
func (f Folder) Summary() string {
	var parts []string
	count := func(n int, one string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss", n, one))
		}
	}
	count(len(f.Pkg.Hooks), "hook")
	count(len(f.Pkg.MCPServers), "MCP server")
	count(len(f.Pkg.Commands), "command")
	count(len(f.Pkg.Agents), "agent")
	count(len(f.Pkg.OutputStyles), "output style")
	count(len(f.Pkg.Skills), "skill")
	if len(f.Snapshot.Rules) > 0 {
		parts = append(parts, "allow rules")
	}
	if len(f.Snapshot.Env) > 0 {
		parts = append(parts, "environment")
	}
	if len(f.Snapshot.Dirs) > 0 {
		parts = append(parts, "additional directories")
	}
	return strings.Join(parts, ", ")
}
