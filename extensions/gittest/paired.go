package gittest

import (
	"cmp"
	"slices"
	"testing"
	"time"
)

// Paired collects timings of two contenders run alternately in one
// benchmark, so load from elsewhere on the machine hits both alike (the
// install, dispatch and MCP benchmarks use it).
type Paired struct {
	ours, yardstick []time.Duration
}

// Run times ours and yardstick once each, alternating which goes first.
func (p *Paired) Run(ours, yardstick func() time.Duration) {
	if len(p.ours)%2 == 0 {
		p.ours = append(p.ours, ours())
		p.yardstick = append(p.yardstick, yardstick())
		return
	}
	p.yardstick = append(p.yardstick, yardstick())
	p.ours = append(p.ours, ours())
}

// Report reports both medians in milliseconds under the given names, the
// median of the pairwise differences (added-ms) and of the pairwise
// ratios (ratio).
func (p *Paired) Report(b *testing.B, oursName, yardstickName string) {
	added := make([]time.Duration, len(p.ours))
	ratios := make([]float64, len(p.ours))
	for i := range p.ours {
		added[i] = p.ours[i] - p.yardstick[i]
		ratios[i] = float64(p.ours[i]) / float64(p.yardstick[i])
	}
	b.ReportMetric(millis(median(p.ours)), oursName+"-median-ms")
	b.ReportMetric(millis(median(p.yardstick)), yardstickName+"-median-ms")
	b.ReportMetric(millis(median(added)), "added-ms")
	b.ReportMetric(median(ratios), "ratio")
}

func median[T cmp.Ordered](samples []T) T {
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
