package childproc

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSandboxStart measures what the sandbox adds to one child
// start, against the same child started unconfined, in one run: the
// ruleset built here plus the exec of HelperName (what AgentDesk ships),
// and the same through the re-exec of this binary, the fallback
// (BENCHMARKS.md: go test -tags migrated_fynedo -run '^$' -bench
// '^BenchmarkSandboxStart$' -benchtime 200x ./agent/childproc/).
func BenchmarkSandboxStart(b *testing.B) {
	if confined, why := SandboxStatus(); !confined {
		b.Skip(why)
	}
	helper := buildHelper(b)
	old := helperPath
	b.Cleanup(func() { helperPath = old })
	dir := b.TempDir()
	start := func(b *testing.B, s Sandbox, through string) time.Duration {
		helperPath = func() string { return through }
		t0 := time.Now()
		p, err := Start(context.Background(), Spec{Path: "/bin/true", Dir: dir, Sandbox: s})
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Wait(); err != nil {
			b.Fatal(err)
		}
		p.Stop()
		return time.Since(t0)
	}
	var unconfined, viaHelper, viaReExec time.Duration
	for i := 0; i < b.N; i++ {
		unconfined += start(b, Sandbox{Unconfined: true}, helper)
		viaHelper += start(b, Sandbox{}, helper)
		viaReExec += start(b, Sandbox{}, "")
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
	b.ReportMetric(ms(unconfined), "unconfined-ms/start")
	b.ReportMetric(ms(viaHelper), "confined-ms/start")
	b.ReportMetric(ms(viaHelper-unconfined), "added-ms/start")
	b.ReportMetric(ms(viaReExec-unconfined), "added-by-reexec-ms/start")
}
