package extensions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// TrustWarning is shown with every hook list the user is asked to trust.
const TrustWarning = "These commands run local code with your user account's permissions whenever their events fire (MCP servers run for as long as a session uses them). Enable only extensions you trust."

// ErrTrustChanged: the hooks changed between showing them and confirming.
var ErrTrustChanged = errors.New("the hook commands changed since they were shown; review them again")

// Trust is what the user confirms to enable an extension.
type Trust struct {
	ID    string
	Name  string
	Hooks []Hook // every runnable hook: event, matcher, exact argv, effective timeout
	// NotRun lists the declared hooks that will not run, each with its
	// Inactive reason: shown apart, never counted as trusted.
	NotRun  []Hook
	Hash    string // pass back to Enable: proves the user saw this list
	Reason  string // why a review is needed again, if it is
	Diff    *manifest.HookDiff
	Warning string
	// What the argv's variables stand for: the installed folder and the
	// extension's data folder (${CLAUDE_PROJECT_DIR} is the open project).
	PluginRoot, PluginData string
	// Commands are its slash commands: shown, they run nothing.
	Commands []Command
	// Agents are its subagents: shown; the model may delegate to them,
	// and their calls are approved like any other.
	Agents []Agent
	// OutputStyles are its output styles: shown; one reaches the system
	// prompt only when the user chooses it.
	OutputStyles []OutputStyle
	// MCPServers are the MCP servers that start once it is enabled (with
	// the first prompt, never now); NotRunServers those that cannot.
	MCPServers, NotRunServers []MCPServer
	// LSPServers are the language servers that start once it is enabled
	// (with the first covered file); NotRunLSP those that cannot.
	LSPServers, NotRunLSP []LSPServer
}

// NeedsConfirmation reports whether the trust dialog must be shown; an
// extension with no runnable hooks or MCP servers (skills only) is
// enabled directly.
func (t Trust) NeedsConfirmation() bool {
	return len(t.Hooks) > 0 || len(t.MCPServers) > 0 || len(t.LSPServers) > 0
}

// TrustPrompt returns the hook list to confirm before enabling id, with
// the diff against the list the user trusted before, if any.
func (m *Manager) TrustPrompt(ctx context.Context, id string) (Trust, error) {
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return Trust{}, notInstalled(id, err)
	}
	pkg, hash, err := m.version(ctx, id, e.ActiveCommit)
	if err != nil {
		return Trust{}, err
	}
	t := Trust{ID: id, Name: displayName(pkg.Manifest), Hash: hash, Reason: e.ReviewReason, Warning: TrustWarning,
		PluginRoot: m.store.versionDir(id, e.ActiveCommit), PluginData: m.store.dataDir(id), Commands: commandsOf(pkg),
		Agents: agentsOf(pkg), OutputStyles: stylesOf(pkg)}
	def := LoadHookSettings(ctx, m.db).DefaultTimeout
	for _, h := range pkg.Hooks {
		v := Hook{Event: h.Event, Matcher: h.Matcher, If: h.If, Argv: h.Argv, TimeoutS: h.Timeout, Key: h.Key(), Inactive: h.Inactive}
		if h.Inactive != "" {
			t.NotRun = append(t.NotRun, v)
			continue
		}
		v.EffectiveS = effectiveTimeout(h.Timeout, def)
		t.Hooks = append(t.Hooks, v)
	}
	for _, s := range pkg.MCPServers {
		v := mcpServerInfo(s)
		v.Env, v.Headers = trustValues(s.Env), trustValues(s.Headers)
		if s.Inactive != "" {
			t.NotRunServers = append(t.NotRunServers, v)
		} else {
			t.MCPServers = append(t.MCPServers, v)
		}
	}
	for _, s := range pkg.LSPServers {
		v := lspServerInfo(s)
		v.Env = trustValues(s.Env)
		if s.Inactive != "" {
			t.NotRunLSP = append(t.NotRunLSP, v)
		} else {
			t.LSPServers = append(t.LSPServers, v)
		}
	}
	if old := m.trustedPackage(ctx, e); old != nil && e.TrustedHash != hash {
		d := trustDiff(old, pkg)
		t.Diff = &d
	}
	return t, nil
}

// trustDiff is what changed, as far as trust goes, from old to updated:
// the hooks, and the content of the files the MCP servers run.
func trustDiff(old, updated *manifest.Package) manifest.HookDiff {
	d := manifest.DiffHooks(runnableHooks(old), runnableHooks(updated))
	d.ServerFiles = manifest.DiffServerFiles(runnableServers(old), runnableServers(updated))
	return d
}

