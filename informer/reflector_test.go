package informer

import (
	"fmt"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/machinery/watch"
)

// recordingStore is a Store that logs what the Reflector does to it.
type recordingStore struct {
	Store
	mu  sync.Mutex // guards ops
	ops []string
}

func newRecordingStore() *recordingStore {
	return &recordingStore{Store: NewStore(DeletionHandlingMetaNamespaceKeyFunc)}
}

func (s *recordingStore) log(op string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops = append(s.ops, op)
}

func (s *recordingStore) opsSnapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ops)
}

func (s *recordingStore) Add(obj any) error {
	k, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
	s.log("add " + k + "@" + rvOf(obj))
	return s.Store.Add(obj)
}

func (s *recordingStore) Update(obj any) error {
	k, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
	s.log("update " + k + "@" + rvOf(obj))
	return s.Store.Update(obj)
}

func (s *recordingStore) Delete(obj any) error {
	k, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
	s.log("delete " + k)
	return s.Store.Delete(obj)
}

func (s *recordingStore) Replace(list []any, rv string) error {
	keys := make([]string, len(list))
	for i, o := range list {
		keys[i], _ = DeletionHandlingMetaNamespaceKeyFunc(o)
	}
	slices.Sort(keys)
	s.log(fmt.Sprintf("replace %v rv=%s", keys, rv))
	return s.Store.Replace(list, rv)
}

func (s *recordingStore) Resync() error {
	s.log("resync")
	return nil
}

// newTestReflector returns a Reflector over lw on a FakeClock, with an
// un-jittered backoff and a quiet logger, and the store it writes.
func newTestReflector(lw ListerWatcher, opts ReflectorOptions) (*Reflector, *recordingStore, *clock.FakeClock) {
	fakeClock := clock.NewFakeClock(epoch)
	opts.Clock = fakeClock
	opts.Backoff = noBackoffJitter(fakeClock)
	opts.Logger = quiet
	store := newRecordingStore()
	return NewReflector(lw, store, opts), store, fakeClock
}

// waitOps waits until store has logged n ops and checks them.
func waitOps(t *testing.T, store *recordingStore, want ...string) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("the store has %d ops", len(want)), func() bool { return len(store.opsSnapshot()) >= len(want) })
	wantStrings(t, "store ops", store.opsSnapshot(), want)
}

func waitRV(t *testing.T, r *Reflector, rv string) {
	t.Helper()
	waitUntil(t, "LastSyncResourceVersion is "+rv, func() bool { return r.LastSyncResourceVersion() == rv })
}

func expiredStatus() *metav1.Status {
	st := apierrors.NewResourceExpired("too old resource version: 10 (15)").ErrStatus
	return &st
}

