package extensions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/marketplace"
	"github.com/agentdesk/agentdesk/storage"
)

// Phases the installer reports beyond gitfetch's connecting, receiving
// and writing.
const (
	PhaseValidating gitfetch.Phase = "validating"
	PhaseActivating gitfetch.Phase = "activating"
)

// Progress is an install's or update's progress.
type Progress = gitfetch.Progress

// failpoint lets crash tests kill the process at a named step of an
// install or update ("writing", "fetched", "validated", "renamed",
// "before-flip", "flipped"). It does nothing in the product.
var failpoint = func(step string) {}

// ErrDuplicate: another installed extension already has the id.
var ErrDuplicate = errors.New("an extension with this name is already installed")

// staged is a fetched and validated version waiting in staging.
type staged struct {
	st     *staging
	commit string
	pkg    *manifest.Package
	record storage.ExtensionVersion
	from   marketplace.Source // where a marketplace entry pointed
}

// fetchAndValidate downloads src into a new staging folder and validates
// it. Nothing from the package runs.
func (m *Manager) fetchAndValidate(ctx context.Context, src Source, progress func(Progress)) (*staged, error) {
	f, err := m.fetchSource(ctx, src, progress)
	if err != nil {
		return nil, err
	}
	return m.validate(f, progress)
}

// validate reads and checks the package f staged; on failure the staging
// folder is gone.
func (m *Manager) validate(f *fetched, progress func(Progress)) (*staged, error) {
	failpoint("fetched")
	report(progress, PhaseValidating)
	pkg, err := manifest.Load(f.st.dir)
	if err != nil {
		f.st.discard()
		return nil, err
	}
	pkg.Diagnostics = append(f.notes, pkg.Diagnostics...)
	body, err := encodePackage(pkg, f.st.dir)
	if err != nil {
		f.st.discard()
		return nil, err
	}
	failpoint("validated")
	return &staged{st: f.st, commit: f.commit, pkg: pkg, from: f.from, record: storage.ExtensionVersion{
		ExtensionID: pkg.Manifest.Name, Commit: f.commit, Version: pkg.Manifest.Version,
		DisplayName: displayName(pkg.Manifest), HooksHash: trustHash(pkg), Package: body}}, nil
}

func report(progress func(Progress), phase gitfetch.Phase) {
	if progress != nil {
		progress(Progress{Phase: phase})
	}
}

