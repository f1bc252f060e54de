package storagetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

func testCompact(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	exact := func(rev int64) storage.ListOptions {
		return storage.ListOptions{Recursive: true, ResourceVersion: rvString(rev), ResourceVersionMatch: metav1.ResourceVersionMatchExact}
	}

	t.Run("Boundaries", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		e.create(t, "a", "y", nil, "1")
		e.create(t, "a", "gone", nil, "1")
		e.setSpec(t, "a", "x", "2")
		e.delete(t, "a", "gone")
		at := e.current(t)
		before, err := e.store.GetList(e.ctx, Prefix, exact(at))
		require.NoError(t, err)
		e.setSpec(t, "a", "x", "3")
		e.setSpec(t, "a", "y", "2")
		after := e.current(t)

		require.NoError(t, e.backend.Compact(e.ctx, at))

		// Before the compacted revision: Expired, for lists and watches.
		_, err = e.store.GetList(e.ctx, Prefix, exact(at-1))
		require.ErrorIs(t, err, storage.ErrExpired)
		w, err := e.store.Watch(e.ctx, Prefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(at - 1)})
		expectExpired(t, w, err)

		// At the compacted revision: the same state as before compaction.
		res, err := e.store.GetList(e.ctx, Prefix, exact(at))
		require.NoError(t, err)
		require.Equal(t, versions(before.Items), versions(res.Items))
		require.Equal(t, []string{"a/x", "a/y"}, names(res.Items))

		// A watch from the compacted revision gets every later change.
		w, err = e.store.Watch(e.ctx, Prefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(at)})
		require.NoError(t, err)
		defer w.Stop()
		expectEvent(t, w, watch.Modified, "x", "3")
		got := expectEvent(t, w, watch.Modified, "y", "2")
		require.Equal(t, after, RV(t, got))

		// The latest state is untouched; a deleted key can come back.
		res, err = e.store.GetList(e.ctx, Prefix, storage.ListOptions{Recursive: true})
		require.NoError(t, err)
		require.Equal(t, []string{"a/x", "a/y"}, names(res.Items))
		require.Equal(t, "3", spec(res.Items[0]))
		e.create(t, "a", "gone", nil, "again")
		n, err := e.store.Count(e.ctx, Prefix)
		require.NoError(t, err)
		require.EqualValues(t, 3, n)
	})
	t.Run("ContinueTokenExpires", func(t *testing.T) {
		e := newEnv(t, newBackend)
		for _, n := range []string{"x", "y", "z"} {
			e.create(t, "a", n, nil, "1")
		}
		opts := storage.ListOptions{Recursive: true, Predicate: storage.SelectionPredicate{Limit: 1}}
		res, err := e.store.GetList(e.ctx, Prefix, opts)
		require.NoError(t, err)
		e.setSpec(t, "a", "x", "2")
		require.NoError(t, e.backend.Compact(e.ctx, e.current(t)))
		opts.Predicate.Continue = res.Continue
		_, err = e.store.GetList(e.ctx, Prefix, opts)
		require.ErrorIs(t, err, storage.ErrExpired)
	})
	t.Run("CompactToCurrentKeepsEverythingLive", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		e.setSpec(t, "a", "x", "2")
		e.create(t, "a", "y", nil, "1")
		e.delete(t, "a", "y")
		cur := e.current(t)
		require.NoError(t, e.backend.Compact(e.ctx, cur))
		got := &unstructured.Unstructured{}
		require.NoError(t, e.store.Get(e.ctx, Key("a", "x"), storage.GetOptions{}, got))
		require.Equal(t, "2", spec(got))
		w, err := e.store.Watch(e.ctx, Prefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(cur)})
		require.NoError(t, err)
		defer w.Stop()
		e.setSpec(t, "a", "x", "3")
		expectEvent(t, w, watch.Modified, "x", "3")
	})
	t.Run("Errors", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "1")
		e.setSpec(t, "a", "x", "2")
		cur := e.current(t)
		require.ErrorIs(t, e.backend.Compact(e.ctx, cur+1), storage.ErrTooLargeResourceVersion)
		require.NoError(t, e.backend.Compact(e.ctx, cur))
		require.ErrorIs(t, e.backend.Compact(e.ctx, cur), storage.ErrExpired, "already compacted")
		require.ErrorIs(t, e.backend.Compact(e.ctx, cur-1), storage.ErrExpired)
	})
}
