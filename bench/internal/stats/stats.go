// Package stats turns lists of latencies into the figures crdbench reports:
// count, throughput, percentiles.
package stats

import (
	"math"
	"sort"
	"time"
)

// Latencies is a summary of a set of request latencies in milliseconds.
type Latencies struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean_ms"`
	P50  float64 `json:"p50_ms"`
	P90  float64 `json:"p90_ms"`
	P99  float64 `json:"p99_ms"`
	Max  float64 `json:"max_ms"`
	// Curve, if asked for, is the 1st, 2nd … 100th percentile.
	Curve []float64 `json:"percentiles_ms,omitempty"`
}

// SummarizeCurve is Summarize with the percentile curve.
func SummarizeCurve(ds []time.Duration) Latencies {
	l := Summarize(ds)
	if len(ds) == 0 {
		return l
	}
	l.Curve = make([]float64, 100)
	for p := 1; p <= 100; p++ {
		l.Curve[p-1] = round3(ms(Percentile(ds, float64(p))))
	}
	return l
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// Summarize summarises ds (which it sorts).
func Summarize(ds []time.Duration) Latencies {
	if len(ds) == 0 {
		return Latencies{}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return Latencies{
		N:    len(ds),
		Mean: round3(ms(sum / time.Duration(len(ds)))),
		P50:  round3(ms(Percentile(ds, 50))),
		P90:  round3(ms(Percentile(ds, 90))),
		P99:  round3(ms(Percentile(ds, 99))),
		Max:  round3(ms(ds[len(ds)-1])),
	}
}

// Percentile returns the p-th percentile (0 < p ≤ 100) of sorted by the
// nearest-rank method: the smallest value that at least p% of the values are
// less than or equal to.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	if rank < 1 {
		rank = 1
	}
	if rank > len(sorted) {
		rank = len(sorted)
	}
	return sorted[rank-1]
}

// Median returns the median of xs (which it sorts), 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Ms converts d to float milliseconds.
func Ms(d time.Duration) float64 { return ms(d) }
