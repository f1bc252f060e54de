package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crdlab/crdlab/bench/internal/stats"
)

// CRDs is the "many CRDs" family of issue 20: real-size CRDs (internal/crdgen) created in
// bulk on fresh servers, one size after the other.
type CRDs struct {
	// KiB and Versions describe each CRD (JSON size, all versions together); PerGroup is
	// how many CRDs share an API group.
	KiB      int `json:"kib"`
	Versions int `json:"versions"`
	PerGroup int `json:"per_group"`
	// BudgetSec and BudgetRSS bound the reference's run at one size.
	BudgetSec float64 `json:"reference_budget_seconds"`
	BudgetRSS int64   `json:"reference_budget_rss_bytes"`
	Kubectl   string  `json:"kubectl,omitempty"` // why kubectl was not measured, if not
	// OpenAPIGVs is how many distinct group versions the timed OpenAPI gets
	// cycle through (0 in runs before it was recorded).
	OpenAPIGVs int `json:"openapi_group_versions,omitempty"`
	// GetsEncoding is the Accept-Encoding of the timed discovery and OpenAPI gets:
	// "gzip" (as kubectl asks) since session 25, none before.
	GetsEncoding string      `json:"gets_accept_encoding,omitempty"`
	Sizes        []*CRDsSize `json:"sizes"`
}

// CRDsSize is one size of the family.
type CRDsSize struct {
	N       int                    `json:"crds"`
	Servers map[string]*CRDsServer `json:"servers"`
	Date    string                 `json:"date"`
	Commit  string                 `json:"commit"`
	WallSec float64                `json:"wall_seconds"`
	LoadAvg [2]float64             `json:"load_average_start_end"`
}

// CRDsServer is what one server did at one size.
type CRDsServer struct {
	// BudgetStop says why the run of this size was stopped before every CRD was
	// Established, if it was.
	BudgetStop  string  `json:"budget_stop,omitempty"`
	Established int     `json:"established"`
	CreatesSec  float64 `json:"creates_answered_seconds"`
	// EstablishedSec: the first bulk create to every CRD Established (listed by
	// aggregated discovery) and served (a list of its custom resources answered 200).
	EstablishedSec float64 `json:"established_and_served_seconds"`
	// SettleSec: from the first create until the server's CPU use fell below 5% of a
	// core over 10 s; CPUSec is the server's CPU (all processes) over the same span.
	SettleSec float64 `json:"settled_seconds"`
	CPUSec    float64 `json:"cpu_seconds"`
	RSSBefore int64   `json:"rss_before_bytes"`
	RSSAfter  int64   `json:"rss_settled_bytes"`
	PeakRSS   int64   `json:"peak_rss_bytes"`
	// AnonBefore and AnonAfter are the anonymous part of RSSBefore and RSSAfter
	// (RssAnon: heaps and stacks). The rest is mostly file pages of the data files
	// (bbolt's, etcd's), mapped and touched, which the kernel may drop under pressure.
	AnonBefore int64 `json:"rss_anon_before_bytes,omitempty"`
	AnonAfter  int64 `json:"rss_anon_settled_bytes,omitempty"`
	// Latencies with every CRD present: asked as kubectl asks (Accept-Encoding: gzip)
	// when the family's GetsEncoding says so, uncompressed in runs before; the
	// aggregated document once more uncompressed (AggregatedPlain), and the last
	// aggregated body's size as received.
	Discovery            stats.Latencies `json:"discovery_apis"`
	Aggregated           stats.Latencies `json:"discovery_aggregated"`
	AggregatedBytes      int             `json:"discovery_aggregated_bytes,omitempty"`
	AggregatedPlain      stats.Latencies `json:"discovery_aggregated_uncompressed,omitzero"`
	AggregatedPlainBytes int             `json:"discovery_aggregated_uncompressed_bytes,omitempty"`
	OpenAPI              stats.Latencies `json:"openapi_v3_group_version"`
	OpenAPIBytes         int             `json:"openapi_v3_group_version_bytes"`
	KubectlMs            []float64       `json:"kubectl_api_resources_cold_ms,omitempty"`
	// CR create latency (1 client) with one CRD, then with all of them.
	CRCreate1 stats.Latencies `json:"cr_create_with_1_crd"`
	CRCreateN stats.Latencies `json:"cr_create_with_n_crds"`
	Errors    []string        `json:"errors,omitempty"`
}

