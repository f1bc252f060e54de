package storagetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

func testWatch(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	recursive := func(rv string) storage.ListOptions {
		return storage.ListOptions{Recursive: true, ResourceVersion: rv}
	}

	t.Run("FromUnsetSendsStateThenChanges", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "x1")
		e.create(t, "a", "y", nil, "y1")
		w, err := e.store.Watch(e.ctx, Prefix, recursive(""))
		require.NoError(t, err)
		defer w.Stop()
		expectEvent(t, w, watch.Added, "x", "x1")
		expectEvent(t, w, watch.Added, "y", "y1")
		u := e.setSpec(t, "a", "x", "x2")
		got := expectEvent(t, w, watch.Modified, "x", "x2")
		require.Equal(t, u.GetResourceVersion(), got.GetResourceVersion())
		d := e.delete(t, "a", "y")
		got = expectEvent(t, w, watch.Deleted, "y", "y1")
		require.Equal(t, d.GetResourceVersion(), got.GetResourceVersion(), "DELETED carries the delete's revision")
		e.create(t, "a", "z", nil, "z1")
		expectEvent(t, w, watch.Added, "z", "z1")
	})
	t.Run("FromZero", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "x1")
		w, err := e.store.Watch(e.ctx, Prefix, recursive("0"))
		require.NoError(t, err)
		defer w.Stop()
		expectEvent(t, w, watch.Added, "x", "x1")
		e.setSpec(t, "a", "x", "x2")
		expectEvent(t, w, watch.Modified, "x", "x2")
	})
	t.Run("FromRevisionReplaysHistory", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		from := e.setSpec(t, "a", "x", "2")
		e.setSpec(t, "a", "x", "3")
		e.create(t, "a", "y", nil, "y")
		e.delete(t, "a", "y")
		w, err := e.store.Watch(e.ctx, Prefix, recursive(from.GetResourceVersion()))
		require.NoError(t, err)
		defer w.Stop()
		expectEvent(t, w, watch.Modified, "x", "3")
		expectEvent(t, w, watch.Added, "y", "y")
		expectEvent(t, w, watch.Deleted, "y", "y")
		e.setSpec(t, "a", "x", "4")
		expectEvent(t, w, watch.Modified, "x", "4")
	})
	t.Run("FromCurrentRevisionSendsOnlyNewChanges", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		w, err := e.store.Watch(e.ctx, Prefix, recursive(rvString(e.current(t))))
		require.NoError(t, err)
		defer w.Stop()
		expectQuiet(t, w)
		e.setSpec(t, "a", "x", "2")
		expectEvent(t, w, watch.Modified, "x", "2")
	})
	t.Run("FromFutureRevisionWaitsForIt", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "0")
		from := e.current(t) + 3
		w, err := e.store.Watch(e.ctx, Prefix, recursive(rvString(from)))
		require.NoError(t, err)
		defer w.Stop()
		for i := 1; i <= 5; i++ {
			e.setSpec(t, "a", "x", fmt.Sprint(i))
		}
		got := expectEvent(t, w, watch.Modified, "x", "4")
		require.Equal(t, from+1, RV(t, got))
		expectEvent(t, w, watch.Modified, "x", "5")
	})
	t.Run("ErrExpiredFromCompactedRevision", func(t *testing.T) {
		e := newEnv(t, newBackend)
		old := e.create(t, "a", "x", nil, "1")
		e.setSpec(t, "a", "x", "2")
		require.NoError(t, e.backend.Compact(e.ctx, e.current(t)))
		w, err := e.store.Watch(e.ctx, Prefix, recursive(old.GetResourceVersion()))
		expectExpired(t, w, err)
	})
	t.Run("NoGapNoDuplicateUnderWrites", func(t *testing.T) {
		for _, watchList := range []bool{false, true} {
			t.Run(fmt.Sprint("SendInitialEvents=", watchList), func(t *testing.T) {
				testNoGapNoDuplicate(t, newBackend, watchList)
			})
		}
	})
	t.Run("OneKey", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		e.create(t, "a", "xy", nil, "1")
		w, err := e.store.Watch(e.ctx, Key("a", "x"), storage.ListOptions{ResourceVersion: rvString(e.current(t))})
		require.NoError(t, err)
		defer w.Stop()
		e.setSpec(t, "a", "xy", "2")
		e.setSpec(t, "a", "x", "2")
		expectEvent(t, w, watch.Modified, "x", "2")
	})
	t.Run("PrefixIsADirectory", func(t *testing.T) {
		e := newEnv(t, newBackend)
		w, err := e.store.Watch(e.ctx, Prefix+"/a", recursive(""))
		require.NoError(t, err)
		defer w.Stop()
		e.create(t, "ab", "y", nil, "1")
		e.create(t, "a", "x", nil, "1")
		expectEvent(t, w, watch.Added, "x", "1")
	})
	t.Run("PredicateTransitions", func(t *testing.T) {
		e := newEnv(t, newBackend)
		for _, rv := range []string{"", "history"} {
			t.Run("From="+rv, func(t *testing.T) {
				ns := "ns" + rv
				opts := recursive(rv)
				if rv == "history" {
					opts.ResourceVersion = rvString(e.current(t))
				}
				opts.Predicate = storage.SelectionPredicate{Label: LabelSelector{"app": "web"}}
				var w watch.Interface
				var err error
				if rv == "" {
					w, err = e.store.Watch(e.ctx, Prefix+"/"+ns, opts)
					require.NoError(t, err)
					defer w.Stop()
				}
				e.create(t, ns, "x", map[string]string{"app": "db"}, "1")
				e.setLabels(t, ns, "x", map[string]string{"app": "web"})
				left := e.setLabels(t, ns, "x", map[string]string{"app": "cache"})
				e.setSpec(t, ns, "x", "2")
				e.delete(t, ns, "x")
				e.create(t, ns, "y", map[string]string{"app": "web"}, "1")
				e.delete(t, ns, "y")
				if rv == "history" {
					// The same changes, replayed from history.
					w, err = e.store.Watch(e.ctx, Prefix+"/"+ns, opts)
					require.NoError(t, err)
					defer w.Stop()
				}
				expectEvent(t, w, watch.Added, "x", "1") // starts matching
				got := expectEvent(t, w, watch.Deleted, "x", "1")
				require.Equal(t, left.GetResourceVersion(), got.GetResourceVersion(), "stops matching: the previous state at the new revision")
				require.Equal(t, "web", got.GetLabels()["app"])
				expectEvent(t, w, watch.Added, "y", "1")
				expectEvent(t, w, watch.Deleted, "y", "1")
				expectQuiet(t, w)
			})
		}
	})
	t.Run("Bookmarks", func(t *testing.T) {
		e := newEnv(t, newBackend)
		opts := recursive("")
		opts.Predicate.AllowWatchBookmarks = true
		w, err := e.store.Watch(e.ctx, Prefix+"/watched", opts)
		require.NoError(t, err)
		defer w.Stop()
		// A write the watcher does not see still moves its bookmarks on.
		other := e.create(t, "elsewhere", "x", nil, "1")
		deadline := time.After(wait)
		for {
			select {
			case ev, ok := <-w.ResultChan():
				require.True(t, ok)
				require.Equal(t, watch.Bookmark, ev.Type)
				obj := ev.Object.(*unstructured.Unstructured)
				require.Empty(t, obj.GetName(), "a bookmark carries only a resourceVersion")
				if RV(t, obj) >= RV(t, other) {
					return
				}
			case <-deadline:
				require.FailNow(t, "no bookmark at or after the other write")
			}
		}
	})
	t.Run("NoBookmarksUnlessAllowed", func(t *testing.T) {
		e := newEnv(t, newBackend)
		w, err := e.store.Watch(e.ctx, Prefix+"/watched", recursive(""))
		require.NoError(t, err)
		defer w.Stop()
		e.create(t, "elsewhere", "x", nil, "1")
		e.create(t, "watched", "x", nil, "1")
		require.Equal(t, watch.Added, next(t, w).Type)
	})
	t.Run("SendInitialEvents", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		e.create(t, "a", "y", nil, "1")
		cur := e.current(t)
		yes := true
		opts := recursive("")
		opts.SendInitialEvents = &yes
		w, err := e.store.Watch(e.ctx, Prefix, opts)
		require.NoError(t, err)
		defer w.Stop()
		expectEvent(t, w, watch.Added, "x", "1")
		expectEvent(t, w, watch.Added, "y", "1")
		ev := next(t, w)
		require.Equal(t, watch.Bookmark, ev.Type, "the end of the initial events is marked even without AllowWatchBookmarks")
		obj := ev.Object.(storage.Object)
		require.Equal(t, "true", obj.GetAnnotations()[metav1.InitialEventsAnnotationKey])
		require.Equal(t, cur, RV(t, obj))
		e.setSpec(t, "a", "x", "2")
		expectEvent(t, w, watch.Modified, "x", "2")
	})
	t.Run("SendInitialEventsFalse", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		no := false
		opts := recursive("")
		opts.SendInitialEvents = &no
		w, err := e.store.Watch(e.ctx, Prefix, opts)
		require.NoError(t, err)
		defer w.Stop()
		expectQuiet(t, w)
		e.setSpec(t, "a", "x", "2")
		expectEvent(t, w, watch.Modified, "x", "2")
	})
	t.Run("Stop", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		for _, rv := range []string{"", "1"} {
			w, err := e.store.Watch(e.ctx, Prefix, recursive(rv))
			require.NoError(t, err)
			w.Stop()
			expectClosedAllowingEvents(t, w)
			w.Stop() // twice is fine
		}
		// Stop from many goroutines at once, while events flow.
		w, err := e.store.Watch(e.ctx, Prefix, recursive(""))
		require.NoError(t, err)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(w.Stop)
		}
		e.setSpec(t, "a", "x", "2")
		wg.Wait()
		expectClosedAllowingEvents(t, w)
	})
	t.Run("ContextCancelStops", func(t *testing.T) {
		e := newEnv(t, newBackend)
		ctx, cancel := context.WithCancel(e.ctx)
		w, err := e.store.Watch(ctx, Prefix, recursive(""))
		require.NoError(t, err)
		defer w.Stop()
		cancel()
		expectClosedAllowingEvents(t, w)
		// A context that is already done: the watch ends at once.
		for _, rv := range []string{"", rvString(e.current(t))} {
			w, err := e.store.Watch(ctx, Prefix, recursive(rv))
			require.NoError(t, err)
			expectClosedAllowingEvents(t, w)
			w.Stop()
		}
	})
	t.Run("ManyWatchersSeeTheSameEvents", func(t *testing.T) {
		e := newEnv(t, newBackend)
		var ws []watch.Interface
		for range 20 {
			w, err := e.store.Watch(e.ctx, Prefix, recursive(rvString(e.current(t))))
			require.NoError(t, err)
			defer w.Stop()
			ws = append(ws, w)
		}
		var want []string
		for i := range 10 {
			u := e.create(t, "a", fmt.Sprint("o", i), nil, "1")
			want = append(want, u.GetResourceVersion())
		}
		for _, w := range ws {
			var got []string
			for range want {
				got = append(got, nextEvent(t, w).Object.(storage.Object).GetResourceVersion())
			}
			require.Equal(t, want, got)
		}
	})
	t.Run("ErrBadRequest", func(t *testing.T) {
		e := newEnv(t, newBackend)
		_, err := e.store.Watch(e.ctx, Prefix, recursive("abc"))
		require.ErrorIs(t, err, storage.ErrBadRequest)
		_, err = e.store.Watch(e.ctx, "/registry/other/things", recursive(""))
		require.ErrorIs(t, err, storage.ErrBadRequest, "outside the store's prefix")
	})
	t.Run("ErrTooLargeResourceVersionWatchList", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		yes := true
		opts := recursive(rvString(e.current(t) + 5))
		opts.SendInitialEvents = &yes
		_, err := e.store.Watch(e.ctx, Prefix, opts)
		require.ErrorIs(t, err, storage.ErrTooLargeResourceVersion)
	})
}

