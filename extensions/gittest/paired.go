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
	ReportPairs(b, p.ours, p.yardstick, oursName, yardstickName, "")
}

// ReportPairs is Report for timings taken in pairs elsewhere (ours[i]
// beside yardstick[i]); a measure other than the main one names itself
// in the metrics ("exit": oursName-exit-median-ms, exit-added-ms,
// exit-ratio).
func ReportPairs(b *testing.B, ours, yardstick []time.Duration, oursName, yardstickName, measure string) {
	prefix := ""
	if measure != "" {
		prefix = measure + "-"
	}
	added := make([]time.Duration, len(ours))
	ratios := make([]float64, len(ours))
	for i := range ours {
		added[i] = ours[i] - yardstick[i]
		ratios[i] = float64(ours[i]) / float64(yardstick[i])
	}
	b.ReportMetric(Millis(Median(ours)), oursName+"-"+prefix+"median-ms")
	b.ReportMetric(Millis(Median(yardstick)), yardstickName+"-"+prefix+"median-ms")
	b.ReportMetric(Millis(Median(added)), prefix+"added-ms")
	b.ReportMetric(Median(ratios), prefix+"ratio")
}

// Median is the middle sample (the upper one of an even count).
func Median[T cmp.Ordered](samples []T) T {
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

// Millis is d in milliseconds, as the benchmarks report times.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
