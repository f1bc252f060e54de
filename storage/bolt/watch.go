package bolt

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
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
// While live, events go into the watcher's queue (eventQueue) without
// waiting: a watcher with WatchBufferSize events waiting is closed, and
// nobody else waits for it. It is closed without an error, as upstream's
// cacher closes a watcher it cannot feed (cacheWatcher.add, after a grace
// period): the client watches again from its last resourceVersion, and
// history replays what it missed (catchUp), instead of listing again.

// watcherState says who owns a watcher's queue (who pushes to it and
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
	rng       storage.KeyRange
	pred      storage.SelectionPredicate
	bookmarks bool
	// metadata: the reader wants only each object's metadata, and the
	// predicate selects everything, so changes come as
	// storage.MetadataJSON where the codec can cut it (change.eventFor).
	metadata bool

	// q holds the events waiting for the reader, at most WatchBufferSize.
	q          *eventQueue
	chOnce     sync.Once
	ch         chan watch.Event // ResultChan's, fed by q.pump; nil until asked for
	stopCh     chan struct{}    // closed by Stop
	stopOnce   sync.Once
	ctxMu      sync.Mutex  // guards releaseCtx
	releaseCtx func() bool // unregisters the context.AfterFunc that stops the watch

	// Guarded by fanout.mu.
	state watcherState
	skip  int64       // live: events up to skip were sent while catching up
	group *watchGroup // live: the group w is in, at index pos
	pos   int
}

var _ watch.Poller = (*watcher)(nil)

// ResultChan returns the events, in revision order. The first call starts
// a goroutine that moves them from the queue to the channel; a watch read
// with TryNext has none.
func (w *watcher) ResultChan() <-chan watch.Event {
	w.chOnce.Do(func() {
		w.ch = make(chan watch.Event)
		go w.q.pump(w.ch, w.stopCh, w.f.db.closing)
	})
	return w.ch
}

// TryNext returns the next event if one is waiting (watch.Poller).
func (w *watcher) TryNext() (watch.Event, bool, bool) { return w.q.TryNext() }

// Ready receives when TryNext may have something to report (watch.Poller).
func (w *watcher) Ready() <-chan struct{} { return w.q.Ready() }

// Wake makes Ready receive (watch.Poller).
func (w *watcher) Wake() { w.q.Wake() }