// moveIntoStore renames the staged folder to store/<id>/<commit>. A
// folder already there is either the same immutable commit (kept, staging
// dropped) or garbage from a crash (replaced): the caller holds the
// registry lock and the registry does not reference it.
func (m *Manager) moveIntoStore(s *staged, referenced bool) error {
	dst := m.store.versionDir(s.record.ExtensionID, s.commit)
	if referenced {
		s.st.discard()
		return nil
	}
	if err := m.store.checkVersion(s.record.ExtensionID, s.commit); err != nil {
		s.st.discard()
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	os.RemoveAll(dst)
	if err := os.Rename(s.st.dir, dst); err != nil {
		s.st.discard()
		return fmt.Errorf("move the new version into the store: %w", err)
	}
	s.st.discard()
	if err := m.store.writeFormat(s.record.ExtensionID, s.commit); err != nil {
		os.RemoveAll(dst)
		return err
	}
	failpoint("renamed")
	return nil
}

// Install fetches url at ref (branch, tag or commit; "" = default
// branch), validates it and registers it disabled. The registry insert is
// the commit point. A marketplace is a *MarketplaceError: see
// InstallFrom.
func (m *Manager) Install(ctx context.Context, url, ref string, progress func(Progress)) (Info, error) {
	return m.InstallFrom(ctx, Source{URL: url, Ref: ref}, progress)
}

// InstallFrom installs src: a plugin repository, or one plugin of a
// marketplace repository.
func (m *Manager) InstallFrom(ctx context.Context, src Source, progress func(Progress)) (Info, error) {
	url, ref := strings.TrimSpace(src.URL), strings.TrimSpace(src.Ref)
	src = Source{URL: url, Ref: ref, Plugin: strings.TrimSpace(src.Plugin)}
	s, err := m.fetchAndValidate(ctx, src, progress)
	if err != nil {
		return Info{}, fmt.Errorf("install: %w", err) // fetch errors name the URL or host
	}
	return m.register(ctx, src, s, progress)
}

// register moves the validated s into the store and inserts its registry
// row, disabled: the insert is the commit point.
func (m *Manager) register(ctx context.Context, src Source, s *staged, progress func(Progress)) (Info, error) {
	id := s.record.ExtensionID
	defer m.lockOp(id)()
	report(progress, PhaseActivating)
	err := m.withRegistryLock(func() error {
		if _, err := m.db.Extension(ctx, id); err == nil {
			s.st.discard()
			return fmt.Errorf("%w: %q (uninstall it first, or update it)", ErrDuplicate, id)
		}
		if err := m.moveIntoStore(s, false); err != nil {
			return err
		}
		failpoint("before-flip")
		err := m.db.InstallExtension(context.WithoutCancel(ctx), storage.Extension{ID: id, SourceURL: src.URL, RequestedRef: src.Ref,
			Plugin: src.Plugin, PluginSource: sourceRecord(s.from)}, s.record)
		if err != nil {
			os.RemoveAll(m.store.versionDir(id, s.commit))
			if errors.Is(err, storage.ErrExists) {
				return fmt.Errorf("%w: %q", ErrDuplicate, id)
			}
			return err
		}
		failpoint("flipped")
		return nil
	})
	if err != nil {
		return Info{}, fmt.Errorf("install %s: %w", src.URL, err)
	}
	return m.Show(ctx, id)
}

// UpdateResult says what an update did.
type UpdateResult struct {
	Info       Info
	UpToDate   bool
	OldCommit  string
	NewCommit  string
	OldVersion string
	Hooks      manifest.HookDiff
	SkillsDiff string // e.g. "+1 skill, -2 skills"; "" when unchanged
}

// Update fetches ref (or the originally requested ref) and, if it
// resolves to a new commit that validates, activates it. A hook list
// that differs from the trusted one puts the extension in needs_review.
// On any failure the active version stays as it was.
func (m *Manager) Update(ctx context.Context, id, ref string, progress func(Progress)) (UpdateResult, error) {
	defer m.lockOp(id)()
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return UpdateResult{}, notInstalled(id, err)
	}
	if err := m.store.checkWritable(id); err != nil {
		return UpdateResult{}, fmt.Errorf("update %s: %w", id, err)
	}
	if ref = strings.TrimSpace(ref); ref == "" {
		ref = e.RequestedRef
	}
	report(progress, gitfetch.PhaseConnecting)
	// A marketplace plugin's commit may be another repository's: only
	// the download tells whether it changed.
	if e.Plugin == "" {
		commit, err := gitfetch.Resolve(ctx, e.SourceURL, ref, m.fetch...)
		if err == nil && commit == e.ActiveCommit {
			info, err := m.Show(ctx, id)
			return UpdateResult{Info: info, UpToDate: true, OldCommit: commit, NewCommit: commit}, err
		}
		if err != nil && !needsDownloadToResolve(err) {
			return UpdateResult{}, fmt.Errorf("update %s: %w", id, err)
		}
	}
	s, err := m.fetchAndValidate(ctx, Source{URL: e.SourceURL, Ref: ref, Plugin: e.Plugin}, progress)
	if err != nil {
		return UpdateResult{}, fmt.Errorf("update %s: %w", id, err)
	}
	if s.commit == e.ActiveCommit {
		s.st.discard()
		if err := m.followMovedEntry(ctx, e, s); err != nil {
			return UpdateResult{}, fmt.Errorf("update %s: %w", id, err)
		}
		info, err := m.Show(ctx, id)
		return UpdateResult{Info: info, UpToDate: true, OldCommit: s.commit, NewCommit: s.commit}, err
	}
	if s.record.ExtensionID != id {
		s.st.discard()
		return UpdateResult{}, fmt.Errorf("update %s: the new version is named %q; uninstall %s and install it instead", id, s.record.ExtensionID, id)
	}
	return m.activateUpdate(ctx, e, ref, s, progress)
}

