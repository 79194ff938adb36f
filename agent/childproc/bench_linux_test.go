package childproc

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSandboxStart measures what the sandbox adds to one child
// start: the re-exec of this binary, the policy walk and the Landlock
// ruleset, against the same child started unconfined, in one run
// (BENCHMARKS.md: go test -tags migrated_fynedo -run '^$' -bench
// '^BenchmarkSandboxStart$' -benchtime 200x ./agent/childproc/).
func BenchmarkSandboxStart(b *testing.B) {
	if confined, why := SandboxStatus(); !confined {
		b.Skip(why)
	}
	dir := b.TempDir()
	start := func(b *testing.B, s Sandbox) {
		p, err := Start(context.Background(), Spec{Path: "/bin/true", Dir: dir, Sandbox: s})
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Wait(); err != nil {
			b.Fatal(err)
		}
		p.Stop()
	}
	var unconfined, confined time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		start(b, Sandbox{Unconfined: true})
		t1 := time.Now()
		start(b, Sandbox{})
		unconfined += t1.Sub(t0)
		confined += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(unconfined.Microseconds())/n/1000, "unconfined-ms/start")
	b.ReportMetric(float64(confined.Microseconds())/n/1000, "confined-ms/start")
	b.ReportMetric(float64((confined-unconfined).Microseconds())/n/1000, "added-ms/start")
}
