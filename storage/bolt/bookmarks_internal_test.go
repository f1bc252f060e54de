package bolt

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBookmarkBuckets_EachWatcherItsOwnPhase: a watcher's bookmarks come
// an interval after it became live, then every interval, never early;
// two watchers that became live half an interval apart stay half an
// interval apart (one timer for all sent them together).
func TestBookmarkBuckets_EachWatcherItsOwnPhase(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	b := newBookmarkBuckets(t0, time.Minute)
	require.Equal(t, time.Second, b.step)
	w1, w2 := &watcher{}, &watcher{}
	b.add(w1, at(200*time.Millisecond))
	b.add(w2, at(30*time.Second+500*time.Millisecond))

	require.Empty(t, b.pop(at(60*time.Second)), "w1 is due at 60.2 s, in the step that ends at 61 s")
	require.Empty(t, b.pop(at(60*time.Second+900*time.Millisecond)), "never early")
	require.Equal(t, []*watcher{w1}, b.pop(at(61*time.Second)))
	b.add(w1, at(61*time.Second))
	require.Empty(t, b.pop(at(90*time.Second)))
	require.Equal(t, []*watcher{w2}, b.pop(at(91*time.Second)))
	require.Empty(t, b.pop(at(120*time.Second)))
	require.Equal(t, []*watcher{w1}, b.pop(at(121*time.Second)))
	require.Empty(t, b.due, "popped buckets are forgotten")
}

// TestBookmarkBuckets_ShortInterval: an interval under a second is its
// own step (tests run with 50 ms).
func TestBookmarkBuckets_ShortInterval(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := newBookmarkBuckets(t0, 50*time.Millisecond)
	require.Equal(t, 50*time.Millisecond, b.step)
	w := &watcher{}
	b.add(w, t0.Add(10*time.Millisecond))
	require.Empty(t, b.pop(t0.Add(99*time.Millisecond)))
	require.Equal(t, []*watcher{w}, b.pop(t0.Add(100*time.Millisecond)))
}

// TestBookmarkBuckets_LateTimer: a timer that fires late (a busy
// dispatcher) pops every bucket that came due meanwhile, oldest first,
// and a watcher scheduled then is not put in a step already popped.
func TestBookmarkBuckets_LateTimer(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := newBookmarkBuckets(t0, 2*time.Second)
	w1, w2, w3 := &watcher{}, &watcher{}, &watcher{}
	b.add(w1, t0)
	b.add(w2, t0.Add(3*time.Second))
	b.add(w3, t0.Add(10*time.Second))
	require.Equal(t, []*watcher{w1, w2}, b.pop(t0.Add(6*time.Second)))
	// A clock read before the last pop (the timer's time, taken before
	// the lock) still schedules into a step to come.
	b.add(w1, t0.Add(-5*time.Second))
	require.Equal(t, []*watcher{w1}, b.pop(t0.Add(7*time.Second)))
	require.Equal(t, []*watcher{w3}, b.pop(t0.Add(12*time.Second)))
}
