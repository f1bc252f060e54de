package storage

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/watch"
)

// A watch has two phases, as in etcd's watchableStore:
//
//  1. Catching up ("unsynced"): its own goroutine sends the initial state
//     (if asked) and then every change after the starting revision, read
//     from the history bucket, at the pace of the reader.
//  2. Live ("synced"): once it has sent everything the fan-out has
//     dispatched, it joins the fan-out under fanout.mu, the lock the
//     fan-out dispatches under, and from then on the fan-out hands it
//     each new event. The join records the revision the watcher reached
//     (skip), so an event is neither missed nor sent twice.
//
// While live, events go into the watcher's buffered channel without
// waiting: a watcher whose buffer is full is closed with an ERROR event
// (410 Expired), as upstream's cacher closes watchers it cannot feed, and
// nobody else waits for it.

// event is one committed write on its way to the watchers.
type event struct {
	rec  *record
	prev *record // the key's state before the write; nil for a create
}

// batch is the events of one commit.
type batch struct {
	events []event
	rev    int64 // the last revision of the commit
}

// fanout turns committed writes into watch events and hands them to the
// live watchers, each committed event decoded once per store.
//
// Mirrors etcd's watchableStore (server/storage/mvcc/watchable_store.go:
// synced/unsynced watcher groups, notify) and the dispatch side of
// upstream's cacher (k8s.io/apiserver/pkg/storage/cacher/cacher.go:
// dispatchEvents, cacheWatcher, bookmarks).
type fanout struct {
	db  *DB
	log *slog.Logger

	qmu      sync.Mutex // guards queue, queued and overflow
	queue    []batch    // committed batches not yet dispatched, in order
	queued   int        // events in queue
	overflow bool       // queue passed maxQueued and was dropped
	dropRev  int64      // with overflow: the last revision dropped
	wake     chan struct{}

	// maxQueued bounds the events waiting for dispatch: past it, the
	// fan-out cannot keep up with the writers, and every live watcher is
	// closed rather than letting memory grow.
	maxQueued int

	// mu guards rev, groups, closed, and the state, skip, group and pos
	// fields of every watcher. The dispatcher holds it while it hands a
	// batch to the live watchers; catching-up watchers take it to join.
	mu     sync.Mutex
	rev    int64         // every event up to rev has been handed to the live watchers
	groups []*watchGroup // live watchers, by store
	closed bool          // the DB is closing: no new watcher
}

// watchGroup is the live watchers of one store: an event under the
// store's prefix is decoded once for all of them.
type watchGroup struct {
	st       *store
	watchers []*watcher
}

func newFanout(db *DB) *fanout {
	return &fanout{
		db:        db,
		log:       db.log,
		wake:      make(chan struct{}, 1),
		maxQueued: max(64*db.opts.WatchBufferSize, 65536),
		rev:       db.rev,
	}
}