// PerCRD is the resident memory each bulk-created CRD added.
func (s *CRDsServer) PerCRD(n int) float64 {
	if n <= 1 || s.RSSAfter == 0 {
		return 0
	}
	return float64(s.RSSAfter-s.RSSBefore) / float64(n-1)
}

// AnonPerCRD is the anonymous resident memory (heap, stacks: not file pages) each
// bulk-created CRD added; 0 if not measured.
func (s *CRDsServer) AnonPerCRD(n int) float64 {
	if n <= 1 || s.AnonAfter == 0 {
		return 0
	}
	return float64(s.AnonAfter-s.AnonBefore) / float64(n-1)
}

// Merge puts the sizes of c into into, replacing those of the same size. Sizes measured
// with another Accept-Encoding are dropped: their latencies are not comparable.
func (c *CRDs) Merge(into *CRDs) *CRDs {
	if into == nil || into.GetsEncoding != c.GetsEncoding {
		return c
	}
	sizes := into.Sizes
	*into = *c
	into.Sizes = sizes
	for _, sz := range c.Sizes {
		if i := slices.IndexFunc(into.Sizes, func(x *CRDsSize) bool { return x.N == sz.N }); i >= 0 {
			into.Sizes[i] = sz
		} else {
			into.Sizes = append(into.Sizes, sz)
		}
	}
	slices.SortFunc(into.Sizes, func(a, b *CRDsSize) int { return a.N - b.N })
	return into
}

// crdsTargets are issue 20's targets for many CRDs, at the largest size measured.
func (r *Results) crdsTargets() []Target {
	c := r.CRDs
	if c == nil || len(c.Sizes) == 0 {
		return nil
	}
	var ts []Target
	add := func(name, want string, got float64, measured, met bool, format string) {
		t := Target{Name: name, Want: want, Measured: measured, Met: measured && met}
		if measured {
			t.Display = fmt.Sprintf(format, got)
		}
		ts = append(ts, t)
	}
	big := c.Sizes[len(c.Sizes)-1]
	cl := big.Servers[Crdlab]
	if cl == nil {
		return nil
	}
	done := cl.BudgetStop == "" && cl.EstablishedSec > 0
	add(fmt.Sprintf("%d real-size CRDs Established and served", big.N), "≤ 60 s", cl.EstablishedSec, done, cl.EstablishedSec <= 60, "%.1f s")
	// … and against upstream's time at the largest size where it completed.
	for _, sz := range slices.Backward(c.Sizes) {
		ref, cs := sz.Servers[Reference], sz.Servers[Crdlab]
		if ref != nil && cs != nil && ref.BudgetStop == "" && cs.BudgetStop == "" && ref.EstablishedSec > 0 && cs.EstablishedSec > 0 {
			add(fmt.Sprintf("real-size CRDs Established and served at %d (the reference's largest size completed)", sz.N), "≤ 0.2× reference",
				cs.EstablishedSec/ref.EstablishedSec, true, cs.EstablishedSec <= 0.2*ref.EstablishedSec, "%.2f×")
			break
		}
	}
	// Upstream's slope at the largest size where it completed.
	var refPer, clPer, refAnon, clAnon float64
	for _, sz := range slices.Backward(c.Sizes) {
		if ref := sz.Servers[Reference]; ref != nil && ref.BudgetStop == "" && ref.RSSAfter > 0 && sz.Servers[Crdlab] != nil {
			refPer, clPer = ref.PerCRD(sz.N), sz.Servers[Crdlab].PerCRD(sz.N)
			refAnon, clAnon = ref.AnonPerCRD(sz.N), sz.Servers[Crdlab].AnonPerCRD(sz.N)
			break
		}
	}
	add("RSS per CRD", "≤ 0.1× reference", clPer/refPer, refPer > 0, refPer > 0 && clPer <= 0.1*refPer, "%.3f×")
	if refAnon > 0 && clAnon > 0 {
		add("RSS per CRD, anonymous (without the data files' pages)", "≤ 0.1× reference", clAnon/refAnon, true, clAnon <= 0.1*refAnon, "%.3f×")
	}
	add(fmt.Sprintf("discovery / aggregated / OpenAPI p99 at %d CRDs", big.N), "≤ 20 ms",
		max(cl.Discovery.P99, cl.Aggregated.P99, cl.OpenAPI.P99), done, max(cl.Discovery.P99, cl.Aggregated.P99, cl.OpenAPI.P99) <= 20, "%.1f ms")
	// Flat: each of the three p99s at the largest size within 2× of the smallest size's.
	if sm := c.Sizes[0].Servers[Crdlab]; sm != nil && c.Sizes[0].N < big.N && sm.BudgetStop == "" {
		measured := done && sm.Discovery.P99 > 0 && sm.Aggregated.P99 > 0 && sm.OpenAPI.P99 > 0
		worst := 0.0
		if measured {
			worst = max(cl.Discovery.P99/sm.Discovery.P99, cl.Aggregated.P99/sm.Aggregated.P99, cl.OpenAPI.P99/sm.OpenAPI.P99)
		}
		add(fmt.Sprintf("discovery / aggregated / OpenAPI p99, %d vs %d CRDs (the largest of the three ratios)", big.N, c.Sizes[0].N), "≤ 2×",
			worst, measured, worst <= 2, "%.2f×")
	}
	if cl.CRCreate1.P50 > 0 {
		add(fmt.Sprintf("CR create p50 with %d CRDs vs 1", big.N), "≤ 1.2×", cl.CRCreateN.P50/cl.CRCreate1.P50, done, cl.CRCreateN.P50 <= 1.2*cl.CRCreate1.P50, "%.2f×")
	}
	return ts
}