// Stop ends the watch; the channel closes soon after. Safe to call more
// than once and from any goroutine.
func (w *watcher) Stop() {
	w.stopOnce.Do(func() {
		close(w.stopCh)
		w.f.mu.Lock()
		if w.state == watcherLive {
			w.f.remove(w)
			w.state = watcherDone
			w.q.closeWith(watch.Event{})
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

// send queues ev, waiting for room while the reader lags; it returns false
// if the watch was stopped or the DB is closing first.
func (w *watcher) send(ev watch.Event) bool {
	return w.q.pushWait(ev, w.stopCh, w.f.db.closing)
}

// Watch starts a watch on key (or the keys under it, with Recursive).
//
// Mirrors (*store).Watch in etcd3/store.go and (*Cacher).Watch: the
// initial state, for a watch from "" or "0", is the state at the current
// revision S, sent as ADDED events; then come the changes after S.
func (s *store) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	rng, err := s.KeyRange(key, opts.Recursive)
	if err != nil {
		return nil, err
	}
	if err := s.db.usable(); err != nil {
		return nil, err
	}
	plan, err := storage.PlanWatch(opts)
	if err != nil {
		return nil, err
	}
	cur, compacted := s.db.state()
	start := plan.From
	switch {
	case plan.MinRev > cur:
		return nil, storage.NewTooLargeResourceVersionError(plan.MinRev, cur)
	case start == 0:
		start = cur
		// Its initial state may take a while to send; the history after
		// it is read then.
		s.db.listed.note(start, time.Now())
	case start < compacted:
		return nil, storage.NewExpiredError(start, compacted)
	}
	// A start not reached yet is fine: the watch waits for it, as etcd's
	// does.

	f := s.db.fanout
	w := &watcher{
		f:         f,
		st:        s,
		rng:       rng,
		pred:      opts.Predicate,
		bookmarks: opts.Predicate.AllowWatchBookmarks,
		metadata:  opts.MetadataOnly && opts.Predicate.Empty(),
		q:         newEventQueue(s.db.opts.WatchBufferSize),
		stopCh:    make(chan struct{}),
	}
	w.ctxMu.Lock()
	w.releaseCtx = context.AfterFunc(ctx, w.Stop)
	w.ctxMu.Unlock()

	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		w.release()
		return nil, &storage.Error{Kind: storage.ErrInternal, Key: key, Err: storage.ErrClosed}
	}
	if !plan.Initial && start >= f.rev && !w.stopped() {
		// Nothing to send first: the watch is live when Watch returns.
		w.skip = start
		f.add(w)
		f.mu.Unlock()
		return w, nil
	}
	s.db.wg.Add(1) // under f.mu with f.closed false: Close is not waiting yet
	f.mu.Unlock()
	go w.catchUp(start, plan.Initial, plan.InitialEventsEnd)
	return w, nil
}

// catchUp is the goroutine of a watcher until it is live: the initial
// state, the initial-events-end bookmark, then history after start.
func (w *watcher) catchUp(start int64, initial, endBookmark bool) {
	defer w.f.db.wg.Done()
	db := w.st.db
	fail := func(err error) {
		w.f.mu.Lock()
		w.state = watcherDone
		w.f.mu.Unlock()
		w.q.closeWith(storage.ErrorEvent(err))
		w.release()
	}
	if initial {
		_, err := db.scanAt(context.Background(), w.rng, w.rng.Key, start, scanOpts{}, func(r *record, _ []byte, _ bool) (bool, error) {
			obj, err := w.st.decode(r)
			if err != nil {
				return false, err
			}
			ok, err := w.st.Matches(w.pred, r.key, obj)
			if err != nil {
				return false, err
			}
			return !ok || w.send(watch.Event{Type: watch.Added, Object: obj}), nil
		})
		if err != nil {
			fail(err)
			return
		}
	}
	if endBookmark {
		w.send(watch.Event{Type: watch.Bookmark, Object: w.st.Bookmark(start, true)})
	}
	pos := start
	for !w.f.join(w, pos) {
		changes, upto, err := db.historyAfter(w.st, pos, w.rng, !w.pred.Empty())
		if err != nil {
			fail(err)
			return
		}
		for _, c := range changes {
			ev, ok, err := c.eventFor(w)
			if err != nil {
				fail(err)
				return
			}
			if !ok {
				continue
			}
			if db.opts.Tracer.Enabled() {
				db.traceCatchUp(c, ev, pos)
			}
			if !w.send(ev) {
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
//
// It reads up to the revision of the transaction's own snapshot (the
// meta/revision it sees) if that is older than db.rev: a commit that ends
// between Begin and the read of db.rev is counted in db.rev but absent
// from the snapshot, and reading "up to db.rev" would step over its
// records, which the watcher then never sends (join skips everything up
// to pos). Nor past db.rev: a commit on disk but not yet applied is the
// fan-out's to send, once the committer has applied it.
func (db *DB) historyAfter(st *store, after int64, rng storage.KeyRange, withPrev bool) ([]*change, int64, error) {
	tx, err := db.beginRead()
	if err != nil {
		return nil, 0, &storage.Error{Kind: storage.ErrInternal, Key: rng.Key, Err: fmt.Errorf("%w: %w", storage.ErrClosed, err)}
	}
	defer db.endRead(tx)
	if db.afterHistoryTx != nil {
		db.afterHistoryTx()
	}
	snapshot := getU64(tx.Bucket(bucketMeta).Get(metaRevision))
	db.mu.RLock()
	end, compacted := min(db.rev, snapshot), db.compacted
	db.mu.RUnlock()
	if after < compacted {
		return nil, 0, storage.NewExpiredError(after, compacted)
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
		if key := recordKey(v); key != "" && !rng.Contains(key) {
			continue // another key's: skip it without decoding
		}
		r, err := decodeResolved(tx, k, v)
		if err != nil {
			return nil, 0, &storage.Error{Kind: storage.ErrInternal, Key: rng.Key, Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
		}
		ch := &change{st: st, rec: r}
		if withPrev && !r.deleted && r.prevRev != 0 {
			pk := revKey(r.prevRev)
			p, err := decodeResolved(tx, pk, h.Get(pk))
			if err != nil {
				return nil, 0, &storage.Error{Kind: storage.ErrInternal, Key: r.key, Err: fmt.Errorf("%w: the state before revision %d: %w", ErrCorrupt, r.rev, err)}
			}
			ch.prev = p
		}
		changes = append(changes, ch)
	}
	db.mu.RLock()
	for _, ch := range changes {
		// Not a record whose value stays on disk: this one has its value,
		// and a compaction may delete it before the watcher decodes it.
		if ki := db.index.get(ch.rec.key); ki != nil && ki.latest.rev == ch.rec.rev && !ki.latest.onDisk {
			ch.rec = ki.latest
		}
	}
	db.mu.RUnlock()
	return changes, upto, nil
}