// enqueue hands a committed batch to the dispatcher. It never waits: the
// committer must not be slowed by watchers.
func (f *fanout) enqueue(events []event, rev int64) {
	f.qmu.Lock()
	if f.queued+len(events) > f.maxQueued {
		f.overflow, f.dropRev = true, rev
		f.queue, f.queued = nil, 0
	} else {
		f.queue = append(f.queue, batch{events: events, rev: rev})
		f.queued += len(events)
	}
	f.qmu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// run is the dispatcher goroutine.
func (f *fanout) run() {
	defer f.db.wg.Done()
	tick := time.NewTicker(f.db.opts.BookmarkInterval)
	defer tick.Stop()
	for {
		select {
		case <-f.wake:
			f.qmu.Lock()
			queue, overflow, dropRev := f.queue, f.overflow, f.dropRev
			f.queue, f.queued, f.overflow = nil, 0, false
			f.qmu.Unlock()
			if overflow {
				f.mu.Lock()
				f.terminateAll(tooSlowStatus("the watch fan-out fell behind the writers"))
				f.rev = dropRev
				f.mu.Unlock()
			}
			for _, b := range queue {
				f.mu.Lock()
				if b.rev > f.rev {
					f.dispatch(b)
				}
				f.mu.Unlock()
			}
		case <-tick.C:
			f.mu.Lock()
			f.sendBookmarks()
			f.mu.Unlock()
		case <-f.db.closing:
			f.mu.Lock()
			f.closed = true
			for _, g := range f.groups {
				for _, w := range g.watchers {
					w.state = watcherDone
					close(w.ch)
					w.release()
				}
			}
			f.groups = nil
			f.mu.Unlock()
			return
		}
	}
}

// dispatch hands one batch to the live watchers. Caller holds f.mu.
func (f *fanout) dispatch(b batch) {
	for _, e := range b.events {
		for gi := 0; gi < len(f.groups); gi++ {
			g := f.groups[gi]
			if !g.st.covers(e.rec.key) {
				continue
			}
			c := newChange(g.st, e.rec, e.prev)
			for i := 0; i < len(g.watchers); {
				w := g.watchers[i]
				if e.rec.rev <= w.skip || !w.rng.contains(e.rec.key) {
					i++
					continue
				}
				ev, ok, err := c.eventFor(w.pred)
				if err != nil {
					f.terminate(w, errorStatus(err))
					continue // w's slot now holds another watcher
				}
				if ok {
					select {
					case w.ch <- ev:
					default:
						f.log.Warn("closing a watcher that fell behind", "prefix", g.st.prefix,
							"key", w.rng.key, "buffer", cap(w.ch), "revision", e.rec.rev)
						f.terminate(w, tooSlowStatus(fmt.Sprintf("the watcher fell more than %d events behind", cap(w.ch))))
						continue
					}
				}
				i++
			}
			if len(g.watchers) == 0 {
				gi-- // the group was removed
			}
		}
	}
	f.rev = b.rev
}

// sendBookmarks sends a BOOKMARK to every live watcher that allows them,
// unless its buffer is full (a bookmark is only a hint). Caller holds f.mu.
//
// Mirrors the cacher's bookmark timer (cacher.go: dispatchEvents,
// bookmarkWatchers).
func (f *fanout) sendBookmarks() {
	for _, g := range f.groups {
		var shared Object
		for _, w := range g.watchers {
			if !w.bookmarks {
				continue
			}
			var obj Object
			if w.skip > f.rev {
				obj = w.st.bookmark(w.skip, false)
			} else {
				if shared == nil {
					shared = g.st.bookmark(f.rev, false)
				}
				obj = shared
			}
			select {
			case w.ch <- watch.Event{Type: watch.Bookmark, Object: obj}:
			default:
			}
		}
	}
}

// add makes w live. Caller holds f.mu.
func (f *fanout) add(w *watcher) {
	var g *watchGroup
	for _, x := range f.groups {
		if x.st == w.st {
			g = x
			break
		}
	}
	if g == nil {
		g = &watchGroup{st: w.st}
		f.groups = append(f.groups, g)
	}
	w.state, w.group, w.pos = watcherLive, g, len(g.watchers)
	g.watchers = append(g.watchers, w)
}

// remove takes the live watcher w out of its group (moving the group's
// last watcher into its slot) and drops the group if it is left empty.
// Caller holds f.mu.
func (f *fanout) remove(w *watcher) {
	g := w.group
	last := g.watchers[len(g.watchers)-1]
	g.watchers[w.pos], last.pos = last, w.pos
	g.watchers[len(g.watchers)-1] = nil
	g.watchers = g.watchers[:len(g.watchers)-1]
	w.group = nil
	if len(g.watchers) == 0 {
		for i, x := range f.groups {
			if x == g {
				f.groups = append(f.groups[:i], f.groups[i+1:]...)
				break
			}
		}
	}
}

// terminate ends the live watcher w with an ERROR event carrying status.
// Its buffer may be full, so a goroutine waits to send the error, until
// the reader takes it, stops the watch, or the DB closes; the fan-out
// does not wait. Caller holds f.mu.
func (f *fanout) terminate(w *watcher, status *metav1.Status) {
	f.remove(w)
	w.state = watcherDone
	f.db.wg.Add(1) // f.mu is held and f.closed is false: the dispatcher is running
	go func() {
		defer f.db.wg.Done()
		w.send(watch.Event{Type: watch.Error, Object: status})
		close(w.ch)
		w.release()
	}()
}

// terminateAll ends every live watcher. Caller holds f.mu.
func (f *fanout) terminateAll(status *metav1.Status) {
	for len(f.groups) > 0 {
		g := f.groups[0]
		f.terminate(g.watchers[len(g.watchers)-1], status)
	}
}

// join makes w live if it has caught up with the dispatcher: every event
// up to pos was sent by w itself, and the dispatcher sends it the events
// after pos. It reports whether w is done (live, or ended because it was
// stopped or the DB is closing).
func (f *fanout) join(w *watcher, pos int64) (done bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || w.stopped() || f.db.usable() != nil {
		w.state = watcherDone
		close(w.ch)
		w.release()
		return true
	}
	if pos < f.rev {
		return false
	}
	w.skip = pos
	f.add(w)
	return true
}

// watcherState says who owns a watcher's channel (who sends on it and
// closes it).
type watcherState int

const (
	// watcherCatchingUp: its own goroutine.
	watcherCatchingUp watcherState = iota
	// watcherLive: the dispatcher, under fanout.mu; Stop closes it.
	watcherLive
	// watcherDone: closed, or being closed by the goroutine ending it.
	watcherDone
)

// watcher is one running watch.
//
// Mirrors etcd's watcher (watchable_store.go) and upstream's cacheWatcher
// (cacher/cache_watcher.go).
type watcher struct {
	f         *fanout
	st        *store
	rng       keyRange
	pred      SelectionPredicate
	bookmarks bool

	// ch is the result channel, and its capacity is the watcher's buffer.
	ch         chan watch.Event
	stopCh     chan struct{} // closed by Stop
	stopOnce   sync.Once
	ctxMu      sync.Mutex  // guards releaseCtx
	releaseCtx func() bool // unregisters the context.AfterFunc that stops the watch

	// Guarded by fanout.mu.
	state watcherState
	skip  int64       // live: events up to skip were sent while catching up
	group *watchGroup // live: the group w is in, at index pos
	pos   int
}

var _ watch.Interface = (*watcher)(nil)

// ResultChan returns the events, in revision order.
func (w *watcher) ResultChan() <-chan watch.Event { return w.ch }

// Stop ends the watch; the channel closes soon after. Safe to call more
// than once and from any goroutine.
func (w *watcher) Stop() {
	w.stopOnce.Do(func() {
		close(w.stopCh)
		w.f.mu.Lock()
		if w.state == watcherLive {
			w.f.remove(w)
			w.state = watcherDone
			close(w.ch)
		}
		w.f.mu.Unlock()
		w.release()
	})
}

func (w *watcher) stopped() bool {
	select {
	case <-w.stopCh:
		return true
	default:
		return false
	}
}

// release unregisters the watch from its context, once it has ended.
func (w *watcher) release() {
	w.ctxMu.Lock()
	f := w.releaseCtx
	w.releaseCtx = nil
	w.ctxMu.Unlock()
	if f != nil {
		f()
	}
}

// send delivers ev, waiting for the reader; it returns false if the watch
// was stopped or the DB is closing first.
func (w *watcher) send(ev watch.Event) bool {
	select {
	case w.ch <- ev:
		return true
	case <-w.stopCh:
		return false
	case <-w.f.db.closing:
		return false
	}
}

// Watch starts a watch on key (or the keys under it, with Recursive).
//
// Mirrors (*store).Watch in etcd3/store.go and (*Cacher).Watch: the
// initial state, for a watch from "" or "0", is the state at the current
// revision S, sent as ADDED events; then come the changes after S.
func (s *store) Watch(ctx context.Context, key string, opts ListOptions) (watch.Interface, error) {
	rng, err := s.keyRange(key, opts.Recursive)
	if err != nil {
		return nil, err
	}
	if err := s.db.usable(); err != nil {
		return nil, err
	}
	cur, compacted := s.db.state()
	watchList := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	var start int64
	var initial bool
	switch rv := opts.ResourceVersion; rv {
	case "", "0":
		start, initial = cur, opts.SendInitialEvents == nil || watchList
	default:
		n, err := parseRV(rv)
		if err != nil {
			return nil, err
		}
		switch {
		case watchList && n > cur:
			return nil, NewTooLargeResourceVersionError(n, cur)
		case watchList:
			start, initial = cur, true
		case n < compacted:
			return nil, NewExpiredError(n, compacted)
		default:
			// A revision not reached yet is fine: the watch waits for it,
			// as etcd's does.
			start = n
		}
	}

	f := s.db.fanout
	w := &watcher{
		f:         f,
		st:        s,
		rng:       rng,
		pred:      opts.Predicate,
		bookmarks: opts.Predicate.AllowWatchBookmarks,
		ch:        make(chan watch.Event, s.db.opts.WatchBufferSize),
		stopCh:    make(chan struct{}),
	}
	w.ctxMu.Lock()
	w.releaseCtx = context.AfterFunc(ctx, w.Stop)
	w.ctxMu.Unlock()

	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		w.release()
		return nil, NewInternalError(key, ErrClosed)
	}
	if !initial && start >= f.rev && !w.stopped() {
		// Nothing to send first: the watch is live when Watch returns.
		w.skip = start
		f.add(w)
		f.mu.Unlock()
		return w, nil
	}
	s.db.wg.Add(1) // under f.mu with f.closed false: Close is not waiting yet
	f.mu.Unlock()
	go w.catchUp(start, initial, watchList)
	return w, nil
}

