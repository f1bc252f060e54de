package bolt_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// pollNext reads w as serveWatch does (watch.Poller): the next event, or
// ok false once the watch has ended, failing the test if nothing comes
// for 10 seconds.
func pollNext(t testing.TB, p watch.Poller) (watch.Event, bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		ev, ok, done := p.TryNext()
		if ok || done {
			return ev, ok
		}
		select {
		case <-p.Ready():
		case <-deadline:
			t.Fatal("no event for 10s")
		}
	}
}

// TestDB_WatchPollSlowReader: a live watch read by polling that falls
// more than its buffer behind gets every event up to the buffer, in
// order, then the end of the watch, without an ERROR (the client watches
// again, as from upstream's cacher); a watch from the last revision it got
// replays the rest in order: never a gap.
func TestDB_WatchPollSlowReader(t *testing.T) {
	const buffer = 8
	db := openDB(t, bolt.Options{WatchBufferSize: buffer})
	st := cronStore(db)
	create(t, st, "seed", "x")
	start, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(start, 10)})
	require.NoError(t, err)
	defer w.Stop()
	p, ok := w.(watch.Poller)
	require.True(t, ok, "bolt's watches are watch.Pollers")

	fillN(t, st, 3*buffer) // nobody reads meanwhile
	got := start
	for n := 0; ; n++ {
		ev, ok := pollNext(t, p)
		if !ok {
			require.Equal(t, buffer, n, "the buffer's worth, then the end")
			break
		}
		require.NotEqual(t, watch.Error, ev.Type, "closed with an ERROR: %v", ev.Object)
		require.Less(t, n, buffer)
		got = storagetest.RV(t, ev.Object.(storage.Object))
		require.Equal(t, start+int64(n)+1, got, "event %d", n)
	}

	again, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(got, 10)})
	require.NoError(t, err)
	defer again.Stop()
	pa := again.(watch.Poller)
	for want := got + 1; want <= start+3*buffer; want++ {
		ev, ok := pollNext(t, pa)
		require.True(t, ok, "the watch again ended before revision %d", want)
		require.Equal(t, want, storagetest.RV(t, ev.Object.(storage.Object)))
	}
}

// TestDB_WatchPollCatchUpThenLive: a watch from an old revision, read by
// polling with a buffer far smaller than the history it replays, gets
// every change in order — the replay waits for the reader — and then the
// live writes, across its join to the fan-out.
func TestDB_WatchPollCatchUpThenLive(t *testing.T) {
	db := openDB(t, bolt.Options{WatchBufferSize: 4})
	st := cronStore(db)
	create(t, st, "seed", "x") // a watch from "0" would start with the state, not the changes
	start, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	fillN(t, st, 300)
	w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(start, 10)})
	require.NoError(t, err)
	defer w.Stop()
	p := w.(watch.Poller)

	// The live writer runs during the replay, but never more than two
	// writes ahead of the live events read: a reader that falls a buffer
	// (4) behind the live writes is told so with an ERROR, as it should
	// be (TestDB_WatchPollBufferOverflow), and on a loaded machine an
	// unpaced writer got that far ahead.
	ahead := make(chan struct{}, 2)
	ahead <- struct{}{}
	ahead <- struct{}{}
	done := make(chan struct{})
	written := make(chan struct{})
	go func() {
		defer close(written)
		for i := range 300 {
			select {
			case <-ahead:
			case <-done:
				return
			}
			create(t, st, "live"+strconv.Itoa(i), "x")
		}
	}()
	defer func() { close(done); <-written }() // before the DB closes, even on a failure
	for want := start + 1; want <= start+600; want++ {
		ev, ok := pollNext(t, p)
		require.True(t, ok)
		require.Equal(t, watch.Added, ev.Type, "at revision %d: %v", want, ev.Object)
		require.Equal(t, want, storagetest.RV(t, ev.Object.(storage.Object)))
		if want > start+300 {
			ahead <- struct{}{}
		}
	}
	w.Stop()
	for {
		if _, ok := pollNext(t, p); !ok {
			break // Stop ends the watch; nothing past the writes came
		}
	}
}
