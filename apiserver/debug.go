package apiserver

// This file serves what /ui shows (package ui): the trace events as
// Server-Sent Events and a snapshot of the control loop's state.
//
//	GET /debug/crdlab/events[?since=SEQ]  text/event-stream: "hello", then
//	                                      batches of trace.Events ("events"),
//	                                      "dropped" when the reader fell behind
//	GET /debug/crdlab/state               JSON: revision, workqueue depths,
//	                                      informer cache sizes, CRD conditions
//	GET /ui/                              the page (embedded; no data of its own)
//
// The /debug/crdlab paths go through the same authentication and
// authorization as the API (on a loopback listen without --token-file,
// everyone may read them); /ui/ is static and is served to anyone, as
// upstream serves /healthz and /version to unauthenticated users. Upstream
// has no such endpoints: it is a teaching aid (see package trace).

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
	"github.com/crdlab/crdlab/trace/ui"
)

// Paths of the debug endpoints.
const (
	TraceEventsPath = "/debug/crdlab/events"
	StatePath       = "/debug/crdlab/state"
	UIPath          = ui.Prefix
)

// How the event stream batches: at most one message per batchInterval,
// of at most maxBatch events, and a comment every pingInterval so that
// proxies and browsers keep an idle stream open.
const (
	batchInterval = 100 * time.Millisecond
	maxBatch      = 1000
	pingInterval  = 15 * time.Second
)

// installDebug serves the debug endpoints on mux.
func (s *Server) installDebug(mux *http.ServeMux) {
	mux.HandleFunc(TraceEventsPath, s.serveTraceEvents)
	mux.HandleFunc(StatePath, s.serveState)
}

// withUI serves /ui and /ui/ from package ui, ahead of the access filters
// (the page is static); everything else goes to h.
func withUI(h http.Handler) http.Handler {
	page := ui.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/ui":
			http.Redirect(w, r, UIPath, http.StatusMovedPermanently)
		case len(r.URL.Path) >= len(UIPath) && r.URL.Path[:len(UIPath)] == UIPath:
			page.ServeHTTP(w, r)
		default:
			h.ServeHTTP(w, r)
		}
	})
}

// serveTraceEvents streams the tracer's events as Server-Sent Events.
func (s *Server) serveTraceEvents(w http.ResponseWriter, r *http.Request) {
	tr := s.cfg.Tracer
	if !tr.Enabled() {
		responsewriters.WriteError(w, &apierrors.StatusError{ErrStatus: metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   metav1.StatusFailure, Code: http.StatusNotFound, Reason: metav1.StatusReasonNotFound,
			Message: `tracing is off: start the server with "crdlab serve --trace"`,
		}})
		return
	}
	if r.Method != http.MethodGet {
		responsewriters.WriteError(w, apierrors.NewMethodNotSupported(scheme.GroupResource{Resource: r.URL.Path}, r.Method))
		return
	}
	since := r.URL.Query().Get("since")
	if since == "" {
		since = r.Header.Get("Last-Event-ID")
	}
	var after uint64
	if since != "" {
		var err error
		if after, err = strconv.ParseUint(since, 10, 64); err != nil {
			responsewriters.WriteError(w, apierrors.NewBadRequest("since: "+strconv.Quote(since)+" is not an event number"))
			return
		}
	}
	// A stream lasts as long as the reader wants: no write deadline (the
	// front filters set one for ordinary requests), and it ends when the
	// server shuts down, as watches do.
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.watchCtx, cancel)
	defer stop()

	sub := tr.Subscribe(after, 16*maxBatch)
	defer sub.Close()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	// hello: the last event so far (a reader that asked for a since past
	// it is talking to a restarted server) and when tracing started.
	last := tr.Seq()
	if n := len(sub.Replay); n > 0 {
		last = max(last, sub.Replay[n-1].Seq)
	}
	fmt.Fprintf(w, "event: hello\ndata: {\"tracing\":true,\"seq\":%d,\"started\":%q}\n\n", last, tr.Started().UTC().Format(time.RFC3339Nano))
	send := func(batch []trace.Event) bool {
		for len(batch) > 0 {
			n := min(len(batch), maxBatch)
			data, err := json.Marshal(batch[:n])
			if err != nil {
				return false
			}
			if _, err := fmt.Fprintf(w, "id: %d\nevent: events\ndata: %s\n\n", batch[n-1].Seq, data); err != nil {
				return false
			}
			batch = batch[n:]
		}
		return true
	}
	if !send(sub.Replay) || rc.Flush() != nil {
		return
	}

	tick := time.NewTicker(batchInterval)
	defer tick.Stop()
	ping := time.NewTicker(pingInterval)
	defer ping.Stop()
	var batch []trace.Event
	var dropped uint64
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-sub.C:
			batch = append(batch, e)
			if len(batch) < maxBatch {
				continue
			}
		case <-tick.C:
			if d := sub.Dropped(); d != dropped {
				dropped = d
				if _, err := fmt.Fprintf(w, "event: dropped\ndata: {\"dropped\":%d}\n\n", d); err != nil {
					return
				}
			}
			if len(batch) == 0 {
				continue
			}
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil || rc.Flush() != nil {
				return
			}
			continue
		}
		if !send(batch) || rc.Flush() != nil {
			return
		}
		batch = batch[:0]
	}
}