// catchUp is the goroutine of a watcher until it is live: the initial
// state, the initial-events-end bookmark, then history after start.
func (w *watcher) catchUp(start int64, initial, endBookmark bool) {
	defer w.f.db.wg.Done()
	db := w.st.db
	fail := func(err error) {
		if !w.stopped() {
			w.send(watch.Event{Type: watch.Error, Object: errorStatus(err)})
		}
		w.f.mu.Lock()
		w.state = watcherDone
		w.f.mu.Unlock()
		close(w.ch)
		w.release()
	}
	if initial {
		err := db.scanAt(context.Background(), w.rng, w.rng.key, start, func(r *record) (bool, error) {
			obj, err := w.st.decode(r)
			if err != nil {
				return false, err
			}
			ok, err := w.pred.Matches(obj, w.st.attrs)
			if err != nil {
				return false, NewInternalError(r.key, err)
			}
			return !ok || w.send(watch.Event{Type: watch.Added, Object: obj}), nil
		})
		if err != nil {
			fail(err)
			return
		}
	}
	if endBookmark {
		w.send(watch.Event{Type: watch.Bookmark, Object: w.st.bookmark(start, true)})
	}
	pos := start
	for !w.f.join(w, pos) {
		changes, upto, err := db.historyAfter(w.st, pos, w.rng, !w.pred.Empty())
		if err != nil {
			fail(err)
			return
		}
		for _, c := range changes {
			ev, ok, err := c.eventFor(w.pred)
			if err != nil {
				fail(err)
				return
			}
			if ok && !w.send(ev) {
				break // stopped: join closes the channel
			}
		}
		pos = upto
	}
}

