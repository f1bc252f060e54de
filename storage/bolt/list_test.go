package bolt

import (
	"context"
	"errors"
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
	const n = 2*scanChunk + 10 // three chunks
	ctx := context.Background()
	db, st, open := thingsFile(t, n)
	encode := func(st storage.Interface) []string {
		t.Helper()
		res, err := st.GetList(ctx, thingsPrefix, storage.ListOptions{Recursive: true, Encoded: true})
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
	require.NotZero(t, db.latest(thingsPrefix+"/ns/o10000").splice.Load(), "the list keeps where the resourceVersion goes")
	require.Zero(t, db.memos.len(), "an encoded list decodes and remembers nothing")

	require.NoError(t, db.Close())
	db, st = open()
	defer func() { require.NoError(t, db.Close()) }()
	require.True(t, db.latest(thingsPrefix+"/ns/o10000").onDisk, "after Open, values stay in the file")
	reopened := encode(st)
	require.Equal(t, fresh, reopened)
	require.Zero(t, db.memos.len())

	dec, err := st.GetList(ctx, thingsPrefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	require.Len(t, dec.Items, n)
	for i, it := range dec.Items {
		want, err := unstructured.AppendJSON(nil, it.(*unstructured.Unstructured).Object)
		require.NoError(t, err)
		require.Equal(t, string(want), reopened[i])
	}
}

// TestGetList_StreamReadsTheRestAsItGoes: a list whose reader writes the
// items out as it goes (ListOptions.Stream) answers the first chunk in
// Encoded and the others through Rest — the same items, in the same
// order, as the list read whole — and Rest reads each chunk of values out
// of the file into the same buffer: a value handed out is overwritten by
// the next chunk's. Rest returns its reader's error, and Expired once a
// compaction has passed the list's revision.
func TestGetList_StreamReadsTheRestAsItGoes(t *testing.T) {
	const n = 2*scanChunk + 10 // three chunks
	ctx := context.Background()
	db, _, open := thingsFile(t, n)
	require.NoError(t, db.Close())
	db, st := open() // every value in the file
	defer func() { require.NoError(t, db.Close()) }()

	whole, err := st.GetList(ctx, thingsPrefix, storage.ListOptions{Recursive: true, Encoded: true})
	require.NoError(t, err)
	require.Nil(t, whole.Rest, "without Stream a page is whole")
	require.Len(t, whole.Encoded, n)

	opts := storage.ListOptions{Recursive: true, Encoded: true, Stream: true}
	res, err := st.GetList(ctx, thingsPrefix, opts)
	require.NoError(t, err)
	require.Equal(t, whole.ResourceVersion, res.ResourceVersion)
	require.Len(t, res.Encoded, scanChunk, "the first chunk")
	require.NotNil(t, res.Rest)
	var (
		handed [][]byte // as Rest handed them
		copies [][]byte // copied while they were valid
	)
	require.NoError(t, res.Rest(ctx, func(o storage.ObjectJSON) error {
		handed = append(handed, o.Data)
		copies = append(copies, append([]byte(nil), o.Data...))
		return nil
	}))
	require.Len(t, copies, n-scanChunk)
	for i, o := range res.Encoded {
		require.Equal(t, string(whole.Encoded[i].Data), string(o.Data))
	}
	for i, c := range copies {
		require.Equal(t, string(whole.Encoded[scanChunk+i].Data), string(c))
	}
	require.NotEqual(t, string(copies[0]), string(handed[0]), "the third chunk reuses the second's buffer")

	t.Run("ReaderError", func(t *testing.T) {
		res, err := st.GetList(ctx, thingsPrefix, opts)
		require.NoError(t, err)
		stop := errors.New("the client is gone")
		seen := 0
		err = res.Rest(ctx, func(storage.ObjectJSON) error { seen++; return stop })
		require.ErrorIs(t, err, stop)
		require.Equal(t, 1, seen)
	})
	t.Run("NoRestWithALimitOrMetadataOnly", func(t *testing.T) {
		for _, o := range []storage.ListOptions{
			{Recursive: true, Encoded: true, Stream: true, Predicate: storage.SelectionPredicate{Limit: 1500}},
			{Recursive: true, Encoded: true, Stream: true, MetadataOnly: true},
		} {
			res, err := st.GetList(ctx, thingsPrefix, o)
			require.NoError(t, err)
			require.Nil(t, res.Rest)
		}
	})
	t.Run("Compacted", func(t *testing.T) {
		res, err := st.GetList(ctx, thingsPrefix, opts)
		require.NoError(t, err)
		// Every object changes, and history up to now is compacted: the
		// list's revision is gone before Rest reads it.
		for i := range n {
			key := thingsPrefix + "/ns/o" + strconv.Itoa(10000+i)
			require.NoError(t, st.GuaranteedUpdate(ctx, key, &unstructured.Unstructured{}, false, nil,
				func(cur storage.Object) (storage.Object, error) {
					u := cur.(*unstructured.Unstructured)
					u.Object["spec"].(map[string]any)["changed"] = true
					return u, nil
				}))
		}
		rev, _ := db.state()
		require.NoError(t, db.Compact(ctx, rev))
		err = res.Rest(ctx, func(storage.ObjectJSON) error { return nil })
		var se *storage.Error
		require.True(t, errors.As(err, &se) && se.Kind == storage.ErrExpired, "%v", err)
	})
}

// thingsPrefix is where the objects of thingsFile and openThings are.
const thingsPrefix = "/registry/g/things"

// thingsFile writes n objects o10000, o10001, … into namespace ns of a new
// bolt file, and returns it still open (the caller closes it) and the
// function that opens it again.
func thingsFile(t *testing.T, n int) (db *DB, st storage.Interface, open func() (*DB, storage.Interface)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crdlab.db")
	cfg := storage.ResourceConfig{Prefix: thingsPrefix, Codec: storage.JSONCodec{},
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} }}
	open = func() (*DB, storage.Interface) {
		db, err := Open(path, Options{NoSync: true})
		require.NoError(t, err)
		return db, db.ForResource(cfg)
	}
	db, st = open()
	for i := range n {
		name := "o" + strconv.Itoa(10000+i)
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "g/v1", "kind": "Thing",
			"metadata": map[string]any{"name": name, "namespace": "ns", "labels": map[string]any{"i": strconv.Itoa(i)}},
			"spec":     map[string]any{"i": int64(i), "s": "<" + name + ">"}}}
		require.NoError(t, st.Create(context.Background(), thingsPrefix+"/ns/"+name, obj, &unstructured.Unstructured{}))
	}
	return db, st, open
}