func TestReflector_ListAndWatch(t *testing.T) {
	a, b := newObj("ns", "a", "1"), newObj("ns", "b", "2")

	t.Run("ListThenWatchFromListResourceVersion", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a, b), nil)
		w := lw.addWatch(nil)
		w.Add(newObj("ns", "c", "11"))
		w.Modify(newObj("ns", "a", "12"))
		w.Delete(newObj("ns", "b", "13"))
		r, store, _ := newTestReflector(lw, ReflectorOptions{})
		run(t, r.Run)

		lw.expectCall(t, "list", "0") // first list: any recent state
		c := lw.expectCall(t, "watch", "10")
		if !c.opts.AllowWatchBookmarks || c.opts.TimeoutSeconds == nil ||
			*c.opts.TimeoutSeconds < 300 || *c.opts.TimeoutSeconds > 600 {
			t.Fatalf("watch options = %+v, want bookmarks and a 5–10 minute timeout", c.opts)
		}
		waitRV(t, r, "13")
		waitOps(t, store, "replace [ns/a ns/b] rv=10", "add ns/c@11", "update ns/a@12", "delete ns/b")
	})

	t.Run("ResumeFromLastResourceVersionAfterDroppedWatch", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a, b), nil)
		w1 := lw.addWatch(nil)
		w1.Add(newObj("ns", "c", "11"))
		w1.Modify(newObj("ns", "a", "12"))
		w1.Stop() // the connection drops after two events
		w2 := lw.addWatch(nil)
		r, store, _ := newTestReflector(lw, ReflectorOptions{})
		run(t, r.Run)

		lw.expectCall(t, "list", "0")
		lw.expectCall(t, "watch", "10")
		lw.expectCall(t, "watch", "12") // no relist: resume where we were
		w2.Add(newObj("ns", "d", "13"))
		waitRV(t, r, "13")
		waitOps(t, store, "replace [ns/a ns/b] rv=10", "add ns/c@11", "update ns/a@12", "add ns/d@13")
		if n := lw.listCount(); n != 1 {
			t.Fatalf("%d lists, want 1", n)
		}
	})

	t.Run("RelistOn410", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a, b), nil)
		w1 := lw.addWatch(nil)
		w1.Add(newObj("ns", "c", "11"))
		w1.Error(expiredStatus())
		// The relist at 11 is too old as well; the one at "" gives the
		// latest state, where b and c are gone.
		lw.addList(nil, apierrors.NewResourceExpired("too old resource version: 11 (15)"))
		lw.addList(newList("20", a), nil)
		lw.addWatch(nil)
		r, store, fakeClock := newTestReflector(lw, ReflectorOptions{})
		run(t, r.Run)

		lw.expectCall(t, "list", "0")
		lw.expectCall(t, "watch", "10")
		stepWhenWaiting(t, fakeClock, 800*time.Millisecond) // Run backs off before relisting
		lw.expectCall(t, "list", "11")
		lw.expectCall(t, "list", "")
		lw.expectCall(t, "watch", "20")
		waitOps(t, store, "replace [ns/a ns/b] rv=10", "add ns/c@11", "replace [ns/a] rv=20")
		wantStrings(t, "store keys", sorted(store.ListKeys()), []string{"ns/a"})
	})

	t.Run("RelistOn410FromWatchRequest", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a), nil)
		lw.addWatch(apierrors.NewGone("gone"))
		lw.addList(newList("20", a), nil)
		lw.addWatch(nil)
		r, _, fakeClock := newTestReflector(lw, ReflectorOptions{})
		run(t, r.Run)

		lw.expectCall(t, "list", "0")
		lw.expectCall(t, "watch", "10")
		stepWhenWaiting(t, fakeClock, 800*time.Millisecond)
		lw.expectCall(t, "list", "10")
		lw.expectCall(t, "watch", "20")
	})

	t.Run("BookmarkAdvancesResourceVersion", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a), nil)
		w1 := lw.addWatch(nil)
		lw.addWatch(nil)
		r, store, _ := newTestReflector(lw, ReflectorOptions{})
		run(t, r.Run)

		lw.expectCall(t, "list", "0")
		lw.expectCall(t, "watch", "10")
		w1.Action(watch.Bookmark, bookmark("15", false))
		waitRV(t, r, "15")
		w1.Stop()
		lw.expectCall(t, "watch", "15")
		wantStrings(t, "store ops", store.opsSnapshot(), []string{"replace [ns/a] rv=10"})
	})

	t.Run("RetriableWatchErrorsBackOffAndRewatch", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a), nil)
		lw.addWatch(apierrors.NewTooManyRequests("slow down", 1))
		lw.addWatch(fmt.Errorf("dial tcp: %w", syscall.ECONNREFUSED))
		lw.addWatch(nil)
		r, _, fakeClock := newTestReflector(lw, ReflectorOptions{})
		run(t, r.Run)

		lw.expectCall(t, "list", "0")
		lw.expectCall(t, "watch", "10")
		stepWhenWaiting(t, fakeClock, 800*time.Millisecond)
		lw.expectCall(t, "watch", "10")
		stepWhenWaiting(t, fakeClock, 1600*time.Millisecond)
		lw.expectCall(t, "watch", "10") // still no relist
		if n := lw.listCount(); n != 1 {
			t.Fatalf("%d lists, want 1", n)
		}
	})

	t.Run("ShortEmptyWatchBacksOffAndRelists", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a), nil).addList(newList("11", a), nil)
		w1 := lw.addWatch(nil)
		w1.Stop() // closed at once with nothing in it
		lw.addWatch(nil)
		r, _, fakeClock := newTestReflector(lw, ReflectorOptions{})
		run(t, r.Run)

		lw.expectCall(t, "list", "0")
		lw.expectCall(t, "watch", "10")
		stepWhenWaiting(t, fakeClock, 800*time.Millisecond)
		lw.expectCall(t, "list", "10")
		lw.expectCall(t, "watch", "11")
	})
}