// trustedPackage finds the version the user last trusted among the kept
// ones.
func (m *Manager) trustedPackage(ctx context.Context, e storage.Extension) *manifest.Package {
	if e.TrustedHash == "" {
		return nil
	}
	for _, c := range []string{e.PreviousCommit, e.ActiveCommit} {
		if c == "" {
			continue
		}
		if pkg, hash, err := m.version(ctx, e.ID, c); err == nil && hash == e.TrustedHash {
			return pkg
		}
	}
	return nil
}

// Enable activates id everywhere: in every project, as an extension
// enabled only in some (EnableIn) was not. For an extension with hooks,
// hash must be the Trust.Hash the user confirmed. A review caused by
// changed package files re-stamps them: the user accepted the files as
// they are now.
func (m *Manager) Enable(ctx context.Context, id, hash string) (Info, error) {
	return m.enable(ctx, id, hash, func(storage.Extension) []string { return nil })
}

// enable activates id in the projects scope returns for its row as it
// was (none: everywhere).
func (m *Manager) enable(ctx context.Context, id, hash string, scope func(was storage.Extension) []string) (Info, error) {
	defer m.lockOp(id)()
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return Info{}, notInstalled(id, err)
	}
	pkg, current, err := m.version(ctx, id, e.ActiveCommit)
	if err != nil {
		return Info{}, err
	}
	hasHooks := needsTrust(pkg)
	if hasHooks && hash != current {
		return Info{}, fmt.Errorf("enable %s: %w", id, ErrTrustChanged)
	}
	restamp, err := m.restampIfTampered(ctx, e, pkg)
	if err != nil {
		return Info{}, err
	}
	_, _, err = m.db.UpdateExtension(ctx, id, restamp, func(row *storage.Extension) error {
		row.Projects = scope(*row)
		row.Enabled, row.ReviewReason, row.LastError = true, "", ""
		if hasHooks {
			row.TrustedHash = current
		}
		return nil
	})
	if err != nil {
		return Info{}, fmt.Errorf("enable %s: %w", id, err)
	}
	return m.Show(ctx, id)
}

func (m *Manager) restampIfTampered(ctx context.Context, e storage.Extension, pkg *manifest.Package) (*storage.ExtensionVersion, error) {
	dir := m.store.versionDir(e.ID, e.ActiveCommit)
	if manifest.CheckStamps(dir, pkg.Stamps) == nil {
		return nil, nil
	}
	fresh, err := manifest.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("enable %s: the installed files no longer validate: %w", e.ID, err)
	}
	v, err := m.db.ExtensionVersion(ctx, e.ID, e.ActiveCommit)
	if err != nil {
		return nil, err
	}
	body, err := encodePackage(fresh, dir)
	if err != nil {
		return nil, err
	}
	v.Package, v.HooksHash = body, trustHash(fresh)
	return &v, nil
}

// Disable deactivates id at once: its running hooks are stopped and its
// context and skills leave the next request.
func (m *Manager) Disable(ctx context.Context, id string) (Info, error) {
	defer m.lockOp(id)()
	m.removing(id)
	_, _, err := m.db.UpdateExtension(ctx, id, nil, func(row *storage.Extension) error {
		row.Enabled, row.Projects = false, nil // enabled again, it is everywhere or where EnableIn says
		return nil
	})
	if err != nil {
		return Info{}, notInstalled(id, err)
	}
	return m.Show(ctx, id)
}

// markForReview puts id back to "needs review" (a hook file changed on
// disk since it was trusted).
func (m *Manager) markForReview(ctx context.Context, id, reason string) error {
	_, _, err := m.db.UpdateExtension(ctx, id, nil, func(row *storage.Extension) error {
		row.ReviewReason = reason
		return nil
	})
	return err
}

// Rollback switches id back to its previous version; the version it
// leaves becomes the previous one, so a rollback can be undone.
func (m *Manager) Rollback(ctx context.Context, id string) (Info, error) {
	defer m.lockOp(id)()
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return Info{}, notInstalled(id, err)
	}
	if e.PreviousCommit == "" {
		return Info{}, fmt.Errorf("rollback %s: there is no previous version to go back to", id)
	}
	if err := m.store.checkWritable(id); err != nil {
		return Info{}, fmt.Errorf("rollback %s: %w", id, err)
	}
	pkg, hash, err := m.version(ctx, id, e.PreviousCommit)
	if err != nil {
		return Info{}, fmt.Errorf("rollback %s: %w", id, err)
	}
	if _, err := os.Stat(m.store.versionDir(id, e.PreviousCommit)); err != nil {
		return Info{}, fmt.Errorf("rollback %s: the previous version's files are missing: %w", id, err)
	}
	m.removing(id)
	err = m.withRegistryLock(func() error {
		_, _, err := m.db.UpdateExtension(ctx, id, nil, func(row *storage.Extension) error {
			row.ActiveCommit, row.PreviousCommit = row.PreviousCommit, row.ActiveCommit
			row.ReviewReason, row.LastError = "", ""
			reviewIfChanged(row, hash, needsTrust(pkg), "the version rolled back to has different hook commands")
			return nil
		})
		return err
	})
	if err != nil {
		return Info{}, fmt.Errorf("rollback %s: %w", id, err)
	}
	return m.Show(ctx, id)
}

