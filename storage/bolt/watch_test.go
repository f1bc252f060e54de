package bolt_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestDB_WatchFanOut: 1,000 watchers all receive every event of 10,000
// writes, in order, while one stalled watcher (never read) is closed
// without an error and neither the writers nor the other watchers wait
// for it; a watch from the last revision it got replays the rest.
func TestDB_WatchFanOut(t *testing.T) {
	watchers, writes, writers := 1000, 10000, 4
	if raceEnabled {
		writes = 2000
	}
	if testing.Short() {
		watchers, writes = 100, 2000 // more than the stalled watcher's buffer of 1024
	}
	db := openDB(t, bolt.Options{})
	st := db.ForResource(storagetest.ResourceConfig())
	ctx := context.Background()
	start, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	opts := storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(start, 10)}

	stalled, err := st.Watch(ctx, storagetest.Prefix, opts)
	require.NoError(t, err)
	defer stalled.Stop()

	last := start + int64(writes)
	var wg sync.WaitGroup
	failures := make(chan string, watchers)
	for i := range watchers {
		w, err := st.Watch(ctx, storagetest.Prefix, opts)
		require.NoError(t, err)
		defer w.Stop()
		wg.Go(func() {
			want := start + 1
			for ev := range w.ResultChan() {
				if ev.Type == watch.Error {
					failures <- fmt.Sprintf("watcher %d closed at %d: %s", i, want, ev.Object.(*metav1.Status).Message)
					return
				}
				rv, _ := strconv.ParseInt(ev.Object.(storage.Object).GetResourceVersion(), 10, 64)
				if rv != want {
					failures <- fmt.Sprintf("watcher %d: got revision %d, want %d", i, rv, want)
					return
				}
				if want == last {
					return
				}
				want++
			}
			failures <- fmt.Sprintf("watcher %d: closed before revision %d", i, want)
		})
	}

	began := time.Now()
	var ww sync.WaitGroup
	writeErrs := make(chan error, writers)
	for g := range writers {
		ww.Go(func() {
			for i := g; i < writes; i += writers {
				name := fmt.Sprint("o", i%200)
				out := &unstructured.Unstructured{}
				err := st.GuaranteedUpdate(ctx, storagetest.Key("default", name), out, true, nil,
					func(cur storage.Object) (storage.Object, error) {
						u := storagetest.CronTab("default", name, nil, strconv.Itoa(i))
						u.SetUID(cur.GetUID())
						return u, nil
					})
				if err != nil {
					writeErrs <- err
					return
				}
			}
		})
	}
	ww.Wait()
	close(writeErrs)
	for err := range writeErrs {
		require.NoError(t, err)
	}
	wrote := time.Since(began)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		t.Fatal("the watchers did not get every event within 5 minutes")
	}
	delivered := time.Since(began)
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	t.Logf("%d writes by %d writers in %v (%.0f/s); %d watchers had every event after %v",
		writes, writers, wrote, float64(writes)/wrote.Seconds(), watchers, delivered)

	// The stalled watcher was closed: its buffer, then the end of the
	// watch, without an ERROR (as upstream's cacher closes a watcher it
	// cannot feed). A watch from the last revision it got replays the
	// rest from history: nothing is missed, no list is needed.
	got := start
	for n := 0; ; n++ {
		var ev watch.Event
		var ok bool
		select {
		case ev, ok = <-stalled.ResultChan():
		case <-time.After(10 * time.Second):
			t.Fatalf("the stalled watcher is still open after %d events", n)
		}
		if !ok {
			require.Equal(t, 1024, n, "the stalled watcher got its buffer's worth")
			break
		}
		require.NotEqual(t, watch.Error, ev.Type, "closed with an ERROR: %v", ev.Object)
		require.Less(t, n, 1024)
		got = storagetest.RV(t, ev.Object.(storage.Object))
		require.Equal(t, start+int64(n)+1, got, "event %d", n)
	}
	again, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(got, 10)})
	require.NoError(t, err)
	defer again.Stop()
	for want := got + 1; want <= last; want++ {
		ev, ok := recv(t, again)
		require.True(t, ok, "the watch again closed before revision %d", want)
		require.Equal(t, want, storagetest.RV(t, ev.Object.(storage.Object)))
	}
}
