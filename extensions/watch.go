package extensions

import (
	"context"
	"errors"
	"time"

	"github.com/agentdesk/agentdesk/storage"
)

// removalPoll is how often the registry row of an extension whose hooks
// are running is read, so a disable, uninstall or update made by another
// AgentDesk process (the CLI while the window is open) stops them here
// within a second, as one made in this process does at once.
const removalPoll = 250 * time.Millisecond

// watchRemoval stops x's hooks (and what they left running) once x is no
// longer enabled at the commit they run from. It returns when ctx ends.
func (d *Dispatcher) watchRemoval(ctx context.Context, x active) {
	tick := time.NewTicker(removalPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if !d.stillActive(ctx, x) {
			d.stop(x.id)
			return
		}
	}
}

// stillActive reads x's registry row. A read that fails for another
// reason than a missing row proves nothing, so the hooks go on.
func (d *Dispatcher) stillActive(ctx context.Context, x active) bool {
	e, err := d.m.db.Extension(ctx, x.id)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return false
	case err != nil:
		return true
	}
	return e.Enabled && e.ReviewReason == "" && e.ActiveCommit == x.commit
}
