package extensions

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/storage"
)

// unconfinedSetting names the setting that lets one extension run
// without the sandbox. Its value is the trust hash the user chose it
// under: the choice holds while they trust that same list of hooks and
// servers, and lapses with any change that needs their trust again (an
// update that changes what runs), as trust itself does.
func unconfinedSetting(id string) string { return "extension." + id + ".unconfined" }

// SetUnconfined lets the enabled, trusted extension id run its hooks, MCP
// and LSP servers with the user's full access (on), or confines them
// again (off). Whatever of it runs now is stopped, so every child it
// starts from now on, in this process and, from its next turn, in any
// other, gets the new choice.
func (m *Manager) SetUnconfined(ctx context.Context, id string, on bool) (Info, error) {
	defer m.lockOp(id)()
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return Info{}, notInstalled(id, err)
	}
	if on {
		if !e.Enabled || e.TrustedHash == "" || e.ReviewReason != "" {
			return Info{}, fmt.Errorf("%s is not enabled: enable it (and trust what it runs) first; only what you trusted can run unconfined", id)
		}
		err = m.db.SetSettings(ctx, map[string]string{unconfinedSetting(id): e.TrustedHash})
	} else {
		err = m.db.DeleteSettings(ctx, unconfinedSetting(id))
	}
	if err == nil {
		err = m.db.BumpRegistryGeneration(ctx) // Active carries the choice
	}
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", id, err)
	}
	m.removing(id)
	return m.Show(ctx, id)
}

// unconfined reports whether e may run unconfined now: the user chose it
// under the trust hash e still has.
func (m *Manager) unconfined(ctx context.Context, e storage.Extension) bool {
	v, ok, err := m.db.Setting(ctx, unconfinedSetting(e.ID))
	return err == nil && ok && v != "" && v == e.TrustedHash
}
