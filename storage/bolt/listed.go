package bolt

import (
	"sync"
	"time"
)

// listedRevs remembers, for the auto-compactor, the current revisions
// that lists read and watches began from in the last window
// (Options.KeepListed): one entry per second, with the least revision
// noted in it. A list or a watch at an older revision the client chose
// (resourceVersion=N) is not noted: it would keep N for as long as the
// client came back to it, where upstream's watch cache keeps events by
// their age alone.
//
// An informer lists, then watches from the list's resourceVersion. A
// compaction that comes between the two forgets the history the watch
// needs, and the watch answers 410 Gone: the informer lists everything
// again. Restarted on 100,000 objects with a compaction every 3 s, the
// garbage collector's monitor of them took 4 s to list and sync, the
// compaction came first, and the list of 100,000 objects ran again while
// the compaction did (bench/cmd/crdbench/perf-notes.md, session 35).
// Upstream never sees it: its watches are served from the watch cache,
// which keeps every resource's events of at least the last 75 s
// (storagebackend.DefaultEventsHistoryWindow) whatever etcd has compacted.
// crdlab has no watch cache: its watches read the history in the file,
// so the compactor keeps what a list just read, or a watch began from,
// may still be asked for.
type listedRevs struct {
	window time.Duration // 0: nothing is remembered

	mu      sync.Mutex // guards seconds
	seconds []listedSecond
}

// listedSecond is the least revision noted in one second.
type listedSecond struct {
	at  time.Time // the start of the second
	rev int64
}

// note remembers that rev was the current revision when a list read it
// or a watch began from it.
func (l *listedRevs) note(rev int64, now time.Time) {
	if l.window <= 0 || rev <= 0 {
		return
	}
	at := now.Truncate(time.Second)
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.seconds); n > 0 && l.seconds[n-1].at.Equal(at) {
		l.seconds[n-1].rev = min(l.seconds[n-1].rev, rev)
		return
	}
	l.forget(now)
	l.seconds = append(l.seconds, listedSecond{at: at, rev: rev})
}

// oldest returns the least revision noted in the last window (0 if
// none).
func (l *listedRevs) oldest(now time.Time) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forget(now)
	var rev int64
	for _, s := range l.seconds {
		if rev == 0 || s.rev < rev {
			rev = s.rev
		}
	}
	return rev
}

// forget drops the seconds that ended more than window ago.
func (l *listedRevs) forget(now time.Time) {
	i := 0
	for i < len(l.seconds) && now.Sub(l.seconds[i].at) > l.window+time.Second {
		i++
	}
	if i > 0 {
		l.seconds = append(l.seconds[:0], l.seconds[i:]...)
	}
}
