package dispatch

import (
	"context"
	"time"

	"github.com/agentdesk/agentdesk/extensions"
)

// removalPoll is how often the registry row of an extension whose hooks
// are running is read, so a disable, uninstall or update made by another
// AgentDesk process (the CLI while the window is open) stops them here
// within a second, as one made in this process does at once.
const removalPoll = 250 * time.Millisecond

// watchRemoval stops x's hooks (and what they left running) once x is no
// longer enabled at the commit they run from. It returns when ctx ends.
func (d *Dispatcher) watchRemoval(ctx context.Context, x extensions.Active) {
	tick := time.NewTicker(removalPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if !d.reg.StillActive(ctx, x.ID, x.Commit) {
			d.stop(x.ID)
			return
		}
	}
}
