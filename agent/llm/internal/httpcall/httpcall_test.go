package httpcall

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// keepaliveServer sends n SSE comments every d, then one event.
func keepaliveServer(t *testing.T, n int, d time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for range n {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, ": prefill\n\n")
			rc.Flush()
		}
		io.WriteString(w, "data: {}\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// call reads the whole body through the watchdog's middleware and
// returns how often it reported waiting.
func call(t *testing.T, dog *Watchdog, url string) (waits int, err error) {
	t.Helper()
	req, _ := http.NewRequestWithContext(dog.Context(), http.MethodGet, url, nil)
	client := NewHTTPClient(time.Second)
	res, err := dog.Middleware(func() { waits++ })(req, client.Do)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, err = io.ReadAll(res.Body)
	return waits, err
}

func TestKeepaliveBytesKeepACallAlivePastTheFirstByteDeadline(t *testing.T) {
	url := keepaliveServer(t, 12, 50*time.Millisecond) // 600 ms before the event
	dog := Watch(context.Background(), 300*time.Millisecond, 300*time.Millisecond)
	defer dog.Stop()
	waits, err := call(t, dog, url)
	if err != nil {
		t.Fatalf("the call died although bytes kept coming: %v (cause %v)", err, context.Cause(dog.Context()))
	}
	if waits < 12 {
		t.Fatalf("waiting reported %d times, want one per keepalive read (≥ 12)", waits)
	}
}

func TestSilenceIsClassified(t *testing.T) {
	for _, tt := range []struct {
		name      string
		keepalive int
		early     bool
	}{
		{"nothing at all", 0, true},
		{"keepalives, then silence", 1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusOK)
				for range tt.keepalive {
					io.WriteString(w, ": prefill\n\n")
				}
				http.NewResponseController(w).Flush()
				<-r.Context().Done()
			}))
			defer srv.Close()
			dog := Watch(context.Background(), 100*time.Millisecond, 100*time.Millisecond)
			defer dog.Stop()
			if _, err := call(t, dog, srv.URL); err == nil {
				t.Fatal("a silent server must fail the call")
			}
			cause, early := dog.Expired()
			if cause == nil || early != tt.early {
				t.Fatalf("Expired() = %v, %v; want a cause, early=%v", cause, early, tt.early)
			}
		})
	}
}

func TestClipKeepsOneBoundedLine(t *testing.T) {
	got := Clip("a\n\nb  " + strings.Repeat("é", MaxDetail))
	if strings.Contains(got, "\n") || len(got) > MaxDetail+len("…") || !strings.HasPrefix(got, "a b é") {
		t.Fatalf("Clip = %q", got)
	}
}
