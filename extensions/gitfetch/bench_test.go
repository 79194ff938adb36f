package gitfetch_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

const (
	benchFiles    = 500
	benchFileSize = 10 << 10 // 500 x 10 KiB ~ 5 MiB
)

// serveBenchRepo serves one commit of benchFiles files of random
// (incompressible) bytes spread over 25 directories.
func serveBenchRepo(b *testing.B) (*gittest.Server, string) {
	b.Helper()
	rng := rand.New(rand.NewChaCha8([32]byte{1}))
	files := make(map[string]gittest.File, benchFiles)
	for i := range benchFiles {
		body := make([]byte, benchFileSize)
		for j := range body {
			body[j] = byte(rng.Uint32())
		}
		files[fmt.Sprintf("pkg%02d/file%03d.bin", i%25, i)] = gittest.File{Body: string(body), Mode: 0o644}
	}
	repo := gittest.NewRepo(b)
	repo.Commit(b, "main", "bench", files)
	repo.SetHEAD(b, "main")
	srv := gittest.Serve(b, map[string]*gittest.Repo{"bench": repo})
	return srv, srv.URL + "/bench.git"
}

func BenchmarkFetch5MB(b *testing.B) {
	srv, url := serveBenchRepo(b)
	base := b.TempDir()
	stop := sampleHeapPeak()
	b.SetBytes(benchFiles * benchFileSize)
	i := 0
	for b.Loop() {
		i++
		dest := filepath.Join(base, strconv.Itoa(i))
		if _, err := gitfetch.Fetch(context.Background(), url, "", dest, gitfetch.WithHTTPClient(srv.Client)); err != nil {
			b.Fatalf("Fetch: %v", err)
		}
	}
	b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MiB")
}

// BenchmarkGitClone5MB runs the git binary on the same repository, only as
// a yardstick for BenchmarkFetch5MB.
func BenchmarkGitClone5MB(b *testing.B) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		b.Skipf("git binary not found: %v", err)
	}
	srv, url := serveBenchRepo(b)
	base := b.TempDir()
	b.SetBytes(benchFiles * benchFileSize)
	i := 0
	for b.Loop() {
		i++
		cmd := exec.CommandContext(b.Context(), gitPath, "clone", "--quiet", "--depth", "1", url, filepath.Join(base, strconv.Itoa(i)))
		cmd.Env = append(os.Environ(), "GIT_SSL_CAINFO="+srv.CAFile, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0", "HOME="+base)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git clone: %v\n%s", err, out)
		}
	}
}

// heapSampleInterval is how often the heap is sampled for its peak;
// runtime/metrics reads do not stop the world, unlike ReadMemStats.
const heapSampleInterval = 2 * time.Millisecond

// sampleHeapPeak samples the bytes of live heap objects until the returned
// function is called, which reports the highest value seen.
func sampleHeapPeak() (stop func() uint64) {
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var highest uint64
		tick := time.NewTicker(heapSampleInterval)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			highest = max(highest, sample[0].Value.Uint64())
			select {
			case <-done:
				peak <- highest
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-peak
	}
}
