package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"syscall"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// ReflectorStore is where a Reflector writes what it sees: Replace after a
// list, Add/Update/Delete per watch event, Resync on the resync period. A
// DeltaFIFO is one; so is a plain Store.
//
// Mirrors k8s.io/client-go/tools/cache.ReflectorStore.
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
}

// ReflectorOptions configure a Reflector. The zero value works.
//
// Mirrors k8s.io/client-go/tools/cache.ReflectorOptions.
type ReflectorOptions struct {
	// Name names the reflector in logs.
	Name string
	// ResyncPeriod is how often the store's Resync is called; 0 never.
	ResyncPeriod time.Duration
	// UseWatchList makes the reflector first try to get the initial state
	// from a watch (sendInitialEvents=true) instead of a list; see Run.
	UseWatchList bool
	// Clock drives backoff, resync and watch durations; nil is the real
	// clock.
	Clock clock.Clock
	// Backoff paces the retries; nil is upstream's: 800ms doubling to 30s,
	// reset after 2 minutes without trouble, jitter 1.0.
	Backoff BackoffManager
	// Logger gets warnings about failed lists and watches; nil is
	// slog.Default().
	Logger *slog.Logger
	// Tracer, if not nil, gets the reflector's events (component
	// trace.Reflector, actor Name): "list", "watch", "event" and
	// "relist". Nil is tracing off. (Not upstream.)
	Tracer *trace.Tracer
}

// Reflector keeps a store in step with the server for one resource: it
// lists, then watches from the list's resourceVersion, and writes
// everything it sees into the store.
//
// Mirrors k8s.io/client-go/tools/cache.Reflector (reflector.go).
type Reflector struct {
	// Set at construction, never changed.
	lw           ListerWatcher
	store        ReflectorStore
	resyncPeriod time.Duration
	useWatchList bool
	clock        clock.Clock
	backoff      BackoffManager
	logger       *slog.Logger
	name         string
	tracer       *trace.Tracer

	// rvMu guards lastSyncResourceVersion and rvUnavailable.
	rvMu sync.RWMutex
	// lastSyncResourceVersion is the resourceVersion of the newest state
	// written to the store: the last list's, then each watch event's
	// (bookmarks included). A new watch starts from it.
	lastSyncResourceVersion string
	// rvUnavailable is true if and only if the server answered the last
	// list or watch-list at lastSyncResourceVersion with 410 Expired/Gone
	// (or "too large"), and no list has succeeded since: the next list
	// asks for the latest state ("") instead.
	rvUnavailable bool
}

