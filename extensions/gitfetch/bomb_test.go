package gitfetch_test

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// heapPeak samples the live heap until stop is called and returns the
// highest figure seen.
func heapPeak() (stop func() uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); <-finished; return peak }
}

// TestZerosRepositoryIsRefusedBeforeInflating: a repository whose one
// file is 2 GiB of zeros is a few megabytes on the wire; it is refused
// from the blob's header, holding far less than the file's size.
func TestZerosRepositoryIsRefusedBeforeInflating(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and serves a 2 GiB blob")
	}
	const size = 2 << 30
	repo := gittest.NewRepo(t)
	repo.CommitZeros(t, "main", "zeros.bin", size)
	repo.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"ext": repo})
	stop := heapPeak()
	_, _, err := fetch(t, srv, srv.URL+"/ext.git", "")
	peak := stop()
	t.Logf("peak live heap refusing a repository with a %d MiB file of zeros: %.1f MiB", size>>20, float64(peak)/(1<<20))
	if !errors.Is(err, gitfetch.ErrTooLarge) {
		t.Fatalf("Fetch = %v, want ErrTooLarge", err)
	}
	if want := fmt.Sprintf("a blob of %d bytes, over the %d-byte limit", size, gitfetch.MaxFileBytes); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if peak > 100<<20 {
		t.Errorf("peak live heap %d MiB, want at most 100 MiB", peak>>20)
	}
}

// TestInflatedTotalIsBounded: many similar files delta-compress to a
// small pack; their inflated total is refused before it is held.
func TestInflatedTotalIsBounded(t *testing.T) {
	files := map[string]gittest.File{}
	for i := range 20 {
		files[fmt.Sprintf("f%02d", i)] = gittest.File{Body: strings.Repeat("0", 100<<10) + fmt.Sprint(i)}
	}
	srv, url := serveFiles(t, files)
	_, _, err := fetch(t, srv, url, "", gitfetch.WithLimits(gitfetch.Limits{WireBytes: 256 << 10}))
	if !errors.Is(err, gitfetch.ErrTooLarge) || !strings.Contains(err.Error(), "inflate to more than 524288 bytes") {
		t.Fatalf("Fetch = %v, want the inflated limit", err)
	}
	if _, _, err := fetch(t, srv, url, "", gitfetch.WithLimits(gitfetch.Limits{WireBytes: 2 << 20})); err != nil {
		t.Fatalf("within the inflated limit: %v", err)
	}
}
