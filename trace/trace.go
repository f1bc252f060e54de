package trace

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// The components of the diagram in /ui, in the order a write travels
// through them. Event.Component is one of these.
const (
	// Handler is the HTTP handler: filters, RequestInfo, the REST verbs
	// (handler package).
	Handler = "handler"
	// Registry is the generic REST store and its strategies (registry).
	Registry = "registry"
	// Storage is the versioned store: a write committed at a revision
	// (storage).
	Storage = "storage"
	// Watch is storage's fan-out of committed writes to watchers.
	Watch = "watch"
	// Reflector is an informer's list and watch over the client.
	Reflector = "reflector"
	// DeltaFIFO is the informer's queue of deltas.
	DeltaFIFO = "deltafifo"
	// Informer is the shared informer handing deltas to its indexer and
	// event handlers.
	Informer = "informer"
	// CRDHandler is the crdHandler's informer hooks: which CRDs are served.
	CRDHandler = "crdhandler"
	// Workqueue is a controller's rate-limited queue.
	Workqueue = "workqueue"
	// Controller is a controller's sync of one key.
	Controller = "controller"
)

// Components lists the components in travel order.
var Components = []string{Handler, Registry, Storage, Watch, Reflector, DeltaFIFO, Informer, CRDHandler, Workqueue, Controller}

// Event is one step of one component.
type Event struct {
	// Seq numbers the tracer's events from 1, in the order Emit was
	// called; Emit sets it.
	Seq uint64 `json:"seq"`
	// Time is when Emit was called, unless the caller set it.
	Time time.Time `json:"time"`
	// Component is one of the constants above.
	Component string `json:"component"`
	// Step is what the component did, one word or two: "request",
	// "response", "commit", "fanout", "event", "add", "get", "sync" …
	Step string `json:"step"`
	// Actor says which one of the component's instances: the informer,
	// queue or controller name, or the client's user agent for requests.
	Actor string `json:"actor,omitempty"`
	// Resource is the object's group resource,
	// "customresourcedefinitions.apiextensions.k8s.io" or
	// "crontabs.stable.example.com".
	Resource string `json:"resource,omitempty"`
	// Key is the object's "namespace/name", or "name" when it is
	// cluster-scoped; for queues keyed otherwise (discovery's group
	// versions), the queue's key.
	Key string `json:"key,omitempty"`
	// ResourceVersion is the object's resourceVersion after the step, if
	// it has one.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Duration is how long the step took (0: not measured), in
	// nanoseconds on the wire.
	Duration time.Duration `json:"duration,omitempty"`
	// Message says what happened, as a sentence for the narrated log.
	Message string `json:"message"`
	// Upstream is the upstream function the step mirrors, as a Go
	// qualified name: "k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop".
	Upstream string `json:"upstream,omitempty"`
	// Err is the step's error, if it failed.
	Err string `json:"error,omitempty"`
}

