package bolt

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
)

// TestGetList_EncodedTakesTheStoredBytes: a list asking for the stored
// bytes gets them — from the index's values after the writes, from the
// file after a reopen (every value onDisk, read in the scan's
// transactions: withValue) — decodes nothing and remembers nothing on the
// records (decodeMemo), and writes what the decoded list writes.
func TestGetList_EncodedTakesTheStoredBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	const prefix = "/registry/g/things"
	cfg := storage.ResourceConfig{Prefix: prefix, Codec: storage.JSONCodec{},
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} }}
	ctx := context.Background()
	const n = 2*scanChunk + 10 // three chunks
	open := func() (*DB, storage.Interface) {
		db, err := Open(path, Options{NoSync: true})
		require.NoError(t, err)
		return db, db.ForResource(cfg)
	}

	db, st := open()
	for i := range n {
		name := "o" + strconv.Itoa(10000+i)
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "g/v1", "kind": "Thing",
			"metadata": map[string]any{"name": name, "namespace": "ns", "labels": map[string]any{"i": strconv.Itoa(i)}},
			"spec":     map[string]any{"i": int64(i), "s": "<" + name + ">"}}}
		require.NoError(t, st.Create(ctx, prefix+"/ns/"+name, obj, &unstructured.Unstructured{}))
	}
	encode := func(st storage.Interface) []string {
		t.Helper()
		res, err := st.GetList(ctx, prefix, storage.ListOptions{Recursive: true, Encoded: true})
		require.NoError(t, err)
		require.NotNil(t, res.Encoded, "bolt answers with the stored bytes")
		require.Nil(t, res.Items)
		out := make([]string, len(res.Encoded))
		for i, o := range res.Encoded {
			b, _, _, ok := o.AppendJSON(nil)
			require.True(t, ok)
			out[i] = string(b)
		}
		return out
	}
	fresh := encode(st)
	require.Len(t, fresh, n)
	require.NotZero(t, db.latest(prefix+"/ns/o10000").splice.Load(), "the list keeps where the resourceVersion goes")
	require.Zero(t, db.memos.len(), "an encoded list decodes and remembers nothing")

	require.NoError(t, db.Close())
	db, st = open()
	defer func() { require.NoError(t, db.Close()) }()
	require.True(t, db.latest(prefix+"/ns/o10000").onDisk, "after Open, values stay in the file")
	reopened := encode(st)
	require.Equal(t, fresh, reopened)
	require.Zero(t, db.memos.len())

	dec, err := st.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	require.Len(t, dec.Items, n)
	for i, it := range dec.Items {
		want, err := unstructured.AppendJSON(nil, it.(*unstructured.Unstructured).Object)
		require.NoError(t, err)
		require.Equal(t, string(want), reopened[i])
	}
}