// historyChunk is how many records historyAfter reads per transaction.
const historyChunk = 1000

// historyAfter returns the changes to keys of rng after revision after,
// reading at most historyChunk records, and the revision it read up to.
// With withPrev, each update carries the state before it (needed to tell
// a watcher an object stopped or started matching its predicate).
//
// Records that are still their key's latest are taken from the index, so
// their decoded objects are shared. See scanAt for why the transaction
// opens before the compaction check.
func (db *DB) historyAfter(st *store, after int64, rng keyRange, withPrev bool) ([]*change, int64, error) {
	tx, err := db.bolt.Begin(false)
	if err != nil {
		return nil, 0, NewInternalError(rng.key, fmt.Errorf("%w: %w", ErrClosed, err))
	}
	defer func() { _ = tx.Rollback() }()
	db.mu.RLock()
	end, compacted := db.rev, db.compacted
	db.mu.RUnlock()
	if after < compacted {
		return nil, 0, NewExpiredError(after, compacted)
	}
	if after >= end {
		return nil, after, nil
	}
	h := tx.Bucket(bucketHistory)
	c := h.Cursor()
	var changes []*change
	upto, n := end, 0
	for k, v := c.Seek(revKey(after + 1)); k != nil; k, v = c.Next() {
		if n == historyChunk {
			break
		}
		rev := getU64(k)
		if rev > end {
			break
		}
		n++
		if n == historyChunk {
			upto = rev
		}
		if key := recordKey(v); key != "" && !rng.contains(key) {
			continue // another key's: skip it without decoding
		}
		r, err := decodeRecord(k, v)
		if err != nil {
			return nil, 0, NewInternalError(rng.key, fmt.Errorf("%w: %w", ErrCorrupt, err))
		}
		ch := &change{st: st, rec: r}
		if withPrev && !r.deleted && r.prevRev != 0 {
			pk := revKey(r.prevRev)
			p, err := decodeRecord(pk, h.Get(pk))
			if err != nil {
				return nil, 0, NewInternalError(r.key, fmt.Errorf("%w: the state before revision %d: %w", ErrCorrupt, r.rev, err))
			}
			ch.prev = p
		}
		changes = append(changes, ch)
	}
	db.mu.RLock()
	for _, ch := range changes {
		if ki := db.index.get(ch.rec.key); ki != nil && ki.latest.rev == ch.rec.rev {
			ch.rec = ki.latest
		}
	}
	db.mu.RUnlock()
	return changes, upto, nil
}

// change is one write as one store's watchers see it, with the objects
// decoded from it at most once.
type change struct {
	st   *store
	rec  *record
	prev *record // the state before an update; may be nil if not needed

	obj, prevObj Object
	deletedPrev  Object // prevObj at rec's revision, for watchers it stops matching
	attrs        [2]attrsMemo
}

