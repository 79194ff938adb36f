//go:build unix

package extensions

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/gittest"
	"github.com/agentdesk/agentdesk/storage"
)

// Runs are stored in the order they were added, a flush waits for all of
// them, and a run whose extension is gone loses no other run.
func TestRunLogOrderFlushAndBadRecords(t *testing.T) {
	e := newTestEnv(t, map[string]*gittest.Repo{"fixture": repo(t, fixtureFiles(t))})
	info := e.install("fixture", "")
	log := newRunLog(e.db, e.m.log)
	for i := range 30 {
		id := info.ID
		if i == 10 {
			id = "uninstalled-meanwhile"
		}
		log.add(storage.HookRun{ExtensionID: id, HookKey: "k", Event: fmt.Sprintf("E%02d", i), StartedAt: time.Now()})
	}
	log.flush()
	runs, err := e.db.HookRuns(context.Background(), info.ID, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 29 {
		t.Fatalf("%d runs stored, want 29 (all but the orphan)", len(runs))
	}
	for i, r := range runs { // newest first
		want := 29 - i
		if want <= 10 {
			want--
		}
		if r.Event != fmt.Sprintf("E%02d", want) {
			t.Fatalf("run %d is %s, want E%02d: the order was lost", i, r.Event, want)
		}
	}
}
