package report

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/bench/internal/stats"
)

// TestCRDs checks the many-CRDs family's report: the slope per CRD, the targets against the
// reference at the largest size it completed, merging a run of the family alone, and a
// budget stop shown as such.
func TestCRDs(t *testing.T) {
	srv := func(rssBefore, rssAfter int64, estSec float64, stop string) *CRDsServer {
		return &CRDsServer{RSSBefore: rssBefore, RSSAfter: rssAfter, EstablishedSec: estSec, BudgetStop: stop,
			Discovery: stats.Latencies{P99: 5}, Aggregated: stats.Latencies{P99: 8}, OpenAPI: stats.Latencies{N: 200, P99: 3},
			CRCreate1: stats.Latencies{P50: 2}, CRCreateN: stats.Latencies{P50: 2.2}}
	}
	r := sample()
	r.CRDs = &CRDs{KiB: 265, Versions: 2, PerGroup: 8, Sizes: []*CRDsSize{
		{N: 101, Servers: map[string]*CRDsServer{Reference: srv(1<<30, 1<<30+2000<<20, 50, ""), Crdlab: srv(50<<20, 150<<20, 20, "")}},
		{N: 501, Servers: map[string]*CRDsServer{Reference: srv(1<<30, 0, 0, "time budget of 15m0s reached after 900 s, 300 of 501 Established"), Crdlab: srv(50<<20, 550<<20, 50, "")}},
	}}
	if got := r.CRDs.Sizes[0].Servers[Crdlab].PerCRD(101); got != 1<<20 {
		t.Errorf("PerCRD = %v, want 1 MiB", got)
	}
	r.CheckTargets()
	want := map[string]bool{"501 real-size CRDs Established and served": true, "RSS per CRD": true, // 1 vs 20 MiB at 101
		"discovery / aggregated / OpenAPI p99 at 501 CRDs": true, "CR create p50 with 501 CRDs vs 1": true,
		// 20 s against the reference's 50 at 101, its largest size completed.
		"real-size CRDs Established and served at 101 (the reference's largest size completed)":   false,
		"discovery / aggregated / OpenAPI p99, 501 vs 101 CRDs (the largest of the three ratios)": true}
	found := 0
	for _, tg := range r.Targets {
		if met, ok := want[tg.Name]; ok {
			found++
			if tg.Met != met {
				t.Errorf("target %q: met = %v (%s), want %v", tg.Name, tg.Met, tg.Display, met)
			}
		}
	}
	if found != len(want) {
		t.Errorf("found %d of the %d many-CRDs targets", found, len(want))
	}
	// Discovery three times slower at 501 than at 101 is not flat.
	r.CRDs.Sizes[1].Servers[Crdlab].Discovery.P99 = 15
	r.CheckTargets()
	for _, tg := range r.Targets {
		if strings.HasPrefix(tg.Name, "discovery / aggregated / OpenAPI p99, 501 vs 101") && (tg.Met || tg.Display != "3.00×") {
			t.Errorf("discovery 3× slower: %+v", tg)
		}
	}
	r.CRDs.Sizes[1].Servers[Crdlab].PeakRSS = 3 << 29
	var b strings.Builder
	r.crdsMarkdown(&b)
	if !strings.Contains(b.String(), "budget stop: time budget of 15m0s reached after 900 s, 300 of 501 Established") {
		t.Errorf("the budget stop is not in the report:\n%s", b.String())
	}
	// The peak is shown where measured, a dash where not.
	if !strings.Contains(b.String(), "| 0.54 GiB | 1.50 GiB | 1.00 MiB |") || !strings.Contains(b.String(), "| 0.15 GiB | - | 1.00 MiB |") {
		t.Errorf("the peak RSS column is not in the report:\n%s", b.String())
	}
	alone := &CRDs{KiB: 265, Sizes: []*CRDsSize{{N: 2001, Servers: map[string]*CRDsServer{Crdlab: srv(0, 1, 1, "")}}, {N: 101}}}
	merged := alone.Merge(r.CRDs)
	if len(merged.Sizes) != 3 || merged.Sizes[0].N != 101 || merged.Sizes[0].Servers != nil || merged.Sizes[2].N != 2001 {
		t.Errorf("merged sizes: %+v", merged.Sizes)
	}
	// A document of no bytes is an empty answer unless its sized GET failed.
	if !strings.Contains(b.String(), "3.0 ms (an empty answer: 200 with no body)") {
		t.Errorf("an OpenAPI answer of 0 bytes is not shown as empty:\n%s", b.String())
	}
	// A run asked with gzip replaces the sizes of a run without: not comparable.
	gz := &CRDs{KiB: 265, GetsEncoding: "gzip", Sizes: []*CRDsSize{{N: 2001}}}
	if merged := gz.Merge(alone); len(merged.Sizes) != 1 || merged.GetsEncoding != "gzip" {
		t.Errorf("merged across encodings: %+v", merged)
	}
	// Asked with gzip: the aggregated cell has both figures and both sizes.
	s := r.CRDs.Sizes[1].Servers[Crdlab] // 501 (101 was replaced by the merge)
	s.AggregatedBytes, s.AggregatedPlain, s.AggregatedPlainBytes = 150_000, stats.Latencies{P99: 12}, 2_100_000
	r.CRDs.GetsEncoding, r.CRDs.OpenAPIGVs, s.Discovery.N, s.CRCreate1.N = "gzip", 10, 100, 10
	b.Reset()
	r.crdsMarkdown(&b)
	if !strings.Contains(b.String(), "| 8.0 ms, 150 KB (uncompressed: 12.0 ms, 2.1 MB) |") || !strings.Contains(b.String(), "`Accept-Encoding: gzip`") {
		t.Errorf("the aggregated cell or the encoding is not in the report:\n%s", b.String())
	}
}
