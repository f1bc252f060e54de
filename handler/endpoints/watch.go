package endpoints

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/fields"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// minWatchTimeout is the lower bound of the timeout of a watch that asked
// for none: upstream picks a random duration in [minRequestTimeout,
// 2*minRequestTimeout) with minRequestTimeout = 30 min, spreading
// reconnects of many clients.
const minWatchTimeout = 30 * time.Minute

// watchResource serves a watch: GET ?watch=1 on a collection, or the
// deprecated /watch/ paths, whose name (/watch/<resource>/<name>) becomes a
// metadata.name field selector.
//
// Mirrors ListResource's watch branch in handlers/get.go.
func watchResource(w http.ResponseWriter, r *http.Request, s *RequestScope, name string) {
	watcher, ok := s.Storage.(registry.Watcher)
	if !ok {
		methodNotSupported(w, s, "watch")
		return
	}
	opts, listOpts, err := collectionRequest(r, s, false)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	if opts.Convert != nil && !opts.Convert.IsTable() && *opts.Convert != negotiation.PartialObjectMetadataV1 {
		// A watch carries objects, Tables or PartialObjectMetadata (the
		// metadata client's watches), nothing else.
		opts.Convert = nil
	}
	listOpts.Watch = true
	if name != "" {
		if err := selectName(listOpts, name); err != nil {
			responsewriters.WriteError(w, err)
			return
		}
	}
	timeout := minWatchTimeout + time.Duration(rand.Int64N(int64(minWatchTimeout)))
	if listOpts.TimeoutSeconds != nil {
		timeout = time.Duration(*listOpts.TimeoutSeconds) * time.Second
	}
	start := watcher.Watch
	if mw, ok := s.Storage.(registry.MetadataWatcher); ok && opts.Convert != nil && *opts.Convert == negotiation.PartialObjectMetadataV1 {
		start = mw.WatchMetadata // the metadata alone, as storage can give it
	}
	wi, err := start(r.Context(), listOpts)
	if err != nil {
		st := responsewriters.ErrorToStatus(err)
		if st.ErrStatus.Code != http.StatusGone {
			responsewriters.WriteError(w, err)
			return
		}
		// A resourceVersion already compacted: as upstream, the watch
		// starts (200) and its one event is an ERROR with the 410 Status,
		// which tells the client to list again.
		wi = newErrWatcher(&st.ErrStatus)
	}
	serveWatch(w, r, s, opts, wi, timeout)
}

// errWatcher is a watch whose only event is an ERROR carrying a Status.
//
// Mirrors newErrWatcher in k8s.io/apiserver/pkg/storage/cacher/cacher.go,
// which the cacher returns when the resourceVersion asked for is too old.
type errWatcher struct{ result chan watch.Event }

func newErrWatcher(st *metav1.Status) errWatcher {
	w := errWatcher{result: make(chan watch.Event, 1)}
	w.result <- watch.Event{Type: watch.Error, Object: st}
	close(w.result)
	return w
}

func (w errWatcher) ResultChan() <-chan watch.Event { return w.result }
func (errWatcher) Stop()                            {}

// selectName narrows a watch to the object name names: a field selector
// metadata.name=<name>, unless the one given already requires it.
//
// Mirrors the hasName branch of ListResource in handlers/get.go.
func selectName(opts *metav1.ListOptions, name string) error {
	if opts.FieldSelector == "" {
		opts.FieldSelector = "metadata.name=" + fields.EscapeValue(name)
		return nil
	}
	sel, err := fields.ParseSelector(opts.FieldSelector)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	if selected, ok := sel.RequiresExactMatch("metadata.name"); !ok || selected != name {
		return apierrors.NewBadRequest("fieldSelector metadata.name doesn't match requested name")
	}
	return nil
}