func TestReflector_WatchList(t *testing.T) {
	a, b := newObj("ns", "a", "5"), newObj("ns", "b", "6")

	t.Run("InitialEventsUntilBookmarkAreReplaced", func(t *testing.T) {
		lw := newScriptedLW()
		w := lw.addWatch(nil)
		w.Add(a)
		w.Add(b)
		w.Action(watch.Bookmark, bookmark("7", true))
		w.Add(newObj("ns", "c", "8"))
		r, store, _ := newTestReflector(lw, ReflectorOptions{UseWatchList: true})
		run(t, r.Run)

		c := lw.expectCall(t, "watch", "")
		if c.opts.SendInitialEvents == nil || !*c.opts.SendInitialEvents ||
			c.opts.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan || !c.opts.AllowWatchBookmarks {
			t.Fatalf("watch-list options = %+v", c.opts)
		}
		waitRV(t, r, "8")
		// The initial events arrive as one Replace, as a list would; the
		// same watch then carries on.
		waitOps(t, store, "replace [ns/a ns/b] rv=7", "add ns/c@8")
		if n := lw.listCount(); n != 0 {
			t.Fatalf("%d lists, want none", n)
		}
	})

	t.Run("RetriesUntilInitialEventsEnd", func(t *testing.T) {
		lw := newScriptedLW()
		w1 := lw.addWatch(nil)
		w1.Add(a)
		w1.Stop() // ends before the bookmark: start over
		w2 := lw.addWatch(nil)
		w2.Add(a)
		w2.Add(b)
		w2.Action(watch.Bookmark, bookmark("7", true))
		r, store, _ := newTestReflector(lw, ReflectorOptions{UseWatchList: true})
		run(t, r.Run)

		lw.expectCall(t, "watch", "")
		lw.expectCall(t, "watch", "")
		waitRV(t, r, "7")
		waitOps(t, store, "replace [ns/a ns/b] rv=7")
	})

	t.Run("FallbackToListWhenRequestFails", func(t *testing.T) {
		lw := newScriptedLW()
		lw.addWatch(apierrors.NewBadRequest("sendInitialEvents is not supported"))
		lw.addList(newList("10", a, b), nil)
		lw.addWatch(nil)
		r, store, _ := newTestReflector(lw, ReflectorOptions{UseWatchList: true})
		run(t, r.Run)

		c := lw.expectCall(t, "watch", "")
		if c.opts.SendInitialEvents == nil {
			t.Fatal("the first request is not a watch-list")
		}
		lw.expectCall(t, "list", "0")
		c = lw.expectCall(t, "watch", "10")
		if c.opts.SendInitialEvents != nil {
			t.Fatal("the watch after the fallback list asks for initial events")
		}
		waitOps(t, store, "replace [ns/a ns/b] rv=10")
	})
}

func TestReflector_Backoff(t *testing.T) {
	// Every list fails: Run waits 800ms, then doubles up to the 30s cap.
	lw := newScriptedLW()
	r, _, fakeClock := newTestReflector(lw, ReflectorOptions{})
	run(t, r.Run)

	for i, d := range []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond,
		6400 * time.Millisecond, 12800 * time.Millisecond, 25600 * time.Millisecond, 30 * time.Second, 30 * time.Second} {
		lw.expectCall(t, "list", "0")
		waitUntil(t, "the reflector backs off", fakeClock.HasWaiters)
		fakeClock.Step(d - time.Millisecond)
		if !fakeClock.HasWaiters() {
			t.Fatalf("retry %d: backoff ended before %v", i, d)
		}
		fakeClock.Step(time.Millisecond)
	}
	lw.expectCall(t, "list", "0")
}

func TestReflector_Resync(t *testing.T) {
	lw := newScriptedLW().addList(newList("10", newObj("ns", "a", "1")), nil)
	r, store, fakeClock := newTestReflector(lw, ReflectorOptions{ResyncPeriod: time.Minute})
	run(t, r.Run)

	lw.expectCall(t, "list", "0")
	lw.expectCall(t, "watch", "10")
	stepWhenWaiting(t, fakeClock, time.Minute)
	waitOps(t, store, "replace [ns/a] rv=10", "resync")
	stepWhenWaiting(t, fakeClock, time.Minute)
	waitOps(t, store, "replace [ns/a] rv=10", "resync", "resync")
}

func TestReflector_LastSyncResourceVersion(t *testing.T) {
	lw := newScriptedLW()
	r, _, _ := newTestReflector(lw, ReflectorOptions{})
	if rv := r.LastSyncResourceVersion(); rv != "" {
		t.Fatalf("LastSyncResourceVersion before any list = %q", rv)
	}
}