// Uninstall stops id's hooks, removes its registry rows (the commit
// point), then its store folders and data dir — nothing else.
func (m *Manager) Uninstall(ctx context.Context, id string) error {
	defer m.lockOp(id)()
	if err := m.store.checkWritable(id); err != nil {
		return fmt.Errorf("uninstall %s: %w", id, err)
	}
	m.removing(id)
	var forgot error
	if e, err := m.db.Extension(ctx, id); err == nil {
		if pkg, _, err := m.version(ctx, id, e.ActiveCommit); err == nil {
			forgot = errors.Join(m.forgetOptions(ctx, id, pkg), m.forgetCredentials(id, pkg))
		}
	}
	forgot = errors.Join(forgot, m.db.DeleteSettings(ctx, unconfinedSetting(id)))
	err := m.withRegistryLock(func() error {
		if err := m.db.DeleteExtension(ctx, id); err != nil {
			return notInstalled(id, err)
		}
		if err := m.db.DeleteMCPToolPins(ctx, id); err != nil {
			return err
		}
		failpoint("flipped")
		return nil
	})
	if err != nil {
		return fmt.Errorf("uninstall %s: %w", id, err)
	}
	// Another AgentDesk may still run its servers or hooks from the
	// folders: its watcher sees the row gone and ends them; wait for that.
	if release := m.waitForOthers(id); release != nil {
		defer release()
	}
	return errors.Join(forgot, os.RemoveAll(m.store.extensionDir(id)), os.RemoveAll(m.store.dataDir(id)))
}

// DiffLines renders a hook diff for the trust dialog and the CLI:
// "+ added", "- removed", "~ changed" lines with the exact argv.
func DiffLines(d manifest.HookDiff) []string {
	var lines []string
	for _, h := range d.Added {
		lines = append(lines, "+ "+hookLine(h))
	}
	for _, h := range d.Removed {
		lines = append(lines, "- "+hookLine(h))
	}
	for _, c := range d.Changed {
		lines = append(lines, "~ "+hookLine(c.Old)+"  →  "+hookLine(c.New))
	}
	for _, f := range d.ServerFiles {
		lines = append(lines, serverFileLine(f))
	}
	return lines
}

// serverFileLine shows a changed file an MCP server runs, with the start
// of each content digest.
func serverFileLine(f manifest.ServerFileChange) string {
	switch {
	case f.Old == "":
		return fmt.Sprintf("+ MCP server %s runs %s (sha256 %s)", f.Server, f.Path, short(f.New))
	case f.New == "":
		return fmt.Sprintf("- MCP server %s no longer runs %s", f.Server, f.Path)
	}
	return fmt.Sprintf("~ MCP server %s: %s changed (sha256 %s → %s)", f.Server, f.Path, short(f.Old), short(f.New))
}

// hookLine shows a declared hook the way the hook list does.
func hookLine(h manifest.Hook) string {
	v := Hook{Event: h.Event, Matcher: h.Matcher, If: h.If, Argv: h.Argv, TimeoutS: h.Timeout}
	return fmt.Sprintf("%s [%s] %s (timeout %s)", v.Event, v.MatcherText(), v.ArgvText(), v.TimeoutText())
}

// effectiveTimeout is how long a hook may run, in seconds: its own
// timeout, else the Preferences default, never above hookrun.MaxTimeout.
func effectiveTimeout(own int, def time.Duration) int {
	d := time.Duration(own) * time.Second
	if own == 0 {
		d = def
	}
	return int(min(d, hookrun.MaxTimeout) / time.Second)
}

// trustValues shows declared env or header values as written: a ${VAR}
// reference is shown as such (its value is the user's, never shown), a
// literal value of a credential-looking name is masked.
func trustValues(list []manifest.NameValue) []string {
	var out []string
	for _, nv := range list {
		v := nv.Value
		if secretName(nv.Name) && !strings.Contains(v, "${") && v != "" {
			v = "••••••"
		}
		out = append(out, nv.Name+"="+strconv.Quote(v))
	}
	return out
}

func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "AUTHORIZATION", "CREDENTIAL", "COOKIE"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// cwdText words a server's declared working directory for the trust
// prompt: the project, or a folder of the package.
func cwdText(cwd string) string {
	if strings.HasPrefix(cwd, "${CLAUDE_PROJECT_DIR}") {
		return cwd + " (the open project)"
	}
	return cwd + " (in the package)"
}
