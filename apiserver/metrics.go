package apiserver

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crdlab/crdlab/apiserver/limits"
	"github.com/crdlab/crdlab/handler/request"
)

// metrics are the few numbers /metrics exposes, in the Prometheus text
// format, written by hand (no client library): requests by verb, resource
// and code; long-running requests (watches) open now; request latency
// sums; the storage revision.
//
// Every label is bounded by construction, as upstream's are, so that no
// request, however odd, can add a series of its own: the verb is one of
// reportedVerbs or "other" (cleanVerb); the group, version, resource and
// subresource are recorded only for a resource the server serves (served,
// the discovery state) and never for a 401, so an unknown path or an
// unauthenticated request adds nothing; the code is the answer's status.
// A request is counted without a lock: the series are in a sync.Map of
// atomic counters, the latencies in a fixed array indexed by verb. A
// scrape reads them without stopping anyone and sorts only the series'
// precomputed label strings.
//
// Mirrors (a small part of) k8s.io/apiserver/pkg/endpoints/metrics:
// apiserver_request_total, apiserver_longrunning_requests,
// apiserver_request_duration_seconds (sum and count only), and the label
// hygiene of cleanVerb and validRequestMethods.
type metrics struct {
	start time.Time
	// revision reads the current storage revision.
	revision func(ctx context.Context) (int64, error)
	// served reports whether group/version/resource[/subresource] is
	// served now; only then are the resource labels recorded. Nil: never.
	served func(group, version, resource, subresource string) bool

	// requests maps a requestLabels to its *series. Series are only
	// added, and at most maxSeries of them (then the resource labels
	// are dropped, which leaves a set bounded by verbs × codes).
	requests sync.Map
	// nseries counts the entries of requests.
	nseries atomic.Int64
	// durations sums the latency of finished non-watch requests, by the
	// index of their verb in reportedVerbs.
	durations [len(reportedVerbs)]durationSum

	// watches is the number of long-running requests being served now.
	watches atomic.Int64
	// begun counts the requests begun, health probes and /metrics
	// scrapes excepted (isProbe); inFlight is how many of them that are
	// not long-running are being served now. The idle collection reads
	// them (idlegc.go: a server is idle when neither moves).
	begun    atomic.Uint64
	inFlight atomic.Int64
	// limits, if set, reads the max-in-flight state (apiserver/limits).
	limits func() limits.Stats
}

type requestLabels struct {
	verb, group, version, resource, subresource, code string
}

// series is one line of apiserver_request_total: its labels, rendered
// once, and its count.
type series struct {
	labels string
	n      atomic.Uint64
}

type durationSum struct {
	nanos atomic.Int64
	count atomic.Uint64
}

// maxSeries bounds apiserver_request_total's series even with thousands
// of CRDs: past it, new label sets lose their resource labels.
const maxSeries = 20000

// reportedVerbs are the verb labels; anything else is "other" (the last).
//
// Mirrors validRequestMethods in endpoints/metrics/metrics.go (upstream
// also folds HEAD into GET, and has CONNECT and PROXY, which crdlab does
// not serve).
var reportedVerbs = [...]string{"APPLY", "DELETE", "DELETECOLLECTION", "GET", "LIST", "PATCH", "POST", "PUT", "WATCH", "other"}

func newMetrics(revision func(ctx context.Context) (int64, error)) *metrics {
	return &metrics{start: time.Now(), revision: revision}
}

// verbIndex is the index in reportedVerbs of a request's verb label:
// LIST, WATCH and DELETECOLLECTION for those resource verbs, APPLY for a
// server-side apply, else the HTTP method (HEAD as GET), and "other" for
// any method not in the list.
//
// Mirrors cleanVerb, CleanVerb and CanonicalVerb in endpoints/metrics.
func verbIndex(r *http.Request, info *request.RequestInfo) int {
	verb := r.Method
	if info != nil && info.IsResourceRequest {
		switch info.Verb {
		case "list", "watch", "deletecollection":
			verb = strings.ToUpper(info.Verb)
		}
		if r.Method == http.MethodPatch && strings.HasPrefix(r.Header.Get("Content-Type"), "application/apply-patch+yaml") {
			verb = "APPLY"
		}
	}
	if verb == http.MethodHead {
		verb = http.MethodGet
	}
	for i, v := range reportedVerbs[:len(reportedVerbs)-1] {
		if v == verb {
			return i
		}
	}
	return len(reportedVerbs) - 1
}

