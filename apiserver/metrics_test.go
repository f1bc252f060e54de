package apiserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/handler/request"
)

// scrapeMetrics serves m's /metrics and returns the body.
func scrapeMetrics(t *testing.T, m *metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("/metrics: %d", rec.Code)
	}
	return rec.Body.String()
}

// serveThrough sends one request through m.instrument to a handler that
// answers code.
func serveThrough(m *metrics, method, path string, code int) {
	h := m.instrument(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }),
		func(*http.Request, *request.RequestInfo) bool { return false })
	r := httptest.NewRequest("GET", path, nil)
	r.Method = method
	info := request.NewRequestInfoFactory().NewRequestInfo(r)
	h.ServeHTTP(httptest.NewRecorder(), r.WithContext(request.WithRequestInfo(r.Context(), info)))
}

// TestMetrics_BoundedLabels: whatever methods and paths clients send, the
// series of apiserver_request_total stay the few the server can name —
// unknown methods are "other", unknown resources and 401s have no
// resource labels — as upstream's cleanVerb and installed routes bound
// them (issue 21, finding 1).
func TestMetrics_BoundedLabels(t *testing.T) {
	m := newMetrics(nil)
	m.served = func(group, version, resource, subresource string) bool {
		return group == "stable.example.com" && version == "v1" && resource == "crontabs" && (subresource == "" || subresource == "status")
	}
	for i := range 1000 {
		serveThrough(m, fmt.Sprintf("RANDOM%dMETHOD", i), "/livez", 200)
		serveThrough(m, "GET", fmt.Sprintf("/apis/g/v1/random%d", i), 404)
		serveThrough(m, "GET", fmt.Sprintf("/apis/stable.example.com/v1/namespaces/default/crontabs/x/sub%d", i), 404)
		serveThrough(m, "POST", "/apis/stable.example.com/v1/namespaces/default/crontabs", 401)
	}
	serveThrough(m, "HEAD", "/apis/stable.example.com/v1/namespaces/default/crontabs/x", 200)
	serveThrough(m, "GET", "/apis/stable.example.com/v1/namespaces/default/crontabs/x/status", 200)

	body := scrapeMetrics(t, m)
	for _, want := range []string{
		`apiserver_request_total{code="200",group="",resource="",subresource="",verb="other",version=""} 1000` + "\n",
		`apiserver_request_total{code="404",group="",resource="",subresource="",verb="LIST",version=""} 1000` + "\n",
		`apiserver_request_total{code="404",group="",resource="",subresource="",verb="GET",version=""} 1000` + "\n",
		`apiserver_request_total{code="401",group="",resource="",subresource="",verb="POST",version=""} 1000` + "\n",
		`apiserver_request_total{code="200",group="stable.example.com",resource="crontabs",subresource="",verb="GET",version="v1"} 1` + "\n",
		`apiserver_request_total{code="200",group="stable.example.com",resource="crontabs",subresource="status",verb="GET",version="v1"} 1` + "\n",
		`apiserver_request_duration_seconds_count{verb="other"} 1000` + "\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
	if n := strings.Count(body, "apiserver_request_total{"); n != 6 {
		t.Errorf("%d series, want 6:\n%s", n, body)
	}
	for _, bad := range []string{"RANDOM", "random", "sub1"} {
		if strings.Contains(body, bad) {
			t.Errorf("metrics hold %q, a label a client chose:\n%s", bad, body)
		}
	}
}

// TestMetrics_MaxSeries: even if every resource were served, the series
// stop growing at maxSeries (then only verb and code label new ones).
func TestMetrics_MaxSeries(t *testing.T) {
	m := newMetrics(nil)
	m.served = func(string, string, string, string) bool { return true }
	for i := range maxSeries + 500 {
		serveThrough(m, "GET", fmt.Sprintf("/apis/g/v1/r%d", i), 200)
	}
	if n := m.nseries.Load(); n > maxSeries+1 {
		t.Errorf("%d series, want at most %d", n, maxSeries+1)
	}
	if body := scrapeMetrics(t, m); !strings.Contains(body, `apiserver_request_total{code="200",group="",resource="",subresource="",verb="LIST",version=""} 500`+"\n") {
		t.Errorf("the requests past maxSeries are not counted without resource labels")
	}
}

// TestMetrics_ConcurrentScrape counts requests while /metrics is scraped
// (run with -race): no request waits for a scrape, and none is lost.
func TestMetrics_ConcurrentScrape(t *testing.T) {
	m := newMetrics(nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				serveThrough(m, []string{"GET", "POST", fmt.Sprintf("X%d", i%7)}[g%3], "/livez", 200+i%3)
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			scrapeMetrics(t, m)
		}
	}()
	wg.Wait()
	<-done
	body := scrapeMetrics(t, m)
	var total int
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "apiserver_request_total{") {
			var n int
			fmt.Sscanf(line[strings.LastIndexByte(line, ' ')+1:], "%d", &n)
			total += n
		}
	}
	if total != 8*500 {
		t.Errorf("%d requests counted, want %d", total, 8*500)
	}
}

// TestMetrics_Activity checks what the idle collection reads: every
// request but probes and scrapes counts as begun, and is in flight
// while it is served.
func TestMetrics_Activity(t *testing.T) {
	m := newMetrics(nil)
	var inside int64
	h := m.instrument(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, inside = m.activity()
	}), func(*http.Request, *request.RequestInfo) bool { return false })
	for _, path := range []string{"/healthz", "/livez/ping", "/readyz", "/metrics"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	if begun, inFlight := m.activity(); begun != 0 || inFlight != 0 {
		t.Fatalf("after probes and a scrape: begun %d, in flight %d; want 0, 0", begun, inFlight)
	}
	for _, path := range []string{"/apis", "/healthzz", "/apis/example.com/v1/things"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
		if inside != 1 {
			t.Errorf("%s: in flight while served %d, want 1", path, inside)
		}
	}
	if begun, inFlight := m.activity(); begun != 3 || inFlight != 0 {
		t.Fatalf("after three requests: begun %d, in flight %d; want 3, 0", begun, inFlight)
	}
}