// NewReflector returns a Reflector that keeps store in step with lw.
//
// Mirrors k8s.io/client-go/tools/cache.NewReflectorWithOptions.
func NewReflector(lw ListerWatcher, store ReflectorStore, opts ReflectorOptions) *Reflector {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if opts.Backoff == nil {
		opts.Backoff = NewExponentialBackoffManager(800*time.Millisecond, 30*time.Second, 2*time.Minute, 2.0, 1.0, opts.Clock)
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Name == "" {
		opts.Name = "reflector"
	}
	return &Reflector{
		lw: lw, store: store,
		resyncPeriod: opts.ResyncPeriod, useWatchList: opts.UseWatchList,
		clock: opts.Clock, backoff: opts.Backoff,
		logger: opts.Logger.With("reflector", opts.Name),
		name:   opts.Name, tracer: opts.Tracer,
	}
}

// The upstream functions the reflector's trace events name.
const (
	upstreamList        = "k8s.io/client-go/tools/cache.(*Reflector).list"
	upstreamWatchList   = "k8s.io/client-go/tools/cache.(*Reflector).watchList"
	upstreamWatch       = "k8s.io/client-go/tools/cache.(*Reflector).watch"
	upstreamHandleWatch = "k8s.io/client-go/tools/cache.handleAnyWatch"
)

// emit records one event of the reflector. Call it only when
// r.tracer.Enabled(), so that the event is not built for nothing.
func (r *Reflector) emit(step, key, rv, msg, upstream string) {
	r.tracer.Emit(trace.Event{
		Component: trace.Reflector, Step: step, Actor: r.name,
		Key: key, ResourceVersion: rv, Message: msg, Upstream: upstream,
	})
}

// errStopRequested says ctx ended while a watch was being handled.
var errStopRequested = errors.New("stop requested")

// minWatchTimeout is the shortest server-side timeout a watch asks for;
// each watch asks for a random time between it and twice it, so that many
// clients do not all rewatch at once.
const minWatchTimeout = 5 * time.Minute

// LastSyncResourceVersion is the resourceVersion the store is in step with:
// the last list's, advanced by every watch event and bookmark since. It is
// "" before the first list.
func (r *Reflector) LastSyncResourceVersion() string {
	r.rvMu.RLock()
	defer r.rvMu.RUnlock()
	return r.lastSyncResourceVersion
}

func (r *Reflector) setLastSyncResourceVersion(v string) {
	r.rvMu.Lock()
	defer r.rvMu.Unlock()
	r.lastSyncResourceVersion = v
}

func (r *Reflector) setRVUnavailable(v bool) {
	r.rvMu.Lock()
	defer r.rvMu.Unlock()
	r.rvUnavailable = v
}

// relistResourceVersion is the resourceVersion to list at: "0" (any
// recent state, cheap for the server) the first time, the last synced one
// after that, "" (the latest, a consistent read) when that one is gone.
//
// Mirrors (*Reflector).relistResourceVersion.
func (r *Reflector) relistResourceVersion() string {
	r.rvMu.RLock()
	defer r.rvMu.RUnlock()
	if r.rvUnavailable {
		return ""
	}
	if r.lastSyncResourceVersion == "" {
		return "0"
	}
	return r.lastSyncResourceVersion
}

// rewatchResourceVersion is the resourceVersion a watch-list starts at: the
// last synced one, or "" (the latest) when there is none or it is gone.
//
// Mirrors (*Reflector).rewatchResourceVersion.
func (r *Reflector) rewatchResourceVersion() string {
	r.rvMu.RLock()
	defer r.rvMu.RUnlock()
	if r.rvUnavailable {
		return ""
	}
	return r.lastSyncResourceVersion
}

// Run calls ListAndWatch until ctx ends, waiting a backoff after each
// return, whether it failed or not.
//
// Mirrors (*Reflector).RunWithContext (wait.BackoffUntil, sliding).
func (r *Reflector) Run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := r.ListAndWatch(ctx); err != nil {
			r.logger.Warn("list and watch failed", "err", err)
		}
		t := r.backoff.Backoff()
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// ListAndWatch gets the whole state into the store, then follows the
// watch until it fails in a way that needs a new list, or ctx ends:
//
//  1. Initial state. With UseWatchList, a watch with sendInitialEvents=true,
//     resourceVersionMatch=NotOlderThan and bookmarks: its events up to the
//     BOOKMARK annotated k8s.io/initial-events-end are the state, and go to
//     the store in one Replace. If that request fails, fall back to step 1b.
//     1b. Otherwise a list at relistResourceVersion (on 410, again at ""),
//     whose items go to the store in one Replace.
//  2. Watch from LastSyncResourceVersion with bookmarks. Each event goes to
//     the store and advances LastSyncResourceVersion. When the watch ends
//     normally (server timeout, dropped connection) start another from the
//     last resourceVersion seen, without a list. When it fails with a 410
//     (the version was compacted), or any other error, return: Run will
//     back off and list again. Connection refused and 429 back off and
//     rewatch instead.
//
// It returns nil when ctx ends.
//
// Mirrors (*Reflector).ListAndWatchWithContext.
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	var w watch.Interface
	fallbackToList := !r.useWatchList
	if r.useWatchList {
		var err error
		w, err = r.watchList(ctx)
		if w == nil && err == nil {
			return nil // ctx ended
		}
		if err != nil {
			r.logger.Warn("watch-list request failed, falling back to list and watch", "err", err)
			fallbackToList, w = true, nil
		}
	}
	if fallbackToList {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	return r.watchWithResync(ctx, w)
}

// list lists and Replaces the store's content with the result.
//
// Mirrors (*Reflector).list, without paging.
func (r *Reflector) list(ctx context.Context) error {
	listRV := r.relistResourceVersion()
	list, err := r.lw.List(ctx, metav1.ListOptions{ResourceVersion: listRV})
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		// The version we know is compacted away (or the server is behind
		// it): take the latest state instead.
		if r.tracer.Enabled() {
			r.emit("relist", "", listRV, fmt.Sprintf("cannot list at resourceVersion %s (%v): listing the latest state", listRV, err), upstreamList)
		}
		r.setRVUnavailable(true)
		list, err = r.lw.List(ctx, metav1.ListOptions{ResourceVersion: r.relistResourceVersion()})
	}
	if err != nil {
		return fmt.Errorf("failed to list: %w", err)
	}
	r.setRVUnavailable(false)
	rv, err := listResourceVersion(list)
	if err != nil {
		return err
	}
	items, err := ExtractList(list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %T: %w", list, err)
	}
	if r.tracer.Enabled() {
		r.emit("list", "", rv, fmt.Sprintf("listed %d %s at resourceVersion %s", len(items), plural(len(items), "item", "items"), rv), upstreamList)
	}
	if err := r.store.Replace(objectsOf(items), rv); err != nil {
		return fmt.Errorf("unable to sync list result: %w", err)
	}
	r.setLastSyncResourceVersion(rv)
	return nil
}

