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
// Mirrors (a small part of) k8s.io/apiserver/pkg/endpoints/metrics:
// apiserver_request_total, apiserver_longrunning_requests,
// apiserver_request_duration_seconds (sum and count only).
type metrics struct {
	start time.Time
	// revision reads the current storage revision.
	revision func(ctx context.Context) (int64, error)

	mu sync.Mutex // guards requests and durations
	// requests counts finished requests by label set.
	requests map[requestLabels]uint64
	// durations sums the latency of finished non-watch requests by verb.
	durations map[string]*durationSum

	// watches is the number of watches being served now.
	watches atomic.Int64
	// limits, if set, reads the max-in-flight state (apiserver/limits).
	limits func() limits.Stats
}

type requestLabels struct {
	verb, group, version, resource, subresource, code string
}

type durationSum struct {
	sum   float64
	count uint64
}

func newMetrics(revision func(ctx context.Context) (int64, error)) *metrics {
	return &metrics{
		start:     time.Now(),
		revision:  revision,
		requests:  map[requestLabels]uint64{},
		durations: map[string]*durationSum{},
	}
}

// reportedVerb is the verb label of a request: LIST, WATCH and
// DELETECOLLECTION for those resource verbs, else the HTTP method, as
// upstream's cleanVerb.
func reportedVerb(r *http.Request, info *request.RequestInfo) string {
	if info != nil && info.IsResourceRequest {
		switch info.Verb {
		case "list", "watch", "deletecollection":
			return strings.ToUpper(info.Verb)
		}
		if r.Method == http.MethodPatch && strings.HasPrefix(r.Header.Get("Content-Type"), "application/apply-patch+yaml") {
			return "APPLY"
		}
	}
	return r.Method
}

// instrument wraps h to count every request, as its RequestInfo (from
// withRequestInfo) names it.
func (m *metrics) instrument(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := request.RequestInfoFrom(r.Context())
		if !ok {
			info = &request.RequestInfo{Path: r.URL.Path, Verb: strings.ToLower(r.Method)}
		}
		verb := reportedVerb(r, info)
		long := info.LongRunning()
		if long {
			m.watches.Add(1)
			defer m.watches.Add(-1)
		}
		start := time.Now()
		rw := &statusRecorder{ResponseWriter: w}
		defer func() {
			l := requestLabels{verb: verb, code: strconv.Itoa(rw.code())}
			if info.IsResourceRequest {
				l.group, l.version, l.resource, l.subresource = info.APIGroup, info.APIVersion, info.Resource, info.Subresource
			}
			m.mu.Lock()
			m.requests[l]++
			if !long {
				d := m.durations[verb]
				if d == nil {
					d = &durationSum{}
					m.durations[verb] = d
				}
				d.sum += time.Since(start).Seconds()
				d.count++
			}
			m.mu.Unlock()
		}()
		h.ServeHTTP(rw, r)
	})
}

// ServeHTTP writes the metrics in the Prometheus text format 0.0.4.
func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder

	m.mu.Lock()
	reqs := make([]requestLabels, 0, len(m.requests))
	for l := range m.requests {
		reqs = append(reqs, l)
	}
	sort.Slice(reqs, func(i, j int) bool { return fmt.Sprint(reqs[i]) < fmt.Sprint(reqs[j]) })
	b.WriteString("# HELP apiserver_request_total Counter of apiserver requests broken out for each verb, group, version, resource, subresource and HTTP response code.\n")
	b.WriteString("# TYPE apiserver_request_total counter\n")
	for _, l := range reqs {
		fmt.Fprintf(&b, "apiserver_request_total{code=%q,group=%q,resource=%q,subresource=%q,verb=%q,version=%q} %d\n",
			l.code, l.group, l.resource, l.subresource, l.verb, l.version, m.requests[l])
	}
	verbs := make([]string, 0, len(m.durations))
	for v := range m.durations {
		verbs = append(verbs, v)
	}
	sort.Strings(verbs)
	b.WriteString("# HELP apiserver_request_duration_seconds Response latency of non-long-running requests, by verb (sum and count only).\n")
	b.WriteString("# TYPE apiserver_request_duration_seconds summary\n")
	for _, v := range verbs {
		d := m.durations[v]
		fmt.Fprintf(&b, "apiserver_request_duration_seconds_sum{verb=%q} %g\n", v, d.sum)
		fmt.Fprintf(&b, "apiserver_request_duration_seconds_count{verb=%q} %d\n", v, d.count)
	}
	m.mu.Unlock()

	b.WriteString("# HELP apiserver_longrunning_requests Gauge of all active long-running apiserver requests (watches).\n")
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