// TestGetList_RemainingItemCount pages through 1,300 keys (three of the
// index's chunks), some of them deleted, 100 at a time: each page counts
// the keys after it — from the chunks' counts at the latest revision,
// after the writes and after a reopen by either way of rebuilding the
// index, and by walking the keys at an older revision (a write between
// two pages: the next pages read the first page's revision).
func TestGetList_RemainingItemCount(t *testing.T) {
	const n, limit = 1300, 100
	ctx := context.Background()
	db, st, open := thingsFile(t, n)
	for i := 0; i < n; i += 7 {
		name := "o" + strconv.Itoa(10000+i)
		require.NoError(t, st.Delete(ctx, thingsPrefix+"/ns/"+name, &unstructured.Unstructured{}, nil, nil))
	}
	live := n - (n+6)/7
	// pages lists every page; between runs after the first page, if set.
	pages := func(st storage.Interface, between func()) {
		t.Helper()
		got, cont := 0, ""
		for page := 0; ; page++ {
			res, err := st.GetList(ctx, thingsPrefix, storage.ListOptions{Recursive: true, Encoded: true,
				Predicate: storage.SelectionPredicate{Limit: limit, Continue: cont}})
			require.NoError(t, err)
			got += len(res.Encoded)
			if cont = res.Continue; cont == "" {
				require.Nil(t, res.RemainingItemCount, "the last page")
				break
			}
			require.NotNil(t, res.RemainingItemCount, "page %d", page)
			require.EqualValues(t, live-got, *res.RemainingItemCount, "page %d", page)
			if page == 0 && between != nil {
				between()
			}
		}
		require.Equal(t, live, got)
	}
	pages(st, nil)
	require.NoError(t, db.Close())
	for _, through := range []bool{true, false} {
		was := rebuildThroughCheck
		rebuildThroughCheck = through
		db, st = open()
		rebuildThroughCheck = was
		pages(st, nil)
		require.NoError(t, db.Close())
	}
	db, st = open()
	defer db.Close()
	pages(st, func() {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "g/v1", "kind": "Thing",
			"metadata": map[string]any{"name": "o10650a", "namespace": "ns"}}}
		require.NoError(t, st.Create(ctx, thingsPrefix+"/ns/o10650a", obj, &unstructured.Unstructured{}))
	})
}