// expectClosedAllowingEvents drains w until it closes.
func expectClosedAllowingEvents(t *testing.T, w watch.Interface) {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return
			}
		case <-timeout:
			require.FailNow(t, "the watch did not close")
		}
	}
}

// testNoGapNoDuplicate starts a watch while writers run, and checks that
// its initial state is the state at some revision S and that it then gets
// every write after S exactly once, in order.
func testNoGapNoDuplicate(t *testing.T, newBackend func(t *testing.T) storage.Backend, watchList bool) {
	e := newEnv(t, newBackend)
	const keys = 10
	for i := range keys {
		e.create(t, "a", fmt.Sprint("k", i), nil, "0")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var werr atomic.Pointer[error]
	var writes atomic.Int64
	for w := range 3 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				k := Key("a", fmt.Sprint("k", (i*3+w)%keys))
				err := e.store.GuaranteedUpdate(e.ctx, k, &unstructured.Unstructured{}, false, nil,
					func(cur storage.Object) (storage.Object, error) {
						u := cur.(*unstructured.Unstructured)
						return u, unstructured.SetNestedField(u.Object, fmt.Sprint(w, "-", i), "spec", "cronSpec")
					})
				if err != nil {
					werr.Store(&err)
					return
				}
				writes.Add(1)
			}
		})
	}
	eventually(t, func() bool { return writes.Load() >= 30 || werr.Load() != nil })

	opts := storage.ListOptions{Recursive: true}
	if watchList {
		yes := true
		opts.SendInitialEvents = &yes
	}
	w, err := e.store.Watch(e.ctx, Prefix, opts)
	require.NoError(t, err)
	defer w.Stop()

	initial := map[string]string{}
	var s int64 // the revision of the initial state
	var last int64
	for len(initial) < keys {
		ev := next(t, w)
		require.Equal(t, watch.Added, ev.Type)
		obj := ev.Object.(storage.Object)
		initial[obj.GetName()] = obj.GetResourceVersion()
		s = max(s, RV(t, obj))
	}
	if watchList {
		ev := next(t, w)
		require.Equal(t, watch.Bookmark, ev.Type)
		s = RV(t, ev.Object.(storage.Object))
	}
	// Let the writers go on, then stop them.
	start := writes.Load()
	eventually(t, func() bool { return writes.Load() >= start+30 || werr.Load() != nil })
	close(stop)
	wg.Wait()
	if p := werr.Load(); p != nil {
		require.NoError(t, *p)
	}
	final := e.current(t)

	// Every write after S, once, in order: this backend has no other
	// writes, so the revisions run S+1, S+2, … final.
	ev := next(t, w)
	require.Equal(t, watch.Modified, ev.Type)
	first := RV(t, ev.Object.(storage.Object))
	if !watchList {
		// S is not sent: the first change after the initial state tells it.
		require.GreaterOrEqual(t, first-1, s)
		s = first - 1
	}
	require.Equal(t, s+1, first, "no gap between the initial state and the first change")
	last = first
	for last < final {
		ev := nextEvent(t, w)
		require.Equal(t, watch.Modified, ev.Type)
		rv := RV(t, ev.Object.(storage.Object))
		require.Equal(t, last+1, rv, "no gap, no duplicate, in order")
		last = rv
	}
	expectQuiet(t, w)

	// The initial state was the state at S.
	at, err := e.store.GetList(e.ctx, Prefix, storage.ListOptions{Recursive: true,
		ResourceVersion: rvString(s), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
	require.NoError(t, err)
	want := map[string]string{}
	for _, o := range at.Items {
		want[o.GetName()] = o.GetResourceVersion()
	}
	require.Equal(t, want, initial)
}
