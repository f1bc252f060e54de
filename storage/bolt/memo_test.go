package bolt

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
)

// TestMemo_SweepForgetsIdleObjects checks that the decoded objects a list
// leaves on the records are forgotten by the second sweep without a read,
// that a read between two sweeps keeps its object, and that a record whose
// memo was emptied is remembered again by the next read.
func TestMemo_SweepForgetsIdleObjects(t *testing.T) {
	db, st := openThings(t, Options{NoSync: true, MemoIdle: -1}) // swept by hand
	const prefix = thingsPrefix
	ctx := context.Background()
	const n = 10
	for i := range n {
		obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": fmt.Sprint(i)}}}
		require.NoError(t, st.Create(ctx, fmt.Sprintf("%s/%d", prefix, i), obj, &unstructured.Unstructured{}))
	}
	require.Equal(t, 0, db.memos.len(), "writes remember nothing")
	list, err := st.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	require.Len(t, list.Items, n)
	require.Equal(t, n, db.memos.len(), "the list remembered every object")
	memoed := func(i int) bool { return db.latest(fmt.Sprintf("%s/%d", prefix, i)).memo.get(st.(*store)) != nil }

	require.Equal(t, n, db.memos.sweep(), "the first sweep only marks them unread")
	got := &unstructured.Unstructured{}
	require.NoError(t, st.Get(ctx, prefix+"/3", storage.GetOptions{}, got))
	require.Equal(t, 1, db.memos.sweep(), "the second sweep keeps only the one read since the first")
	require.Equal(t, 0, db.memos.sweep())
	for i := range n {
		require.False(t, memoed(i), "object %d forgotten", i)
	}

	// Read again: remembered again, and shared by the next list.
	list, err = st.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	require.Equal(t, n, db.memos.len())
	again, err := st.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	for i := range list.Items {
		require.Same(t, list.Items[i], again.Items[i], "one decode shared by both lists")
	}
}

// TestMemo_SweptObjectsAreCollected checks that what the sweep forgets
// leaves the live heap: 2,000 listed objects of ≈ 1 KB hold several MB
// until two sweeps, and less than a tenth of that after them.
func TestMemo_SweptObjectsAreCollected(t *testing.T) {
	db, st := openThings(t, Options{NoSync: true, MemoIdle: -1})
	const prefix = thingsPrefix
	ctx := context.Background()
	const n = 2000
	for i := range n {
		spec := map[string]any{}
		for j := range 20 {
			spec[fmt.Sprintf("field%02d", j)] = fmt.Sprintf("value %d of object %d", j, i)
		}
		obj := &unstructured.Unstructured{Object: map[string]any{
			"metadata": map[string]any{"name": fmt.Sprint(i), "labels": map[string]any{"app": "x"}}, "spec": spec}}
		require.NoError(t, st.Create(ctx, fmt.Sprintf("%s/%d", prefix, i), obj, &unstructured.Unstructured{}))
	}
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := live()
	list, err := st.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	require.Len(t, list.Items, n)
	list = nil
	listed := live()
	db.memos.sweep()
	db.memos.sweep()
	swept := live()
	held := int64(listed) - int64(before)
	t.Logf("live heap: %d KB before the list, %d KB after it, %d KB after two sweeps (%.0f B per object remembered)",
		before>>10, listed>>10, swept>>10, float64(held)/n)
	require.Greater(t, held, int64(n*1000), "the list left its decoded objects on the records")
	require.Less(t, int64(swept)-int64(before), held/10, "the sweeps let them go")
}

// TestMemo_DeleteForgetsObject checks that deleting a key forgets the
// object a list left on its record, and only that one.
func TestMemo_DeleteForgetsObject(t *testing.T) {
	db, st := openThings(t, Options{NoSync: true, MemoIdle: -1})
	const prefix = thingsPrefix
	ctx := context.Background()
	for i := range 2 {
		obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": fmt.Sprint(i)}}}
		require.NoError(t, st.Create(ctx, fmt.Sprintf("%s/%d", prefix, i), obj, &unstructured.Unstructured{}))
	}
	_, err := st.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	deleted, kept := db.latest(prefix+"/0"), db.latest(prefix+"/1")
	require.NotNil(t, deleted.memo.get(st.(*store)), "the list remembered it")

	out := &unstructured.Unstructured{}
	require.NoError(t, st.Delete(ctx, prefix+"/0", out, nil, nil))
	require.Equal(t, "0", out.GetName(), "the delete still answers the deleted state")
	require.Nil(t, deleted.memo.get(st.(*store)), "the deleted key's object is forgotten")
	require.NotNil(t, kept.memo.get(st.(*store)), "the other key's is not")
}

// TestMemo_UpdateRemembersItsResult checks that an update leaves its
// result decoded on the new record, so that the next update of the key
// finds its current state there, and that what the caller got is its own
// copy; a create still remembers nothing.
func TestMemo_UpdateRemembersItsResult(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "crdlab.db"), Options{NoSync: true, MemoIdle: -1})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	const prefix, key = "/registry/g/things", "/registry/g/things/a"
	st := db.ForResource(storage.ResourceConfig{Prefix: prefix, Codec: storage.JSONCodec{},
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} }})
	ctx := context.Background()
	obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "a"}, "n": int64(0)}}
	require.NoError(t, st.Create(ctx, key, obj, &unstructured.Unstructured{}))
	require.Equal(t, 0, db.memos.len(), "a create remembers nothing")

	bump := func(cur storage.Object) (storage.Object, error) {
		u := cur.(*unstructured.Unstructured)
		n, _ := u.Object["n"].(int64)
		u.Object["n"] = n + 1
		return u, nil
	}
	out := &unstructured.Unstructured{}
	require.NoError(t, st.GuaranteedUpdate(ctx, key, out, false, nil, bump))
	shared := db.latest(key).memo.get(st.(*store))
	require.NotNil(t, shared, "the update's result is remembered")
	require.Equal(t, out.Object, shared.(*unstructured.Unstructured).Object)
	out.Object["n"] = int64(99)
	require.EqualValues(t, 1, shared.(*unstructured.Unstructured).Object["n"], "out is the caller's copy")

	require.NoError(t, st.GuaranteedUpdate(ctx, key, out, false, nil, bump))
	require.EqualValues(t, 2, out.Object["n"], "the next update read the remembered state")
}
