package bolt_test

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestDB_SlowReflectorWatchesAgain: a reflector that stops reading while
// writes go on falls its buffer behind and its watch is closed. It is
// closed without an error, so the reflector watches again from the last
// resourceVersion it got and history replays the rest: one list in all
// (an ERROR 410 would make it list again: every object of the resource).
func TestDB_SlowReflectorWatchesAgain(t *testing.T) {
	logs := &logLines{}
	db := openDB(t, bolt.Options{WatchBufferSize: 4, Logger: slog.New(logs)})
	st := cronStore(db)
	create(t, st, "seed", "x")

	var lists atomic.Int32
	var mu sync.Mutex
	var watchRVs []string
	lw := &informer.ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) {
			lists.Add(1)
			res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: o.ResourceVersion})
			if err != nil {
				return nil, err
			}
			l := &unstructured.UnstructuredList{Object: map[string]any{}}
			for _, it := range res.Items {
				l.Items = append(l.Items, *it.(*unstructured.Unstructured))
			}
			l.SetResourceVersion(strconv.FormatInt(res.ResourceVersion, 10))
			return l, nil
		},
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			mu.Lock()
			watchRVs = append(watchRVs, o.ResourceVersion)
			mu.Unlock()
			return st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: o.ResourceVersion,
				Predicate: storage.SelectionPredicate{AllowWatchBookmarks: o.AllowWatchBookmarks}})
		},
	}
	store := &gatedStore{Store: informer.NewStore(informer.MetaNamespaceKeyFunc), gate: make(chan struct{})}
	r := informer.NewReflector(lw, store, informer.ReflectorOptions{Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	defer func() { cancel(); <-done }()

	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(watchRVs) == 1
	}, 10*time.Second, time.Millisecond, "the reflector listed and watches")

	// The reflector blocks in the store on the first event; the writes
	// go on until the storage closes its watch.
	const writes = 40
	for i := range writes {
		create(t, st, fmt.Sprintf("w%02d", i), "x")
	}
	require.Eventually(t, func() bool { return logs.has("closing a watcher that fell behind") },
		10*time.Second, time.Millisecond, "the storage closes the slow watch")
	close(store.gate)

	require.Eventually(t, func() bool { return len(store.ListKeys()) == writes+1 },
		10*time.Second, time.Millisecond, "the reflector has every object")
	cur, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return r.LastSyncResourceVersion() == strconv.FormatInt(cur, 10) },
		10*time.Second, time.Millisecond)
	require.EqualValues(t, 1, lists.Load(), "no list after the slow watch was closed")
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, watchRVs, 2, "one watch again")
	again, _ := strconv.ParseInt(watchRVs[1], 10, 64)
	first, _ := strconv.ParseInt(watchRVs[0], 10, 64)
	require.Greater(t, again, first, "watched again from where it was, not from the list")
	require.Less(t, again, cur, "the rest came from history")
}

// gatedStore is a reflector's store whose Add waits for gate to close.
type gatedStore struct {
	informer.Store
	gate chan struct{}
}

func (s *gatedStore) Add(obj any) error {
	<-s.gate
	return s.Store.Add(obj)
}

// logLines is a slog.Handler that keeps the messages logged.
type logLines struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, r.Message)
	return nil
}

func (l *logLines) has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// TestDB_BookmarksCountFromEachWatch: a watch's first BOOKMARK comes a
// whole interval after the watch began, however long the store's other
// watches have run (one timer for all gave a watch started just after a
// tick its first bookmark at the next tick, with every other watch's).
func TestDB_BookmarksCountFromEachWatch(t *testing.T) {
	const interval = 300 * time.Millisecond
	db := openDB(t, bolt.Options{BookmarkInterval: interval})
	st := cronStore(db)
	opts := storage.ListOptions{Recursive: true, Predicate: storage.SelectionPredicate{AllowWatchBookmarks: true}}
	ctx := context.Background()

	first, err := st.Watch(ctx, storagetest.Prefix, opts)
	require.NoError(t, err)
	defer first.Stop()
	bookmark := func(w watch.Interface) time.Time {
		t.Helper()
		select {
		case ev := <-w.ResultChan():
			require.Equal(t, watch.Bookmark, ev.Type)
			return time.Now()
		case <-time.After(10 * time.Second):
			require.FailNow(t, "no bookmark")
			return time.Time{}
		}
	}
	bookmark(first)

	// Just after the first watch's bookmark: a second watch begins.
	began := time.Now()
	second, err := st.Watch(ctx, storagetest.Prefix, opts)
	require.NoError(t, err)
	defer second.Stop()
	got := bookmark(second)
	require.GreaterOrEqual(t, got.Sub(began), interval, "the second watch's first bookmark came before an interval of its own")
	bookmark(first) // the first still gets its own
}
