package storage

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// A lease held by a live process of another pid refuses a second writer,
// naming the pid; once that process is gone the lease is taken over.
func TestLeaseRefusesALiveHolderAndTakesOverADeadOne(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	p, _ := db.OpenProject(ctx, t.TempDir())
	if _, err := db.CreateSession(ctx, Session{ID: "s1", ProjectID: p.ID, Title: "t"}); err != nil {
		t.Fatal(err)
	}
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	if _, err := db.w.Exec("INSERT INTO session_leases(session_id, pid, heartbeat) VALUES('s1', ?, ?)", other.Process.Pid, now()); err != nil {
		t.Fatal(err)
	}
	_, err := db.TakeLease(ctx, "s1")
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != other.Process.Pid ||
		err.Error() != "session s1 is in use by another AgentDesk window or run (pid "+itoa(other.Process.Pid)+")" {
		t.Fatalf("second writer: %v", err)
	}
	if pid, _ := db.LeaseHolder(ctx, "s1"); pid != other.Process.Pid {
		t.Fatalf("holder = %d", pid)
	}
	other.Process.Kill()
	other.Wait()
	l, err := db.TakeLease(ctx, "s1")
	if err != nil {
		t.Fatalf("a dead holder's lease was not taken over: %v", err)
	}
	var pid int
	db.r.QueryRow("SELECT pid FROM session_leases WHERE session_id = 's1'").Scan(&pid)
	if pid != os.Getpid() {
		t.Fatalf("lease pid = %d", pid)
	}
	l.Release()
	if err := db.r.QueryRow("SELECT pid FROM session_leases").Scan(&pid); err == nil {
		t.Fatal("a released lease left its row")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