// followMovedEntry records a marketplace entry that now points to another
// repository, even one serving the very same commit: the user trusted
// the old repository, so an enabled extension goes back to review.
func (m *Manager) followMovedEntry(ctx context.Context, e storage.Extension, s *staged) error {
	reason, moved := movedRepository(e.PluginSource, s.from)
	if !moved {
		return nil
	}
	_, _, err := m.db.UpdateExtension(context.WithoutCancel(ctx), e.ID, nil, func(row *storage.Extension) error {
		row.PluginSource = sourceRecord(s.from)
		if row.Enabled {
			row.ReviewReason = reason
		}
		return nil
	})
	return err
}

// needsDownloadToResolve: a short commit that is not a branch or tag tip
// can only be found in the downloaded history.
func needsDownloadToResolve(err error) bool { return errors.Is(err, gitfetch.ErrRefNotFound) }

func (m *Manager) activateUpdate(ctx context.Context, e storage.Extension, ref string, s *staged, progress func(Progress)) (UpdateResult, error) {
	oldPkg, _, oldErr := m.version(ctx, e.ID, e.ActiveCommit)
	report(progress, PhaseActivating)
	m.removing(e.ID)
	var dropped []string
	err := m.withRegistryLock(func() error {
		if err := m.moveIntoStore(s, s.commit == e.PreviousCommit); err != nil {
			return err
		}
		failpoint("before-flip")
		var err error
		_, dropped, err = m.db.UpdateExtension(context.WithoutCancel(ctx), e.ID, &s.record, func(row *storage.Extension) error {
			row.PreviousCommit, row.ActiveCommit, row.RequestedRef = row.ActiveCommit, s.commit, ref
			row.LastError = ""
			reviewIfChanged(row, s.record.HooksHash, needsTrust(s.pkg), "the update changed its hook commands or MCP servers")
			if reason, moved := movedRepository(row.PluginSource, s.from); moved && row.Enabled {
				row.ReviewReason = reason
			}
			row.PluginSource = sourceRecord(s.from)
			return nil
		})
		if err == nil {
			failpoint("flipped")
		}
		return err
	})
	if err != nil {
		return UpdateResult{}, fmt.Errorf("update %s: %w", e.ID, err)
	}
	m.discardVersions(e.ID, dropped)
	info, err := m.Show(ctx, e.ID)
	res := UpdateResult{Info: info, OldCommit: e.ActiveCommit, NewCommit: s.commit}
	if oldErr == nil {
		res.OldVersion = oldPkg.Manifest.Version
		res.Hooks = trustDiff(oldPkg, s.pkg)
		res.SkillsDiff = skillsDiff(oldPkg, s.pkg)
	}
	return res, err
}

// reviewIfChanged puts an enabled extension back to "needs review" when
// the hooks about to become active are not the ones the user trusted.
func reviewIfChanged(row *storage.Extension, hooksHash string, hasHooks bool, reason string) {
	if row.Enabled && hasHooks && row.TrustedHash != hooksHash {
		row.ReviewReason = reason
	}
}

func skillsDiff(old, new *manifest.Package) string {
	names := map[string]int{}
	for _, s := range old.Skills {
		names[s.Name]--
	}
	for _, s := range new.Skills {
		names[s.Name]++
	}
	added, removed := 0, 0
	for _, n := range names {
		if n > 0 {
			added++
		} else if n < 0 {
			removed++
		}
	}
	if added == 0 && removed == 0 {
		return ""
	}
	return fmt.Sprintf("+%d, -%d skills", added, removed)
}