// State is the body of GET /debug/crdlab/state.
type State struct {
	// Tracing says whether /debug/crdlab/events has events to stream.
	Tracing bool `json:"tracing"`
	// Revision is the storage's current revision.
	Revision int64     `json:"revision"`
	Time     time.Time `json:"time"`
	// Queues are the controllers' workqueues, by name.
	Queues []QueueState `json:"queues"`
	// Informers are the shared informers.
	Informers []InformerState `json:"informers"`
	// CRDs are the CRDs in the CRD informer's cache, by name.
	CRDs []CRDState `json:"crds"`
}

// QueueState is one workqueue's numbers.
type QueueState struct {
	Name string `json:"name"`
	// Depth is how many keys wait to be handed to a worker.
	Depth int64 `json:"depth"`
	// Adds and Retries count since the server started.
	Adds    int64 `json:"adds"`
	Retries int64 `json:"retries"`
}

// InformerState is one informer's numbers.
type InformerState struct {
	Name      string `json:"name"`
	CacheSize int    `json:"cacheSize"`
	Synced    bool   `json:"synced"`
}

// CRDState is one CRD as /ui draws it.
type CRDState struct {
	Name            string                                              `json:"name"`
	UID             string                                              `json:"uid"`
	ResourceVersion string                                              `json:"resourceVersion"`
	Generation      int64                                               `json:"generation"`
	Terminating     bool                                                `json:"terminating"`
	Group           string                                              `json:"group"`
	Plural          string                                              `json:"plural"`
	Versions        []string                                            `json:"versions"`
	Conditions      []apiextensionsv1.CustomResourceDefinitionCondition `json:"conditions"`
}

// serveState answers GET /debug/crdlab/state.
func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		responsewriters.WriteError(w, apierrors.NewMethodNotSupported(scheme.GroupResource{Resource: r.URL.Path}, r.Method))
		return
	}
	st := State{Tracing: s.cfg.Tracer.Enabled(), Time: time.Now().UTC(),
		Queues: s.queueStats.snapshot(), Informers: []InformerState{}, CRDs: []CRDState{}}
	st.Revision, _ = s.db.CurrentRevision(r.Context())
	if inf := s.controllers.crdInformer.Load(); inf != nil {
		objs := (*inf).GetStore().List()
		st.Informers = append(st.Informers, InformerState{Name: "customresourcedefinitions", CacheSize: len(objs), Synced: (*inf).HasSynced()})
		for _, o := range objs {
			crd, ok := o.(*apiextensionsv1.CustomResourceDefinition)
			if !ok {
				continue
			}
			c := CRDState{Name: crd.Name, UID: string(crd.UID), ResourceVersion: crd.ResourceVersion,
				Generation: crd.Generation, Terminating: crd.DeletionTimestamp != nil, Group: crd.Spec.Group,
				Plural: crd.Spec.Names.Plural, Versions: []string{}, Conditions: crd.Status.Conditions}
			for _, v := range crd.Spec.Versions {
				if v.Served {
					c.Versions = append(c.Versions, v.Name)
				}
			}
			if c.Conditions == nil {
				c.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{}
			}
			st.CRDs = append(st.CRDs, c)
		}
		sort.Slice(st.CRDs, func(i, j int) bool { return st.CRDs[i].Name < st.CRDs[j].Name })
	}
	w.Header().Set("Cache-Control", "no-cache")
	responsewriters.WriteJSON(w, http.StatusOK, st)
}

// queueStats is the workqueue.MetricsProvider the controllers' queues
// report to: depth, adds and retries per queue name, for /debug/crdlab/state.
type queueStats struct {
	mu     sync.Mutex
	queues map[string]*queueStat
}

type queueStat struct {
	depth, adds, retries atomic.Int64
}

func newQueueStats() *queueStats { return &queueStats{queues: map[string]*queueStat{}} }

func (q *queueStats) get(name string) *queueStat {
	q.mu.Lock()
	defer q.mu.Unlock()
	st, ok := q.queues[name]
	if !ok {
		st = &queueStat{}
		q.queues[name] = st
	}
	return st
}

func (q *queueStats) snapshot() []QueueState {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]QueueState, 0, len(q.queues))
	for name, st := range q.queues {
		out = append(out, QueueState{Name: name, Depth: st.depth.Load(), Adds: st.adds.Load(), Retries: st.retries.Load()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

type gauge struct{ v *atomic.Int64 }

func (g gauge) Inc() { g.v.Add(1) }
func (g gauge) Dec() { g.v.Add(-1) }

type noHistogram struct{}

func (noHistogram) Observe(float64) {}

func (q *queueStats) NewDepthMetric(name string) workqueue.GaugeMetric {
	return gauge{&q.get(name).depth}
}
func (q *queueStats) NewAddsMetric(name string) workqueue.CounterMetric {
	return gauge{&q.get(name).adds}
}
func (q *queueStats) NewLatencyMetric(string) workqueue.HistogramMetric      { return noHistogram{} }
func (q *queueStats) NewWorkDurationMetric(string) workqueue.HistogramMetric { return noHistogram{} }
func (q *queueStats) NewRetriesMetric(name string) workqueue.CounterMetric {
	return gauge{&q.get(name).retries}
}

var _ workqueue.MetricsProvider = (*queueStats)(nil)