type attrsMemo struct {
	done          bool
	labels, field map[string]string
	err           error
}

func newChange(st *store, rec, prev *record) *change {
	return &change{st: st, rec: rec, prev: prev}
}

func (c *change) object() (Object, error) {
	if c.obj == nil {
		obj, err := c.st.decode(c.rec)
		if err != nil {
			return nil, err
		}
		c.obj = obj
	}
	return c.obj, nil
}

func (c *change) previous() (Object, error) {
	if c.prevObj == nil {
		if c.prev == nil {
			return nil, NewInternalError(c.rec.key, fmt.Errorf("no previous state for revision %d", c.rec.rev))
		}
		obj, err := c.st.decode(c.prev)
		if err != nil {
			return nil, err
		}
		c.prevObj = obj
	}
	return c.prevObj, nil
}

// matches evaluates p on the object (which=0) or the previous one
// (which=1), computing their labels and fields once for all watchers.
func (c *change) matches(p SelectionPredicate, obj Object, which int) (bool, error) {
	if p.Empty() {
		return true, nil
	}
	ok, err := p.Matches(obj, func(o Object) (map[string]string, map[string]string, error) {
		a := &c.attrs[which]
		if !a.done {
			a.labels, a.field, a.err = c.st.attrs(o)
			a.done = true
		}
		return a.labels, a.field, a.err
	})
	if err != nil {
		return false, NewInternalError(c.rec.key, err)
	}
	return ok, nil
}

// eventFor returns the event a watcher with predicate p sees of c, if
// any: an object that starts matching is ADDED, one that stops matching is
// DELETED (with its previous content at the new revision).
//
// Mirrors cacheWatcher.convertToWatchEvent in cacher/cache_watcher.go.
func (c *change) eventFor(p SelectionPredicate) (watch.Event, bool, error) {
	obj, err := c.object()
	if err != nil {
		return watch.Event{}, false, err
	}
	cur, err := c.matches(p, obj, 0)
	if err != nil {
		return watch.Event{}, false, err
	}
	switch {
	case c.rec.deleted: // obj is the deleted state, at the delete's revision
		return watch.Event{Type: watch.Deleted, Object: obj}, cur, nil
	case c.rec.prevRev == 0:
		return watch.Event{Type: watch.Added, Object: obj}, cur, nil
	case p.Empty():
		return watch.Event{Type: watch.Modified, Object: obj}, true, nil
	}
	prev, err := c.previous()
	if err != nil {
		return watch.Event{}, false, err
	}
	old, err := c.matches(p, prev, 1)
	if err != nil {
		return watch.Event{}, false, err
	}
	switch {
	case cur && old:
		return watch.Event{Type: watch.Modified, Object: obj}, true, nil
	case cur:
		return watch.Event{Type: watch.Added, Object: obj}, true, nil
	case old:
		if c.deletedPrev == nil {
			d := prev.DeepCopyObject().(Object)
			d.SetResourceVersion(strconv.FormatInt(c.rec.rev, 10))
			c.deletedPrev = d
		}
		return watch.Event{Type: watch.Deleted, Object: c.deletedPrev}, true, nil
	}
	return watch.Event{}, false, nil
}

// covers reports whether key is under the store's prefix.
func (s *store) covers(key string) bool {
	return len(key) > len(s.prefix) && key[:len(s.prefix)] == s.prefix
}

// bookmark returns an object of the store's type with only its
// resourceVersion set; initialEnd adds the annotation that ends the
// initial events of a watch-list.
func (s *store) bookmark(rev int64, initialEnd bool) Object {
	obj := s.newFunc()
	obj.SetResourceVersion(strconv.FormatInt(rev, 10))
	if initialEnd {
		obj.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	}
	return obj
}

// errorStatus is the Status of an ERROR event ending a watch.
func errorStatus(err error) *metav1.Status {
	st := &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  err.Error(),
		Code:     500,
		Reason:   metav1.StatusReasonInternalError,
	}
	if IsExpired(err) {
		st.Code, st.Reason = 410, metav1.StatusReasonExpired
	}
	return st
}

// tooSlowStatus is the Status that ends a watcher that fell behind: 410
// Expired, so the client lists again (as after a too-old resourceVersion).
func tooSlowStatus(why string) *metav1.Status {
	return &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     410,
		Reason:   metav1.StatusReasonExpired,
		Message:  "watch closed: " + why + "; list again and watch from the list's resourceVersion",
	}
}
