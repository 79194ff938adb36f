package gitfetch_test

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
)

// BenchmarkFetchVsGitClone5MB runs Fetch and `git clone --depth 1` of the
// BenchmarkFetch5MB repository alternately in one benchmark, so load from
// elsewhere on the machine hits both alike, and reports both medians, the
// median of the pairwise ratios and Fetch's peak heap. ns/op covers both.
func BenchmarkFetchVsGitClone5MB(b *testing.B) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		b.Skipf("git binary not found: %v", err)
	}
	srv, url := serveBenchRepo(b)
	base := b.TempDir()
	fetch := func(dest string) {
		if _, err := gitfetch.Fetch(context.Background(), url, "", dest, gitfetch.WithHTTPClient(srv.Client)); err != nil {
			b.Fatalf("Fetch: %v", err)
		}
	}
	clone := func(dest string) {
		cmd := exec.CommandContext(b.Context(), gitPath, "clone", "--quiet", "--depth", "1", url, dest)
		cmd.Env = []string{"HOME=" + base, "GIT_SSL_CAINFO=" + srv.CAFile, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_TERMINAL_PROMPT=0", "PATH=" + os.Getenv("PATH")}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git clone: %v\n%s", err, out)
		}
	}
	var fetches, clones []time.Duration
	stop := sampleHeapPeak()
	for b.Loop() {
		dest := filepath.Join(base, strconv.Itoa(len(fetches)))
		var f, c time.Duration
		if len(fetches)%2 == 0 {
			f = timeRun(func() { fetch(dest + "-fetch") })
			c = timeRun(func() { clone(dest + "-clone") })
		} else {
			c = timeRun(func() { clone(dest + "-clone") })
			f = timeRun(func() { fetch(dest + "-fetch") })
		}
		fetches, clones = append(fetches, f), append(clones, c)
	}
	b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MiB")
	ratios := make([]float64, len(fetches))
	for i := range fetches {
		ratios[i] = float64(fetches[i]) / float64(clones[i])
	}
	b.ReportMetric(millis(median(fetches)), "fetch-median-ms")
	b.ReportMetric(millis(median(clones)), "clone-median-ms")
	b.ReportMetric(median(ratios), "ratio")
}

func timeRun(f func()) time.Duration {
	began := time.Now()
	f()
	return time.Since(began)
}

func median[T cmp.Ordered](samples []T) T {
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
