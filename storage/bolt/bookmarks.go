package bolt

import "time"

// bookmarkBuckets says when each live watcher that allows bookmarks gets
// its next BOOKMARK: one interval after it became live, then one
// interval after each bookmark. Time is cut into steps (a second, or the
// interval if shorter), and a bucket holds the watchers due in one step.
//
// One timer for every watcher woke them all in the same instant each
// interval; the garbage collector holds a watch per resource, so with
// 2,000 CRDs that was 2,000 bookmarks, written and read at once, every
// minute. Watchers start at different moments (the collector's as the
// CRDs appear), and each keeps its own phase.
//
// Mirrors upstream's watcherBookmarkTimeBuckets (k8s.io/apiserver
// cacher.go: addWatcherThreadUnsafe, popExpiredWatchersThreadUnsafe;
// cacheWatcher.nextBookmarkTime), which buckets by the second. Not
// mirrored: upstream also sends a bookmark two seconds before a watch's
// timeout; crdlab's storage does not know the timeout (the handler ends
// the watch).
//
// A watcher that ends stays in its bucket until the bucket is due, and is
// skipped then (upstream's does the same). Guarded by fanout.mu.
type bookmarkBuckets struct {
	start    time.Time
	step     time.Duration
	interval time.Duration
	due      map[int64][]*watcher // by step number since start
	next     int64                // the first step not yet popped
}

func newBookmarkBuckets(start time.Time, interval time.Duration) *bookmarkBuckets {
	return &bookmarkBuckets{start: start, step: min(interval, time.Second), interval: interval,
		due: map[int64][]*watcher{}}
}

// add schedules w's next bookmark one interval after now.
func (b *bookmarkBuckets) add(w *watcher, now time.Time) {
	// The step the moment falls in, rounded up: never early.
	at := now.Add(b.interval).Sub(b.start)
	n := int64((at + b.step - 1) / b.step)
	if n < b.next {
		n = b.next
	}
	b.due[n] = append(b.due[n], w)
}

// pop returns the watchers due at now or before, in the order they were
// scheduled, and forgets them.
func (b *bookmarkBuckets) pop(now time.Time) []*watcher {
	last := int64(now.Sub(b.start) / b.step)
	var out []*watcher
	for ; b.next <= last; b.next++ {
		if ws, ok := b.due[b.next]; ok {
			out = append(out, ws...)
			delete(b.due, b.next)
		}
	}
	return out
}
