package watch_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
)

func TestFakeWatcher(t *testing.T) {
	w := watch.NewFake()
	obj := &unstructured.Unstructured{Object: map[string]any{"kind": "CronTab"}}
	w.Add(obj)
	w.Modify(obj)
	w.Delete(obj)
	for _, want := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		ev := <-w.ResultChan()
		require.Equal(t, want, ev.Type)
		require.Same(t, obj, ev.Object)
	}
	w.Stop()
	w.Stop() // twice is fine
	require.True(t, w.IsStopped())
	_, open := <-w.ResultChan()
	require.False(t, open, "Stop closes the result channel")
	w.Add(obj) // after Stop: dropped, no panic
}

func TestFakeWatcher_ConcurrentStop(t *testing.T) {
	w := watch.NewFake()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); w.Add(&unstructured.Unstructured{}) }()
		go func() { defer wg.Done(); w.Stop() }()
	}
	// Drain so that no sender blocks on a full buffer.
	go func() {
		for range w.ResultChan() {
		}
	}()
	wg.Wait()
	require.True(t, w.IsStopped())
}