// watchList gets the initial state from a watch-list: a watch that first
// sends the current state as ADDED events, ended by a bookmark annotated
// with metav1.InitialEventsAnnotationKey. It returns that watch, still
// open, for watch to carry on with; or nil, nil if ctx ended.
//
// Mirrors (*Reflector).watchList.
func (r *Reflector) watchList(ctx context.Context) (watch.Interface, error) {
	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		// The initial events go to a store of their own, so the real store
		// gets them in one Replace, as if they came from a list.
		temp := NewStore(DeletionHandlingMetaNamespaceKeyFunc)
		var rv string
		sendInitialEvents := true
		timeout := watchTimeoutSeconds()
		opts := metav1.ListOptions{
			ResourceVersion:      r.rewatchResourceVersion(),
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
			SendInitialEvents:    &sendInitialEvents,
			AllowWatchBookmarks:  true,
			TimeoutSeconds:       &timeout,
		}
		start := r.clock.Now()
		w, err := r.lw.Watch(ctx, opts)
		if err == nil {
			if r.tracer.Enabled() {
				r.emit("watch", "", opts.ResourceVersion, "watch-list: the current state first, as ADDED events", upstreamWatchList)
			}
			var done bool
			done, err = r.handleWatch(ctx, start, w, temp, func(v string) { rv = v }, nil, true)
			if err == nil && done {
				if r.tracer.Enabled() {
					n := len(temp.ListKeys())
					r.emit("list", "", rv, fmt.Sprintf("watch-list sent %d initial %s up to resourceVersion %s", n, plural(n, "item", "items"), rv), upstreamWatchList)
				}
				if err := r.store.Replace(temp.List(), rv); err != nil {
					w.Stop()
					return nil, fmt.Errorf("unable to sync watch-list result: %w", err)
				}
				r.setRVUnavailable(false)
				r.setLastSyncResourceVersion(rv)
				return w, nil
			}
			w.Stop()
		}
		// The watch ended before the bookmark (err == nil), or failed.
		switch {
		case err == nil:
			continue
		case errors.Is(err, errStopRequested):
			return nil, nil
		case isWatchErrorRetriable(err):
			if !r.waitBackoff(ctx) {
				return nil, nil
			}
			continue
		case isExpiredError(err) || isTooLargeResourceVersionError(err):
			if r.tracer.Enabled() {
				r.emit("relist", "", opts.ResourceVersion, fmt.Sprintf("watch-list from resourceVersion %s failed (%v): starting from the latest state", opts.ResourceVersion, err), upstreamWatchList)
			}
			r.setRVUnavailable(true)
			continue
		}
		return nil, err
	}
}

