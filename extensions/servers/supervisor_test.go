package servers

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeConn is a server connection the test ends at will.
type fakeConn struct {
	done   chan struct{}
	once   sync.Once
	err    error
	closed atomic.Bool
}

func newFakeConn() *fakeConn { return &fakeConn{done: make(chan struct{})} }

func (c *fakeConn) Done() <-chan struct{} { return c.done }
func (c *fakeConn) Err() error            { return c.err }
func (c *fakeConn) Stderr() string        { return "last words" }
func (c *fakeConn) Pid() int              { return 42 }
func (c *fakeConn) Close() error {
	c.closed.Store(true)
	c.end(nil)
	return nil
}
func (c *fakeConn) end(err error) {
	c.once.Do(func() { c.err = err; close(c.done) })
}

// starts hands out connections and counts the starts.
type starts struct {
	mu    sync.Mutex
	conns []*fakeConn
	err   error
}

func (s *starts) start(context.Context) (*fakeConn, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, "boom on stderr", s.err
	}
	c := newFakeConn()
	s.conns = append(s.conns, c)
	return c, "", nil
}

func (s *starts) n() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

func (s *starts) last() *fakeConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns[len(s.conns)-1]
}

func waitState(t *testing.T, sup *Supervisor[*fakeConn], e *Entry[*fakeConn], want State) Snapshot[*fakeConn] {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		changed := sup.Changed()
		if snap := sup.Snapshot(e); snap.State == want {
			return snap
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("state %v, want %v", sup.Snapshot(e).State, want)
		}
	}
}

// A server that ends on its own is started again within MaxRestarts,
// then stays Failed with why and its stderr; Close ends the last one and
// releases the lease once.
func TestSupervisorRestartsWithinBound(t *testing.T) {
	sup := NewSupervisor[*fakeConn](Config{MaxRestarts: 2})
	var st starts
	var leased, released atomic.Int32
	lease := func() func() { leased.Add(1); return func() { released.Add(1) } }
	key := Key{Owner: "ext", Name: "srv", Project: "/p"}
	e := sup.Ensure(key, "v1", lease, st.start)
	Wait(context.Background(), []*Entry[*fakeConn]{e})
	if snap := waitState(t, sup, e, Ready); snap.Pid != 42 || !snap.Live {
		t.Fatalf("ready snapshot %+v", snap)
	}
	if again := sup.Ensure(key, "v1", lease, st.start); again != e || st.n() != 1 {
		t.Fatal("Ensure started a running server again")
	}
	for i := 1; i <= 2; i++ {
		st.last().end(errors.New("crashed"))
		for st.n() < i+1 {
			time.Sleep(time.Millisecond)
		}
		if snap := waitState(t, sup, e, Ready); snap.Restarts != i {
			t.Fatalf("after crash %d: %+v", i, snap)
		}
	}
	st.last().end(errors.New("crashed for good"))
	snap := waitState(t, sup, e, Failed)
	if snap.Error != "crashed for good" || snap.Stderr != "last words" || st.n() != 3 {
		t.Fatalf("failed snapshot %+v after %d starts", snap, st.n())
	}
	if got := sup.Latest("ext")["srv"].State; got != Failed || got.String() != "failed" {
		t.Errorf("Latest = %v", got)
	}
	sup.Close(func(Key) bool { return true })
	if leased.Load() != 1 || released.Load() != 1 {
		t.Errorf("leased %d, released %d; want 1, 1", leased.Load(), released.Load())
	}
}

// Another version replaces a running server: the old one is closed.
func TestSupervisorNewVersionReplacesTheOld(t *testing.T) {
	sup := NewSupervisor[*fakeConn](Config{})
	var st starts
	key := Key{Owner: "ext", Name: "srv"}
	old := sup.Ensure(key, "v1", nil, st.start)
	waitState(t, sup, old, Ready)
	first := st.last()
	e := sup.Ensure(key, "v2", nil, st.start)
	waitState(t, sup, e, Ready)
	<-first.Done()
	if !first.closed.Load() {
		t.Error("the old version's server was not closed")
	}
	sup.Close(func(Key) bool { return true })
	if !st.last().closed.Load() {
		t.Error("Close left the server running")
	}
}

// A start that fails is Failed with the error and stderr; one that needs
// a sign-in waits for the user in NeedsSignIn; neither is restarted.
func TestSupervisorStartFailures(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want State
	}{{errors.New("no such program"), Failed}, {ErrNeedsSignIn, NeedsSignIn}} {
		sup := NewSupervisor[*fakeConn](Config{MaxRestarts: 3})
		st := starts{err: tt.err}
		e := sup.Ensure(Key{Owner: "ext", Name: "srv"}, "v1", nil, st.start)
		Wait(context.Background(), []*Entry[*fakeConn]{e})
		snap := sup.Snapshot(e)
		if snap.State != tt.want || snap.Live {
			t.Errorf("%v: snapshot %+v", tt.err, snap)
		}
		if tt.want == Failed && (snap.Error != "no such program" || snap.Stderr != "boom on stderr") {
			t.Errorf("failure %+v", snap)
		}
		if !sup.Announce(e, "told") || sup.Announce(e, "told") {
			t.Error("Announce must report a message once")
		}
	}
}
