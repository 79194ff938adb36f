package extensions

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/marketplace"
)

// UpdateCheck is what checking an extension for updates found. Checking
// reads the remote's refs only: nothing is downloaded or installed, and
// updating stays the explicit Update.
type UpdateCheck struct {
	ID        string `json:"id"`
	Ref       string `json:"ref"` // the ref the extension follows; "" is the default branch
	Current   string `json:"current"`
	Latest    string `json:"latest"`
	Available bool   `json:"available"`
	// Pinned: the ref is a commit, so nothing newer can come from it; an
	// update with another ref moves it.
	Pinned bool `json:"pinned"`
}

// CheckUpdate asks the extension's remote which commit its ref names now.
func (m *Manager) CheckUpdate(ctx context.Context, id string) (UpdateCheck, error) {
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return UpdateCheck{}, notInstalled(id, err)
	}
	c := UpdateCheck{ID: id, Ref: e.RequestedRef, Current: e.ActiveCommit, Latest: e.ActiveCommit}
	if isCommitRef(e.RequestedRef) {
		c.Pinned = true
		return c, nil
	}
	url, ref := e.SourceURL, e.RequestedRef
	if src, ok := remoteSource(e.PluginSource); ok {
		// A marketplace entry in another repository: its commits are there.
		if src.SHA != "" {
			c.Pinned = true
			return c, nil
		}
		url, ref = src.URL, src.Ref
	}
	latest, err := gitfetch.Resolve(ctx, url, ref, m.fetch...)
	if err != nil {
		return UpdateCheck{}, fmt.Errorf("check %s for updates: %w", id, err)
	}
	c.Latest, c.Available = latest, latest != e.ActiveCommit
	return c, nil
}

// isCommitRef reports whether ref is written as a commit hash (seven or
// more hex digits), as opposed to a branch or tag name.
func isCommitRef(ref string) bool {
	if len(ref) < 7 || len(ref) > 64 {
		return false
	}
	for _, r := range ref {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
			return false
		}
	}
	return true
}

// remoteSource is a recorded marketplace source that is another repository.
func remoteSource(record string) (marketplace.Source, bool) {
	src, ok := decodeSource(record)
	return src, ok && src.Kind == marketplace.SourceGit
}