// serveWatch streams the events of wi as a chunked response: one JSON
// object {"type","object"} and a newline per event, flushed at once. It
// ends when the watch ends, the timeout passes or the client (or the
// server, shutting down) cancels the request's context.
//
// Mirrors serveWatch and (*WatchServer).HandleHTTP in handlers/watch.go.
func serveWatch(w http.ResponseWriter, r *http.Request, s *RequestScope, opts negotiation.Options, wi watch.Interface, timeout time.Duration) {
	defer wi.Stop()
	flusher, ok := w.(http.Flusher)
	if !ok {
		responsewriters.WriteError(w, errNoFlusher)
		return
	}
	// Each batch must be written and flushed within WatchWriteTimeout: a
	// client that stops reading would otherwise hold this goroutine and
	// its connection forever (storage drops its events, but a write
	// blocked on a full socket never returns).
	deadline := newWatchDeadline(w, r, s.WatchWriteTimeout)
	defer deadline.end()
	flush := func() {
		flusher.Flush()
		deadline.disarm()
	}
	w.Header().Set("Content-Type", negotiation.MediaTypeJSON)
	w.Header().Set("Transfer-Encoding", "chunked")
	deadline.arm()
	w.WriteHeader(http.StatusOK)
	flush()

	events := newEventSource(r.Context(), wi, timeout)
	defer events.close()
	for {
		ev, ok := events.wait()
		if !ok {
			return
		}
		// Write this event and whatever else is already queued, then
		// flush once: a watcher that fell behind catches up with one
		// write per batch instead of one per event.
		deadline.arm()
		for n := 0; ; n++ {
			line, err := watchLine(r, s, opts, ev)
			if err != nil {
				// The stream is open: report the failure as an ERROR event.
				st := responsewriters.ErrorToStatus(err).ErrStatus
				raw, _ := json.Marshal(&st)
				line, _ = json.Marshal(metav1.WatchEvent{Type: string(watch.Error), Object: raw})
				line = append(line, '\n')
				ev.Type = watch.Error
			}
			if _, err := w.Write(line); err != nil {
				return
			}
			if ev.Type == watch.Error {
				flush()
				return
			}
			if n == maxUnflushedEvents {
				break
			}
			var more, done bool
			if ev, more, done = events.poll(); done {
				flush()
				return
			}
			if !more {
				break
			}
		}
		flush()
	}
}

// eventSource reads a watch's events until the watch ends, the request's
// context is done or the watch's timeout passes: by polling when it is a
// watch.Poller (storage's watches: no channel per watch), else from its
// channel.
type eventSource struct {
	p  watch.Poller
	ch <-chan watch.Event
	// over is closed when the request's context is done or the timeout
	// passes; a poller is woken then too, so that waiting for an event is
	// one receive from its Ready channel, not a select of three channels
	// (once per event and watcher).
	over    chan struct{}
	cleanup []func() bool // unregister what closes over
}

func newEventSource(ctx context.Context, wi watch.Interface, timeout time.Duration) *eventSource {
	e := &eventSource{over: make(chan struct{})}
	if p, ok := wi.(watch.Poller); ok {
		e.p = p
	} else {
		e.ch = wi.ResultChan()
	}
	var once sync.Once
	end := func() {
		once.Do(func() {
			close(e.over)
			if e.p != nil {
				e.p.Wake()
			}
		})
	}
	e.cleanup = append(e.cleanup, context.AfterFunc(ctx, end))
	if timeout > 0 {
		e.cleanup = append(e.cleanup, time.AfterFunc(timeout, end).Stop)
	}
	return e
}

// close releases the context's and the timeout's hooks.
func (e *eventSource) close() {
	for _, f := range e.cleanup {
		f()
	}
}

// poll returns the next event if one is waiting; done says the watch ended.
func (e *eventSource) poll() (ev watch.Event, ok, done bool) {
	if e.p != nil {
		return e.p.TryNext()
	}
	select {
	case ev, open := <-e.ch:
		return ev, open, !open
	default:
		return watch.Event{}, false, false
	}
}

// wait returns the next event, waiting for it; false when the watch
// ended, the context is done or the timeout passed.
func (e *eventSource) wait() (watch.Event, bool) {
	if received(e.over) { // first: a stream of events must not keep an ended watch going
		return watch.Event{}, false
	}
	if e.p == nil {
		select {
		case <-e.over:
			return watch.Event{}, false
		case ev, open := <-e.ch:
			return ev, open
		}
	}
	for {
		ev, ok, done := e.p.TryNext()
		if ok || done {
			return ev, ok
		}
		<-e.p.Ready() // an event, the end of the watch, or over (Wake)
		if received(e.over) {
			return watch.Event{}, false
		}
	}
}