// watchWithResync runs watch, with Resync called on the store every
// resyncPeriod meanwhile.
//
// Mirrors (*Reflector).watchWithResync and startResync.
func (r *Reflector) watchWithResync(ctx context.Context, w watch.Interface) error {
	resyncErr := make(chan error, 1)
	resyncCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait() // the resync goroutine uses r.store: it must end before we do
	}()
	if r.resyncPeriod > 0 {
		wg.Go(func() {
			for {
				t := r.clock.NewTimer(r.resyncPeriod)
				select {
				case <-resyncCtx.Done():
					t.Stop()
					return
				case <-t.C():
				}
				if err := r.store.Resync(); err != nil {
					resyncErr <- err
					return
				}
			}
		})
	}
	return r.watch(ctx, w, resyncErr)
}

// watch follows watches, starting with w if it is not nil, until one needs
// a relist (return nil: Run backs off and lists), a watch request fails
// (return its error), or ctx ends (return nil).
//
// Mirrors (*Reflector).watch.
func (r *Reflector) watch(ctx context.Context, w watch.Interface, resyncErr chan error) error {
	defer func() {
		if w != nil {
			w.Stop()
		}
	}()
	for {
		if ctx.Err() != nil {
			return nil
		}
		start := r.clock.Now()
		if w == nil {
			timeout := watchTimeoutSeconds()
			rv := r.LastSyncResourceVersion()
			var err error
			w, err = r.lw.Watch(ctx, metav1.ListOptions{
				ResourceVersion: rv,
				// Ask the server to end the watch after a while, so that
				// a watch stuck somewhere between us and it is replaced.
				TimeoutSeconds: &timeout,
				// Bookmarks keep LastSyncResourceVersion fresh when
				// nothing we watch changes, so a rewatch does not start
				// from a compacted version.
				AllowWatchBookmarks: true,
			})
			if err != nil {
				if isWatchErrorRetriable(err) {
					if !r.waitBackoff(ctx) {
						return nil
					}
					continue
				}
				return err
			}
			if r.tracer.Enabled() {
				r.emit("watch", "", rv, "watching from resourceVersion "+rv, upstreamWatch)
			}
		}
		_, err := r.handleWatch(ctx, start, w, r.store, r.setLastSyncResourceVersion, resyncErr, false)
		w = nil // handleWatch stopped it
		switch {
		case err == nil:
			continue // ended normally: rewatch from the last resourceVersion
		case errors.Is(err, errStopRequested):
			return nil
		case isExpiredError(err):
			r.logger.Info("watch closed, relisting", "err", err)
			if r.tracer.Enabled() {
				rv := r.LastSyncResourceVersion()
				r.emit("relist", "", rv, fmt.Sprintf("watch from resourceVersion %s expired (%v): listing again", rv, err), upstreamWatch)
			}
		case apierrors.IsTooManyRequests(err):
			if !r.waitBackoff(ctx) {
				return nil
			}
			continue
		default:
			r.logger.Warn("watch ended with error", "err", err)
		}
		return nil
	}
}