// Options configure a Tracer. The zero value keeps 4,096 recent events
// and logs nothing.
type Options struct {
	// History is how many recent events Recent and new subscribers get.
	// Default 4096.
	History int
	// Log, if set, gets every event as one line of Format.
	Log io.Writer
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Tracer takes events and hands them to the log, the ring of recent
// events and the subscribers. A nil *Tracer is tracing off. Its methods
// are safe for concurrent use.
type Tracer struct {
	opts Options

	mu     sync.Mutex // guards everything below
	seq    uint64
	ring   []Event // the last len(ring) events, oldest at ring[next] once full
	next   int
	full   bool
	subs   map[*Subscription]struct{}
	logBuf strings.Builder
	// started is when New made the Tracer.
	started time.Time
}

// New returns a Tracer, tracing on.
func New(opts Options) *Tracer {
	if opts.History <= 0 {
		opts.History = 4096
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Tracer{opts: opts, ring: make([]Event, opts.History), subs: map[*Subscription]struct{}{}, started: opts.Now()}
}

// Enabled reports whether tracing is on: t is not nil. Guard the making
// of an Event with it.
func (t *Tracer) Enabled() bool { return t != nil }

// Emit records e: it numbers and times it, writes it to the log, keeps
// it in the ring and hands it to every subscriber that has room. It never
// blocks on a subscriber. On a nil Tracer it does nothing.
func (t *Tracer) Emit(e Event) {
	if t == nil {
		return
	}
	if e.Time.IsZero() {
		e.Time = t.opts.Now()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	e.Seq = t.seq
	t.ring[t.next] = e
	t.next++
	if t.next == len(t.ring) {
		t.next, t.full = 0, true
	}
	for s := range t.subs {
		select {
		case s.ch <- e:
		default:
			s.dropped++
		}
	}
	if t.opts.Log != nil {
		t.logBuf.Reset()
		t.logBuf.WriteString(Format(e))
		t.logBuf.WriteByte('\n')
		io.WriteString(t.opts.Log, t.logBuf.String()) //nolint:errcheck // a log that fails loses lines, nothing else
	}
}

// Recent returns the events still in the ring whose Seq is greater than
// since, oldest first.
func (t *Tracer) Recent(since uint64) []Event {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.recentLocked(since)
}

func (t *Tracer) recentLocked(since uint64) []Event {
	var all []Event
	if t.full {
		all = append(append(all, t.ring[t.next:]...), t.ring[:t.next]...)
	} else {
		all = append(all, t.ring[:t.next]...)
	}
	i := 0
	for i < len(all) && all[i].Seq <= since {
		i++
	}
	return all[i:]
}

// Subscription is a live feed of events. Read them from C; call Close
// when done.
type Subscription struct {
	// C gets the events, in Seq order. It is closed by Close.
	C <-chan Event
	// Replay holds the events that were already in the ring after the
	// since given to Subscribe: send them before reading C.
	Replay []Event

	t       *Tracer
	ch      chan Event
	dropped uint64
	closed  bool
}

// Subscribe starts a feed of the events after since (0: every event still
// in the ring): those already emitted in Replay, the following ones on C,
// which holds up to buffer events (default 4,096) before new ones are
// dropped. On a nil Tracer it returns nil.
func (t *Tracer) Subscribe(since uint64, buffer int) *Subscription {
	if t == nil {
		return nil
	}
	if buffer <= 0 {
		buffer = 4096
	}
	s := &Subscription{t: t, ch: make(chan Event, buffer)}
	s.C = s.ch
	t.mu.Lock()
	defer t.mu.Unlock()
	s.Replay = t.recentLocked(since)
	t.subs[s] = struct{}{}
	return s
}

// Seq returns the Seq of the last event emitted (0 before the first).
func (t *Tracer) Seq() uint64 {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq
}

// Started is when the Tracer was made: a reader that reconnects can tell
// a restarted server (whose Seq starts again from 1) by it.
func (t *Tracer) Started() time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.started
}

// Subscribers returns how many subscriptions are open: how many /ui
// pages are watching.
func (t *Tracer) Subscribers() int {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.subs)
}

// Dropped returns how many events did not fit in C so far.
func (s *Subscription) Dropped() uint64 {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	return s.dropped
}

// Close ends the subscription and closes C. Closing twice is allowed.
func (s *Subscription) Close() {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	delete(s.t.subs, s)
	close(s.ch)
}

// Format renders e as one line of the narrated log:
//
//	18:20:01.234 #42 storage    commit   customresourcedefinitions.apiextensions.k8s.io crontabs.stable.example.com rv=42 (812µs): stored at revision 42 [k8s.io/apiserver/pkg/storage/etcd3.(*store).Create]
func Format(e Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s #%d %-10s %-9s", e.Time.Format("15:04:05.000"), e.Seq, e.Component, e.Step)
	if e.Actor != "" {
		fmt.Fprintf(&b, " (%s)", e.Actor)
	}
	if e.Resource != "" {
		b.WriteString(" " + e.Resource)
	}
	if e.Key != "" {
		b.WriteString(" " + e.Key)
	}
	if e.ResourceVersion != "" {
		b.WriteString(" rv=" + e.ResourceVersion)
	}
	if e.Duration > 0 {
		fmt.Fprintf(&b, " (%s)", e.Duration.Round(time.Microsecond))
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Err != "" {
		b.WriteString(" error: " + e.Err)
	}
	if e.Upstream != "" {
		b.WriteString(" [" + e.Upstream + "]")
	}
	return b.String()
}

// UpstreamURL turns an Upstream name into its pkg.go.dev address:
// "k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop" becomes
// https://pkg.go.dev/k8s.io/client-go/tools/cache#DeltaFIFO.Pop. It
// returns "" for "".
func UpstreamURL(upstream string) string {
	if upstream == "" {
		return ""
	}
	slash := strings.LastIndex(upstream, "/")
	dot := strings.Index(upstream[slash+1:], ".")
	if dot < 0 {
		return "https://pkg.go.dev/" + upstream
	}
	pkg, sym := upstream[:slash+1+dot], upstream[slash+1+dot+1:]
	sym = strings.NewReplacer("(*", "", "(", "", ")", "").Replace(sym)
	return "https://pkg.go.dev/" + pkg + "#" + sym
}

type contextKey struct{}

// WithTracer returns ctx carrying t, for code a request passes through
// that is not handed a tracer at construction (the registry's stores are
// shared by every request). With t nil it returns ctx unchanged, so that
// tracing off costs nothing here.
func WithTracer(ctx context.Context, t *Tracer) context.Context {
	if t == nil {
		return ctx
	}
	return context.WithValue(ctx, contextKey{}, t)
}

// FromContext returns the tracer WithTracer put in ctx, or nil.
func FromContext(ctx context.Context) *Tracer {
	t, _ := ctx.Value(contextKey{}).(*Tracer)
	return t
}