// instrument wraps h to count every request, as its RequestInfo (from
// withRequestInfo) names it. long says whether a request is long-running
// (a watch, the event stream): it is counted in the gauge, not in the
// latencies.
func (m *metrics) instrument(h http.Handler, long func(*http.Request, *request.RequestInfo) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := request.RequestInfoFrom(r.Context())
		if !ok {
			info = &request.RequestInfo{Path: r.URL.Path, Verb: strings.ToLower(r.Method)}
		}
		verb := verbIndex(r, info)
		isLong := long(r, info)
		if isLong {
			m.watches.Add(1)
			defer m.watches.Add(-1)
		}
		if !isProbe(r.URL.Path) {
			m.begun.Add(1)
			if !isLong {
				m.inFlight.Add(1)
				defer m.inFlight.Add(-1)
			}
		}
		start := time.Now()
		rw := &statusRecorder{ResponseWriter: w}
		defer func() {
			code := rw.code()
			m.count(verb, info, code)
			if !isLong {
				d := &m.durations[verb]
				d.nanos.Add(int64(time.Since(start)))
				d.count.Add(1)
			}
		}()
		h.ServeHTTP(rw, r)
	})
}

// isProbe reports whether path is a health probe's or a /metrics
// scrape's: polled by monitoring, not work a client waits for.
func isProbe(path string) bool {
	for _, p := range []string{"/healthz", "/livez", "/readyz", "/metrics"} {
		if rest, ok := strings.CutPrefix(path, p); ok && (rest == "" || rest[0] == '/') {
			return true
		}
	}
	return false
}

// activity returns the requests begun so far and those in flight now
// (idleGC.requests).
func (m *metrics) activity() (begun uint64, inFlight int64) {
	return m.begun.Load(), m.inFlight.Load()
}

// count adds one to the series of a finished request.
func (m *metrics) count(verb int, info *request.RequestInfo, code int) {
	l := requestLabels{verb: reportedVerbs[verb], code: strconv.Itoa(code)}
	if info.IsResourceRequest && code != http.StatusUnauthorized && m.served != nil &&
		m.served(info.APIGroup, info.APIVersion, info.Resource, info.Subresource) {
		l.group, l.version, l.resource, l.subresource = info.APIGroup, info.APIVersion, info.Resource, info.Subresource
	}
	if s, ok := m.requests.Load(l); ok {
		s.(*series).n.Add(1)
		return
	}
	if m.nseries.Load() >= maxSeries {
		l.group, l.version, l.resource, l.subresource = "", "", "", ""
	}
	s, loaded := m.requests.LoadOrStore(l, &series{labels: fmt.Sprintf("code=%q,group=%q,resource=%q,subresource=%q,verb=%q,version=%q",
		l.code, l.group, l.resource, l.subresource, l.verb, l.version)})
	if !loaded {
		m.nseries.Add(1)
	}
	s.(*series).n.Add(1)
}