// received reports whether c is closed (or has a value waiting).
func received(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// watchDeadline bounds the writing of each batch of a watch stream with
// the connection's write deadline (WatchWriteTimeout; none if it is not
// positive).
//
// Over HTTP/1.x a deadline that passes while the watch is idle fails
// only a later write, so it may stay set between batches: arm renews it
// only when less than 7/8 of the timeout is left, and a batch gets at
// least that. Setting a deadline is a call into the runtime's poller and
// timers, and doing it twice per batch (set, then clear after the flush)
// was 8 % of a watch handler's CPU with one event per batch (100
// watchers of one writer's updates; perf-notes.md). Over HTTP/2 a passed
// deadline resets the stream even without a write, so there each batch
// sets it and clears it after its flush, so that an idle watch is not
// cut.
type watchDeadline struct {
	rc      *http.ResponseController
	timeout time.Duration
	lazy    bool      // HTTP/1.x: the deadline stays set between batches
	at      time.Time // the deadline set; zero if none
}

func newWatchDeadline(w http.ResponseWriter, r *http.Request, timeout time.Duration) *watchDeadline {
	return &watchDeadline{rc: http.NewResponseController(w), timeout: timeout, lazy: r.ProtoMajor == 1}
}

// arm makes the deadline bound the batch about to be written.
func (d *watchDeadline) arm() {
	if d.timeout <= 0 {
		return
	}
	now := time.Now()
	if d.lazy && d.at.Sub(now) >= d.timeout-d.timeout/8 {
		return
	}
	d.at = now.Add(d.timeout)
	_ = d.rc.SetWriteDeadline(d.at) // unsupported by some writers: no bound then
}

// disarm follows a batch's flush: it clears the deadline over HTTP/2.
func (d *watchDeadline) disarm() {
	if d.timeout > 0 && !d.lazy {
		d.clear()
	}
}

// end clears the deadline when the watch ends: an HTTP/1.x connection
// goes on to serve the client's next request.
func (d *watchDeadline) end() {
	if d.timeout > 0 && d.lazy && !d.at.IsZero() {
		d.clear()
	}
}

func (d *watchDeadline) clear() {
	d.at = time.Time{}
	_ = d.rc.SetWriteDeadline(time.Time{})
}

// DefaultWatchWriteTimeout is Config.WatchWriteTimeout's default: a
// client's socket must drain a batch of watch events within a minute.
// Upstream has no such bound (an HTTP/2 stream's flow control stalls the
// same way); crdlab adds it so that --max-watches is not used up by
// clients that stopped reading.
const DefaultWatchWriteTimeout = time.Minute

// maxUnflushedEvents bounds the events written before a flush, so that a
// watcher behind a fast writer still sees events as they come.
const maxUnflushedEvents = 64

// watchLine is the line (JSON and a newline) of one event. A custom
// resource event in plain JSON or as PartialObjectMetadata is encoded once
// for every watcher of the same scope and representation (WatchLines); the
// line is shared and must not be changed.
func watchLine(r *http.Request, s *RequestScope, opts negotiation.Options, ev watch.Event) ([]byte, error) {
	encode := func() ([]byte, error) {
		b, err := encodeWatchEvent(r, s, opts, ev)
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	if key, obj, ok := cacheable(ev, s, opts.Convert); ok && s.WatchLines != nil {
		return s.WatchLines.get(key, obj, encode)
	}
	return encode()
}

type watchError string

func (e watchError) Error() string { return string(e) }

const errNoFlusher = watchError("the response writer cannot stream (no http.Flusher)")

// encodeWatchEvent writes one event: ERROR events carry their Status as
// is; other objects are encoded for the wire, and turned into a one-row
// Table when the client asked for Tables. A client that asked for
// PartialObjectMetadata gets the object's metadata alone, taken from the
// stored object without encoding the rest (the metadata is the same in
// every version).
//
// Mirrors (*watchEncoder).Encode and watchEmbeddedEncoder in
// handlers/watch.go.
func encodeWatchEvent(r *http.Request, s *RequestScope, opts negotiation.Options, ev watch.Event) ([]byte, error) {
	var obj any
	if ev.Type == watch.Error {
		if st, ok := ev.Object.(*metav1.Status); ok {
			cp := *st
			cp.Kind, cp.APIVersion = "Status", "v1"
			obj = &cp
		} else {
			obj = ev.Object
		}
	} else if opts.Convert != nil && *opts.Convert == negotiation.PartialObjectMetadataV1 {
		partial, err := watchPartialObjectMetadata(ev.Object)
		if err != nil {
			return nil, err
		}
		obj = partial
	} else if line, ok := appendJSONEvent(s, opts, ev); ok {
		return line, nil
	} else {
		out, err := s.Encode(ev.Object)
		if err != nil {
			return nil, err
		}
		obj = out
		if opts.Convert != nil && opts.Convert.IsTable() {
			t, err := watchTable(r, s, opts, ev, out)
			if err != nil {
				return nil, err
			}
			obj = t
		}
	}
	// {"type":…,"object":…} written by hand: json.Marshal of a WatchEvent
	// would scan the object's JSON a second time to validate it.
	line := make([]byte, 0, 1024)
	line = append(line, `{"type":`...)
	line = unstructured.AppendString(line, string(ev.Type))
	line = append(line, `,"object":`...)
	var err error
	if a, ok := obj.(responsewriters.JSONAppender); ok {
		if line, err = a.AppendJSON(line); err != nil {
			return nil, err
		}
	} else {
		raw, err := json.Marshal(obj)
		if err != nil {
			return nil, err
		}
		line = append(line, raw...)
	}
	return append(line, '}'), nil
}

// appendJSONEvent writes a watch event in plain JSON with the scope's
// AppendJSON: the object's JSON is appended to the event's own buffer
// (one allocation of its size, not a buffer of the object's and an event
// buffer grown by doubling to hold a copy of it); ok false if AppendJSON
// does not write this object.
func appendJSONEvent(s *RequestScope, opts negotiation.Options, ev watch.Event) ([]byte, bool) {
	if s.AppendJSON == nil || opts.Convert != nil {
		return nil, false
	}
	head := make([]byte, 0, 64)
	head = append(head, `{"type":`...)
	head = unstructured.AppendString(head, string(ev.Type))
	head = append(head, `,"object":`...)
	line, ok := s.AppendJSON(head, ev.Object)
	if !ok {
		return nil, false
	}
	return append(line, '}'), true
}

// watchPartialObjectMetadata is the PartialObjectMetadata of a watch
// event's stored object, to be encoded at once. A custom resource's is
// written from its metadata map as it is — shared with storage, only read
// — by the unstructured encoder (partialMetadataJSON); a built-in
// object's metadata is copied (asPartialObjectMetadata).
func watchPartialObjectMetadata(obj scheme.Object) (any, error) {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		return partialMetadataJSON{metadata: o.Object["metadata"]}, nil
	case rawMetadata:
		return partialMetadataRaw(o.RawMetadata()), nil
	}
	m, ok := metav1.Accessor(obj)
	if !ok {
		return nil, fmt.Errorf("%T has no metadata", obj)
	}
	return asPartialObjectMetadata(m, metav1.SchemeGroupVersion), nil
}

// partialMetadataJSON writes a custom resource's PartialObjectMetadata:
// the bytes of the Unstructured {apiVersion, kind, metadata} (its keys in
// that order), without building it for each event of the garbage
// collector's watches.
type partialMetadataJSON struct{ metadata any }

const partialMetadataHead = `{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":`

func (p partialMetadataJSON) AppendJSON(dst []byte) ([]byte, error) {
	dst, err := unstructured.AppendJSON(append(dst, partialMetadataHead...), p.metadata)
	return append(dst, '}'), err
}

// rawMetadata is an event's object that is its metadata's JSON already:
// what storage sends a metadata-only watch (registry.MetadataWatcher,
// storage.MetadataJSON).
type rawMetadata interface{ RawMetadata() []byte }

// partialMetadataRaw writes a PartialObjectMetadata around the JSON of its
// metadata.
type partialMetadataRaw []byte

func (p partialMetadataRaw) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(append(dst, partialMetadataHead...), p...)
	return append(dst, '}'), nil
}

// watchTable turns one watch event's object into a Table: one row, or none
// for a bookmark (which keeps only the resourceVersion).
func watchTable(r *http.Request, s *RequestScope, opts negotiation.Options, ev watch.Event, out scheme.Object) (*metav1.Table, error) {
	target := *opts.Convert
	if ev.Type == watch.Bookmark {
		t := &metav1.Table{
			TypeMeta:          metav1.TypeMeta{APIVersion: target.Group + "/" + target.Version, Kind: "Table"},
			ColumnDefinitions: []metav1.TableColumnDefinition{},
			Rows:              []metav1.TableRow{},
		}
		if m, ok := metav1.Accessor(out); ok {
			t.ResourceVersion = m.GetResourceVersion()
		}
		return t, nil
	}
	include, err := includeObjectOf(r)
	if err != nil {
		return nil, err
	}
	var lm metav1.ListMeta
	if m, ok := metav1.Accessor(out); ok {
		lm.ResourceVersion = m.GetResourceVersion()
	}
	return buildTable(r.Context(), s.tableConvertor(), []scheme.Object{out}, lm, include, target)
}