// crdsMarkdown writes the family's section of perf.md.
func (r *Results) crdsMarkdown(b *strings.Builder) {
	c := r.CRDs
	if c == nil || len(c.Sizes) == 0 {
		return
	}
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## Many CRDs (issue 20)\n\n")
	p("Real-size CRDs from internal/crdgen (provider-shaped, %d KiB of JSON each, %d versions, %d per API group), "+
		"created by 4 clients on fresh servers, one size after the other (the order alternates between sizes). "+
		"The reference runs within a budget of %.0f s and %.1f GiB per size; a budget stop is reported as such. "+
		"Reproduce: `go -C bench run ./cmd/crdbench -phases crds [-crds-sizes 100,500,2000]`.\n\n",
		c.KiB, c.Versions, c.PerGroup, c.BudgetSec, float64(c.BudgetRSS)/(1<<30))
	p("RSS per CRD is the whole resident set's slope (VmRSS, all of the server's processes); " +
		"its anonymous part (RssAnon: heaps, stacks) leaves out the data files' pages (bbolt's, etcd's) " +
		"that are mapped and were touched: the kernel may drop those and read them again. " +
		"RSS peak is the sum of each process's VmHWM (the reference's two processes may peak at " +
		"different moments), read when every CRD is Established and, since session 24, again once the " +
		"size has settled: the memory to provision for such a burst.\n\n")
	if gets, crs := c.samples(); gets > 0 && c.OpenAPIGVs > 0 {
		asked := "uncompressed"
		if c.GetsEncoding != "" {
			asked = "asked as kubectl asks (`Accept-Encoding: " + c.GetsEncoding + "`: the reference compresses an answer over 128 KiB, " +
				"crdlab its OpenAPI documents at any size and its `/apis` documents over 128 KiB, or at any size since session 32) " +
				"and timed to the last byte received, not decompressed; aggregated discovery is timed again uncompressed (in brackets, " +
				"with the document's size as received)"
		}
		p("Each p99 is over %d timed gets by one client, %s, each body read whole into one buffer the client keeps "+
			"(OpenAPI: cycling through %d group versions, each fetched once before); "+
			"each CR create p50 over %d creates by one client, with the first CRD served and again "+
			"after the size has settled.\n\n", gets, asked, c.OpenAPIGVs, crs)
	}
	p("| CRDs | server | Established + served | creates answered | settled | CPU | RSS settled | RSS peak | RSS per CRD (anonymous) | /apis p99 | aggregated p99 | OpenAPI G/V p99 | kubectl api-resources (cold) | CR create p50, 1 CRD → N | load |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, sz := range c.Sizes {
		for _, name := range []string{Reference, Crdlab} {
			s := sz.Servers[name]
			if s == nil {
				continue
			}
			est := fmt.Sprintf("%.1f s", s.EstablishedSec)
			if s.BudgetStop != "" {
				est = "budget stop: " + s.BudgetStop
			}
			oa := fmt.Sprintf("%.1f ms (%.0f KB)", s.OpenAPI.P99, float64(s.OpenAPIBytes)/1e3)
			switch {
			case s.OpenAPI.N == 0:
				oa = "-" // not measured (a budget stop)
			case s.OpenAPIBytes == 0:
				oa = fmt.Sprintf("%.1f ms (an empty answer: 200 with no body)", s.OpenAPI.P99)
				if slices.ContainsFunc(s.Errors, func(e string) bool { return strings.HasPrefix(e, OpenAPISizeError) }) {
					oa = fmt.Sprintf("%.1f ms (size not recorded: the sized GET failed)", s.OpenAPI.P99)
				}
			}
			kc := "-"
			if len(s.KubectlMs) > 0 {
				kc = fmt.Sprintf("%.0f ms", s.KubectlMs[len(s.KubectlMs)/2])
			}
			peak := "-"
			if s.PeakRSS > 0 {
				peak = fmt.Sprintf("%.2f GiB", float64(s.PeakRSS)/(1<<30))
			}
			per := fmt.Sprintf("%.2f MiB", s.PerCRD(sz.N)/(1<<20))
			if s.AnonAfter > 0 {
				per += fmt.Sprintf(" (%.2f)", s.AnonPerCRD(sz.N)/(1<<20))
			}
			agg := fmt.Sprintf("%.1f ms", s.Aggregated.P99)
			if s.AggregatedBytes > 0 && s.AggregatedPlainBytes > 0 {
				agg = fmt.Sprintf("%.1f ms, %s (uncompressed: %.1f ms, %s)", s.Aggregated.P99, kb(s.AggregatedBytes),
					s.AggregatedPlain.P99, kb(s.AggregatedPlainBytes))
			}
			p("| %d | %s | %s | %.1f s | %.1f s | %.0f s | %.2f GiB | %s | %s | %.1f ms | %s | %s | %s | %.1f → %.1f ms | %.1f–%.1f |\n",
				sz.N, name, est, s.CreatesSec, s.SettleSec, s.CPUSec, float64(s.RSSAfter)/(1<<30), peak, per,
				s.Discovery.P99, agg, oa, kc,
				s.CRCreate1.P50, s.CRCreateN.P50, sz.LoadAvg[0], sz.LoadAvg[1])
		}
	}
	if c.Kubectl != "" {
		p("\nkubectl api-resources was not measured: %s\n", c.Kubectl)
	}
	for _, sz := range c.Sizes {
		for _, name := range []string{Reference, Crdlab} {
			if s := sz.Servers[name]; s != nil && len(s.Errors) > 0 {
				p("\n%s at %d CRDs: %s\n", name, sz.N, strings.Join(s.Errors, "; "))
			}
		}
	}
	p("\n")
}

// samples returns how many timed gets and CR creates a size's figures are
// over (one server's at the first size that has them: every size and
// server use the same), zero if none has them.
func (c *CRDs) samples() (gets, crs int) {
	for _, sz := range c.Sizes {
		for _, s := range sz.Servers {
			if s != nil && s.Discovery.N > 0 {
				return s.Discovery.N, s.CRCreate1.N
			}
		}
	}
	return 0, 0
}

// OpenAPISizeError begins the error recorded when the sized GET of a group version's
// OpenAPI document failed.
const OpenAPISizeError = "the OpenAPI document's size"

// kb writes a size in KB (MB from 1 MB up).
func kb(n int) string {
	if n >= 1e6 {
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.0f KB", float64(n)/1e3)
}