// ServeHTTP writes the metrics in the Prometheus text format 0.0.4.
func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder

	var reqs []*series
	m.requests.Range(func(_, v any) bool {
		reqs = append(reqs, v.(*series))
		return true
	})
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].labels < reqs[j].labels })
	b.WriteString("# HELP apiserver_request_total Counter of apiserver requests broken out for each verb, group, version, resource, subresource and HTTP response code.\n")
	b.WriteString("# TYPE apiserver_request_total counter\n")
	for _, s := range reqs {
		fmt.Fprintf(&b, "apiserver_request_total{%s} %d\n", s.labels, s.n.Load())
	}
	b.WriteString("# HELP apiserver_request_duration_seconds Response latency of non-long-running requests, by verb (sum and count only).\n")
	b.WriteString("# TYPE apiserver_request_duration_seconds summary\n")
	verbs := reportedVerbs[:]
	order := make([]int, len(verbs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return verbs[order[i]] < verbs[order[j]] })
	for _, i := range order {
		d := &m.durations[i]
		n := d.count.Load()
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, "apiserver_request_duration_seconds_sum{verb=%q} %g\n", verbs[i], time.Duration(d.nanos.Load()).Seconds())
		fmt.Fprintf(&b, "apiserver_request_duration_seconds_count{verb=%q} %d\n", verbs[i], n)
	}

	b.WriteString("# HELP apiserver_longrunning_requests Gauge of all active long-running apiserver requests (watches and the event stream).\n")
	b.WriteString("# TYPE apiserver_longrunning_requests gauge\n")
	fmt.Fprintf(&b, "apiserver_longrunning_requests{verb=\"WATCH\"} %d\n", m.watches.Load())

	if m.revision != nil {
		if rev, err := m.revision(r.Context()); err == nil {
			b.WriteString("# HELP crdlab_storage_revision The revision of the last acknowledged storage write (the newest resourceVersion).\n")
			b.WriteString("# TYPE crdlab_storage_revision gauge\n")
			fmt.Fprintf(&b, "crdlab_storage_revision %d\n", rev)
		}
	}
	if m.limits != nil {
		st := m.limits()
		b.WriteString("# HELP apiserver_current_inflight_requests Maximal number of currently used inflight request limit of this apiserver per request kind in last second.\n")
		b.WriteString("# TYPE apiserver_current_inflight_requests gauge\n")
		fmt.Fprintf(&b, "apiserver_current_inflight_requests{request_kind=\"mutating\"} %d\n", st.InFlight[limits.KindMutating])
		fmt.Fprintf(&b, "apiserver_current_inflight_requests{request_kind=\"readOnly\"} %d\n", st.InFlight[limits.KindReadOnly])
		b.WriteString("# HELP apiserver_dropped_requests_total Number of requests dropped with 'Try again later' response (429), by kind (watch: --max-watches).\n")
		b.WriteString("# TYPE apiserver_dropped_requests_total counter\n")
		fmt.Fprintf(&b, "apiserver_dropped_requests_total{request_kind=\"mutating\"} %d\n", st.Rejected[limits.KindMutating])
		fmt.Fprintf(&b, "apiserver_dropped_requests_total{request_kind=\"readOnly\"} %d\n", st.Rejected[limits.KindReadOnly])
		fmt.Fprintf(&b, "apiserver_dropped_requests_total{request_kind=\"watch\"} %d\n", st.Rejected[limits.KindWatch])
		b.WriteString("# HELP crdlab_fair_share_users Users holding request slots now, by kind (each holds at most its fair share, docs/access.md).\n")
		b.WriteString("# TYPE crdlab_fair_share_users gauge\n")
		b.WriteString("# HELP crdlab_fair_share_rejected_total Requests answered 429 because their user held its fair share while slots were free (part of apiserver_dropped_requests_total).\n")
		b.WriteString("# TYPE crdlab_fair_share_rejected_total counter\n")
		for _, k := range []struct {
			name string
			kind int
		}{{"mutating", limits.KindMutating}, {"readOnly", limits.KindReadOnly}, {"watch", limits.KindWatch}} {
			fmt.Fprintf(&b, "crdlab_fair_share_users{request_kind=%q} %d\n", k.name, st.Users[k.kind])
			fmt.Fprintf(&b, "crdlab_fair_share_rejected_total{request_kind=%q} %d\n", k.name, st.RejectedOverShare[k.kind])
		}
	}
	b.WriteString("# HELP go_goroutines Number of goroutines that currently exist.\n")
	b.WriteString("# TYPE go_goroutines gauge\n")
	fmt.Fprintf(&b, "go_goroutines %d\n", runtime.NumGoroutine())
	b.WriteString("# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n")
	b.WriteString("# TYPE process_start_time_seconds gauge\n")
	fmt.Fprintf(&b, "process_start_time_seconds %g\n", float64(m.start.UnixNano())/1e9)

	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

// statusRecorder remembers the status code of a response. It passes
// Flush (watch streams need it) and Hijack through, and Unwrap lets
// http.ResponseController reach the original writer.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := s.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, fmt.Errorf("apiserver: %T cannot hijack", s.ResponseWriter)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) code() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}
