package bolt

import (
	"log/slog"
	"sync"
	"time"

	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

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
	// byPrefix holds the same groups by their store's prefix (several
	// stores may share one: a CRD's store rebuilt while its old one
	// still has watchers), so that an event finds the groups it concerns
	// in a few map reads (covering) instead of a test of every group:
	// with a watcher per CRD (the garbage collector's monitors) a scan of
	// 2,000 groups cost each write about a millisecond of CPU. Upstream
	// never meets the other resources' watchers: each resource has its
	// own cacher, fed by an etcd watch of its prefix, and etcd finds a
	// key's watchers in a map (single keys) and an interval tree (ranges:
	// watcherGroup in mvcc/watcher_group.go).
	byPrefix map[string][]*watchGroup

	// bookmarks says when each live watcher that allows them gets its
	// next BOOKMARK (bookmarks.go).
	bookmarks *bookmarkBuckets

	out  []delivery    // dispatch's buffer of one event's deliveries, reused
	hits []*watchGroup // dispatch's buffer of one event's groups, reused
}

// delivery is one event for one live watcher.
type delivery struct {
	w  *watcher
	ev watch.Event
}

// watchGroup is the live watchers of one store: an event under the
// store's prefix is decoded once for all of them.
type watchGroup struct {
	st       *store
	watchers []*watcher
	pos      int // its index in fanout.groups
}