// handleWatch writes w's events into store until w closes (nil), an ERROR
// event arrives (its Status as an error), ctx ends (errStopRequested), the
// resync fails (its error), or, with exitOnInitialEventsEnd, the bookmark
// ending the initial events arrives (true, nil). It always stops w.
//
// Mirrors handleWatch / handleAnyWatch in reflector.go.
func (r *Reflector) handleWatch(ctx context.Context, start time.Time, w watch.Interface, store ReflectorStore,
	setRV func(string), resyncErr chan error, exitOnInitialEventsEnd bool) (initialEventsEnd bool, _ error) {
	defer w.Stop()
	eventCount := 0
	for {
		select {
		case <-ctx.Done():
			return false, errStopRequested
		case err := <-resyncErr:
			return false, err
		case event, ok := <-w.ResultChan():
			if !ok {
				// A watch that ends at once with nothing in it is a sign of
				// trouble (e.g. a proxy cutting it): treat it as an error,
				// so Run backs off instead of spinning.
				if eventCount == 0 && r.clock.Now().Sub(start) < time.Second {
					return false, fmt.Errorf("very short watch: watch lasted less than a second and no items received")
				}
				return false, nil
			}
			if event.Type == watch.Error {
				if s, ok := event.Object.(*metav1.Status); ok {
					return false, apierrors.FromObject(s)
				}
				return false, fmt.Errorf("watch error event with object %T", event.Object)
			}
			m, ok := metav1.Accessor(event.Object)
			if !ok {
				r.logger.Warn("watch event object has no metadata", "type", fmt.Sprintf("%T", event.Object))
				continue
			}
			if r.tracer.Enabled() && event.Type != watch.Bookmark {
				key, _ := MetaNamespaceKeyFunc(event.Object)
				r.emit("event", key, m.GetResourceVersion(), string(event.Type)+" "+key, upstreamHandleWatch)
			}
			var err error
			switch event.Type {
			case watch.Added:
				err = store.Add(event.Object)
			case watch.Modified:
				err = store.Update(event.Object)
			case watch.Deleted:
				err = store.Delete(event.Object)
			case watch.Bookmark:
				// Nothing to store: a bookmark only says "you have seen
				// everything up to this resourceVersion".
				if m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
					initialEventsEnd = true
				}
			default:
				r.logger.Warn("unknown watch event type", "type", event.Type)
			}
			if err != nil {
				r.logger.Warn("unable to write watch event to store", "type", event.Type, "err", err)
			}
			setRV(m.GetResourceVersion())
			eventCount++
			if exitOnInitialEventsEnd && initialEventsEnd {
				return true, nil
			}
		}
	}
}

// waitBackoff waits one backoff; false if ctx ended first.
func (r *Reflector) waitBackoff(ctx context.Context) bool {
	t := r.backoff.Backoff()
	select {
	case <-ctx.Done():
		t.Stop()
		return false
	case <-t.C():
		return true
	}
}

// watchTimeoutSeconds picks a server-side watch timeout between
// minWatchTimeout and twice it.
func watchTimeoutSeconds() int64 {
	return int64(minWatchTimeout.Seconds() * (rand.Float64() + 1.0))
}

// isExpiredError reports a 410: the resourceVersion was compacted away.
func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// isTooLargeResourceVersionError reports a "resourceVersion too large"
// error: the server has not reached the version asked for yet.
func isTooLargeResourceVersionError(err error) bool {
	var s apierrors.APIStatus
	if !errors.As(err, &s) {
		return false
	}
	st := s.Status()
	if st.Details == nil {
		return false
	}
	for _, c := range st.Details.Causes {
		if c.Type == metav1.CauseTypeResourceVersionTooLarge {
			return true
		}
	}
	return false
}

// isWatchErrorRetriable reports errors that call for a backoff and a new
// watch rather than a relist: the server refused the connection (it is
// probably restarting; we can resume where we were) or asked us to slow
// down (429).
//
// Mirrors isWatchErrorRetriable in reflector.go.
func isWatchErrorRetriable(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || apierrors.IsTooManyRequests(err)
}

// objectsOf turns list items into what a store takes.
func objectsOf(items []scheme.Object) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}
