package bolt

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

// TestListedRevs: the least revision noted in the window, by the second;
// a second is forgotten once it ended window ago; with no window nothing
// is kept.
func TestListedRevs(t *testing.T) {
	t0 := time.Unix(1000, 0)
	l := &listedRevs{window: 10 * time.Second}
	require.Zero(t, l.oldest(t0))
	l.note(10, t0)
	l.note(8, t0.Add(500*time.Millisecond)) // the same second
	l.note(20, t0.Add(2*time.Second))
	require.Len(t, l.seconds, 2)
	require.EqualValues(t, 8, l.oldest(t0.Add(2*time.Second)))
	require.EqualValues(t, 8, l.oldest(t0.Add(11*time.Second)), "t0's second ended 10 s ago: kept")
	require.EqualValues(t, 20, l.oldest(t0.Add(11500*time.Millisecond)), "t0's second ended more than 10 s ago")
	require.Zero(t, l.oldest(t0.Add(14*time.Second)))
	require.Empty(t, l.seconds)

	off := &listedRevs{}
	off.note(5, t0)
	require.Zero(t, off.oldest(t0))
}

// TestAutoCompaction_KeepsListed: the automatic compaction does not forget
// the history after a list read in the last KeepListed, so that a watch
// from the list's revision (an informer's, once it has synced) gets every
// change after it instead of 410 Gone; without KeepListed the same
// compaction forgets it and the watch is told so.
func TestAutoCompaction_KeepsListed(t *testing.T) {
	for _, keep := range []time.Duration{0, time.Minute} {
		t.Run(fmt.Sprint("KeepListed=", keep), func(t *testing.T) {
			db, st := openThings(t, Options{NoSync: true,
				RetainRevisions: 2, CompactInterval: 5 * time.Millisecond, KeepListed: keep})
			const prefix = thingsPrefix
			ctx := context.Background()
			write := func(name string) {
				t.Helper()
				obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name}}}
				require.NoError(t, st.Create(ctx, prefix+"/"+name, obj, &unstructured.Unstructured{}))
			}
			for i := range 5 {
				write(fmt.Sprint("before-", i))
			}
			list, err := st.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
			require.NoError(t, err)
			listed := list.ResourceVersion
			for i := range 10 {
				write(fmt.Sprint("after-", i))
			}
			compacted := func() int64 { _, c := db.state(); return c }
			if keep == 0 {
				require.Eventually(t, func() bool { return compacted() > listed }, time.Minute, time.Millisecond)
				_, err := st.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(listed, 10)})
				require.ErrorIs(t, err, storage.ErrExpired)
				return
			}
			// The compactor goes as far as the list and stops there.
			require.Eventually(t, func() bool { return compacted() == listed }, time.Minute, time.Millisecond)
			w, err := st.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(listed, 10)})
			require.NoError(t, err)
			defer w.Stop()
			for i := range 10 {
				select {
				case ev, ok := <-w.ResultChan():
					require.True(t, ok, "the watch closed")
					require.Equal(t, watch.Added, ev.Type, "%v", ev.Object)
					require.Equal(t, fmt.Sprint("after-", i), ev.Object.(*unstructured.Unstructured).GetName())
				case <-time.After(10 * time.Second):
					t.Fatalf("event %d did not come", i)
				}
			}
			require.Equal(t, listed, compacted(), "the watch's start is kept too")
		})
	}
}