func newFanout(db *DB) *fanout {
	return &fanout{
		db:        db,
		log:       db.log,
		wake:      make(chan struct{}, 1),
		maxQueued: max(64*db.opts.WatchBufferSize, 65536),
		rev:       db.rev,
		byPrefix:  map[string][]*watchGroup{},
		bookmarks: newBookmarkBuckets(time.Now(), db.opts.BookmarkInterval),
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
	tick := time.NewTicker(f.bookmarks.step)
	defer tick.Stop()
	for {
		select {
		case <-f.wake:
			f.qmu.Lock()
			queue, overflow, dropRev := f.queue, f.overflow, f.dropRev
			f.queue, f.queued, f.overflow = nil, 0, false
			f.qmu.Unlock()
			if overflow {
				// Every live watcher is closed without an error: each
				// client watches again from the last resourceVersion it
				// got, and the dropped events are replayed from history.
				f.log.Warn("closing every live watcher: the watch fan-out fell behind the writers",
					"revision", dropRev)
				f.mu.Lock()
				f.terminateAll(watch.Event{})
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
		case now := <-tick.C:
			f.mu.Lock()
			f.sendBookmarks(now)
			f.mu.Unlock()
		case <-f.db.closing:
			f.mu.Lock()
			f.closed = true
			for _, g := range f.groups {
				for _, w := range g.watchers {
					w.state = watcherDone
					w.q.closeWith(watch.Event{})
					w.release()
				}
			}
			f.groups, f.byPrefix = nil, nil
			f.mu.Unlock()
			return
		}
	}
}

// dispatch hands one batch to the live watchers. Caller holds f.mu.
func (f *fanout) dispatch(b batch) {
	for _, e := range b.events {
		for _, g := range f.covering(e.rec.key) {
			if len(g.watchers) == 0 {
				continue // removed while this event went to another group
			}
			c := newChange(g.st, e.rec, e.prev)
			out := f.out[:0]
			for i := 0; i < len(g.watchers); {
				w := g.watchers[i]
				if e.rec.rev <= w.skip || !w.rng.Contains(e.rec.key) {
					i++
					continue
				}
				ev, ok, err := c.eventFor(w)
				if err != nil {
					f.terminate(w, storage.ErrorEvent(err))
					continue // w's slot now holds another watcher
				}
				if ok {
					out = append(out, delivery{w: w, ev: ev})
				}
				i++
			}
			// The fan-out's row is recorded before the event goes out,
			// so that a trace reads in travel order: no reflector
			// reports an event before the watch that sent it.
			if f.db.opts.Tracer.Enabled() {
				f.traceFanout(e, len(out))
			}
			for j, d := range out {
				if !d.w.q.push(d.ev) {
					// Closed without an error, as upstream's cacher closes
					// a watcher it cannot feed (cacheWatcher.add): the
					// reader gets the events queued, then the end, and
					// watches again from the last resourceVersion it got,
					// which history replays (catchUp). An ERROR 410 would
					// make it list again instead: every object of the
					// resource in one answer (530 MB for 2,000 real-size
					// CRDs) where the replay is the few events it missed.
					f.log.Warn("closing a watcher that fell behind", "prefix", g.st.Prefix,
						"key", d.w.rng.Key, "buffer", d.w.q.limit, "revision", e.rec.rev)
					f.terminate(d.w, watch.Event{})
				}
				out[j] = delivery{} // keep no event alive in the reused buffer
			}
			f.out = out[:0]
		}
	}
	clear(f.hits)
	f.rev = b.rev
}

// covering returns the groups whose store's prefix covers key, in f.hits.
// A prefix ends in "/" (storage.NewResource), so it is key up to one of
// its slashes: one map read per slash. Caller holds f.mu.
func (f *fanout) covering(key string) []*watchGroup {
	hits := f.hits[:0]
	for i := 1; i < len(key)-1; i++ {
		if key[i] == '/' {
			hits = append(hits, f.byPrefix[key[:i+1]]...)
		}
	}
	f.hits = hits
	return hits
}

// sendBookmarks sends a BOOKMARK to every live watcher whose bookmark is
// due at now, unless its buffer is full (a bookmark is only a hint), and
// schedules its next one. Caller holds f.mu.
//
// Mirrors the cacher's bookmark timer (cacher.go: dispatchEvents,
// startDispatchingBookmarkEventsLocked).
func (f *fanout) sendBookmarks(now time.Time) {
	due := f.bookmarks.pop(now)
	if len(due) == 0 {
		return
	}
	shared := map[*watchGroup]storage.Object{} // one bookmark per store
	for _, w := range due {
		if w.state != watcherLive {
			continue // ended since it was scheduled
		}
		var obj storage.Object
		if w.skip > f.rev {
			obj = w.st.Bookmark(w.skip, false)
		} else {
			if obj = shared[w.group]; obj == nil {
				obj = w.st.Bookmark(f.rev, false)
				shared[w.group] = obj
			}
		}
		w.q.push(watch.Event{Type: watch.Bookmark, Object: obj})
		f.bookmarks.add(w, now)
	}
}

// add makes w live. Caller holds f.mu.
func (f *fanout) add(w *watcher) {
	var g *watchGroup
	for _, x := range f.byPrefix[w.st.Prefix] {
		if x.st == w.st {
			g = x
			break
		}
	}
	if g == nil {
		g = &watchGroup{st: w.st, pos: len(f.groups)}
		f.groups = append(f.groups, g)
		f.byPrefix[w.st.Prefix] = append(f.byPrefix[w.st.Prefix], g)
	}
	w.state, w.group, w.pos = watcherLive, g, len(g.watchers)
	g.watchers = append(g.watchers, w)
	if w.bookmarks {
		f.bookmarks.add(w, time.Now())
	}
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
		last := f.groups[len(f.groups)-1]
		f.groups[g.pos], last.pos = last, g.pos
		f.groups[len(f.groups)-1] = nil
		f.groups = f.groups[:len(f.groups)-1]
		same := f.byPrefix[g.st.Prefix]
		for i, x := range same {
			if x == g {
				same = append(same[:i], same[i+1:]...)
				break
			}
		}
		if len(same) == 0 {
			delete(f.byPrefix, g.st.Prefix)
		} else {
			f.byPrefix[g.st.Prefix] = same
		}
	}
}

// terminate ends the live watcher w with ev, an ERROR event queued after
// the events waiting (past the queue's limit: it is the last one), or, if
// ev is the zero Event, with the end of the watch alone. Caller holds f.mu.
func (f *fanout) terminate(w *watcher, ev watch.Event) {
	f.remove(w)
	w.state = watcherDone
	w.q.closeWith(ev)
	w.release()
}

// terminateAll ends every live watcher. Caller holds f.mu.
func (f *fanout) terminateAll(ev watch.Event) {
	for len(f.groups) > 0 {
		g := f.groups[0]
		f.terminate(g.watchers[len(g.watchers)-1], ev)
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
		w.q.closeWith(watch.Event{})
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
