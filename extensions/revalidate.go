package extensions

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/storage"
)

// revalidate validates again, at start, every active version that was
// validated under older rules (manifest.RulesVersion): what AgentDesk
// decides can run may have changed (a shebang-less script now runs through
// /bin/sh, a second manifest is read, guard events run). The record is rewritten; an enabled
// extension whose runnable hooks changed goes back to review, because the
// user never saw the new list. A version whose files changed since install
// is left to the tamper check, and one that no longer validates keeps its
// record (the failure is logged).
func (m *Manager) revalidate(ctx context.Context) {
	rows, err := m.db.Extensions(ctx)
	if err != nil {
		m.log.Error("revalidate extensions", "err", err)
		return
	}
	for _, e := range rows {
		if err := m.revalidateOne(ctx, e); err != nil {
			m.log.Warn("revalidate extension", "id", e.ID, "err", err)
		}
	}
}

func (m *Manager) revalidateOne(ctx context.Context, e storage.Extension) error {
	old, _, err := m.version(ctx, e.ID, e.ActiveCommit)
	if err != nil {
		return err
	}
	if old.Rules >= manifest.RulesVersion {
		m.keepDecoded(ctx, e.ID, e.ActiveCommit, old)
		return nil
	}
	dir := m.store.versionDir(e.ID, e.ActiveCommit)
	if err := manifest.CheckStamps(dir, old.Stamps); err != nil {
		return fmt.Errorf("not revalidated, its files changed: %w", err)
	}
	fresh, err := manifest.Load(dir)
	if err != nil {
		return err
	}
	if fresh.Manifest.Name != e.ID {
		return fmt.Errorf("not revalidated: the package is now named %q", fresh.Manifest.Name)
	}
	v, err := m.db.ExtensionVersion(ctx, e.ID, e.ActiveCommit)
	if err != nil {
		return err
	}
	if v.Package, err = encodePackage(fresh, dir); err != nil {
		return err
	}
	v.HooksHash = trustHash(fresh)
	_, _, err = m.db.UpdateExtension(ctx, e.ID, &v, func(row *storage.Extension) error {
		if row.ReviewReason == "" {
			reviewIfChanged(row, v.HooksHash, needsTrust(fresh),
				"this version of AgentDesk runs more of it (its MCP servers now run; events it used to ignore, such as PreToolUse, PermissionRequest, UserPromptExpansion or Notification, now run; scripts without #! run through /bin/sh)")
		}
		return nil
	})
	return err
}
