package bolt

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
)

func TestCopyInto(t *testing.T) {
	src := &unstructured.Unstructured{Object: map[string]any{"a": map[string]any{"b": "c"}}}
	dst := &unstructured.Unstructured{}
	require.True(t, copyInto(dst, src))
	require.Equal(t, src.Object, dst.Object)
	dst.Object["a"].(map[string]any)["b"] = "changed"
	require.Equal(t, "c", src.Object["a"].(map[string]any)["b"], "a deep copy")
	require.False(t, copyInto(&metav1.PartialObjectMetadata{}, src), "another type")
}

// TestStore_LargeValuesAreNotMemoized checks that a record keeps the
// decoded object of a small value (every read shares it) but not of one
// larger than memoMaxValue, whose reads, lists and watch events each get
// their own object, equal to what was written.
func TestStore_LargeValuesAreNotMemoized(t *testing.T) {
	db, st := openThings(t, Options{NoSync: true})
	const prefix = thingsPrefix
	ctx := context.Background()
	rev, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	w, err := st.Watch(ctx, prefix, storage.ListOptions{ResourceVersion: strconv.FormatInt(rev, 10), Recursive: true})
	require.NoError(t, err)
	defer w.Stop()
	for _, c := range []struct {
		name   string
		size   int
		memoed bool
	}{{"small", 1 << 10, true}, {"large", memoMaxValue + 1, false}} {
		t.Run(c.name, func(t *testing.T) {
			key := prefix + "/" + c.name
			obj := &unstructured.Unstructured{Object: map[string]any{
				"metadata": map[string]any{"name": c.name}, "data": strings.Repeat("x", c.size)}}
			require.NoError(t, st.Create(ctx, key, obj, &unstructured.Unstructured{}))
			select {
			case ev := <-w.ResultChan():
				require.Equal(t, c.name, ev.Object.(*unstructured.Unstructured).GetName())
				require.Equal(t, obj.Object["data"], ev.Object.(*unstructured.Unstructured).Object["data"])
			case <-time.After(time.Minute):
				t.Fatal("no watch event within a minute")
			}
			got := &unstructured.Unstructured{}
			require.NoError(t, st.Get(ctx, key, storage.GetOptions{}, got))
			require.Equal(t, obj.Object["data"], got.Object["data"])
			got.Object["data"] = "changed" // the reader's own copy
			list, err := st.GetList(ctx, key, storage.ListOptions{})
			require.NoError(t, err)
			require.Len(t, list.Items, 1)
			require.Equal(t, obj.Object["data"], list.Items[0].(*unstructured.Unstructured).Object["data"])
			r := db.latest(key)
			require.NotNil(t, r)
			require.Equal(t, c.memoed, r.memo.get(st.(*store)) != nil, "memoized")
		})
	}
}
