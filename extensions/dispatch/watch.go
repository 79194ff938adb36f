package dispatch

import (
	"context"
	"time"

	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/servers"
)

// watchRemoval stops x's hooks (and what they left running) once x is no
// longer enabled at the commit they run from, polling its registry row
// every servers.RemovalPoll: another AgentDesk process (the CLI while
// the window is open) may have disabled, removed or updated it. It returns when ctx ends.
func (d *Dispatcher) watchRemoval(ctx context.Context, x extensions.Active) {
	tick := time.NewTicker(servers.RemovalPoll)
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
