package bolt_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestDB_ConformanceOutOfLine runs the conformance suite with every record
// kept in the values bucket and a stub in history (outofline.go), and a
// defragmentation after every compaction: the pair behaves as history
// alone did.
func TestDB_ConformanceOutOfLine(t *testing.T) {
	t.Cleanup(bolt.SetOutOfLineMin(0))
	runConformanceDefragmenting(t)
}

// TestDB_LargeRecordsOutOfLine: records of large objects go to the values
// bucket, so history's leaves stay few, and everything that reads a
// record's value (get after a reopen, a list at an old revision, a watch
// that replays history, compaction, defragmentation) finds it there.
func TestDB_LargeRecordsOutOfLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := bolt.Open(path, bolt.Options{Strict: true, NoSync: true})
	require.NoError(t, err)
	st := cronStore(db)
	const n = 150
	big := func(i, round int) string { return strings.Repeat(strconv.Itoa((i+round)%10), 20000) }
	for i := range n {
		create(t, st, fmt.Sprintf("big%03d", i), big(i, 0))
		create(t, st, fmt.Sprintf("small%03d", i), "*/5 * * * *")
	}
	before, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	for i := range n {
		setSpec(t, st, fmt.Sprintf("big%03d", i), big(i, 1))
	}
	require.NoError(t, db.Check())
	require.NoError(t, db.Close())

	shape, err := bolt.HistoryShape(path)
	require.NoError(t, err)
	require.Equal(t, 3*n, shape.Records, "history has a record (or a stub) for every write")
	require.Equal(t, 2*n, shape.Stubs, "the large writes are stubs in history")
	require.Equal(t, 2*n, shape.Values, "the values bucket has the large writes")
	require.Zero(t, shape.PlainValues, "each large record in a bucket of its own")
	require.Equal(t, "crdlab.storage/v3", shape.Format)
	// Each large record in history's leaves would take a leaf of its own,
	// or half of one: n*2/2 leaves at least.
	require.Less(t, shape.Leaves, n/4, "history's leaves hold stubs, not large records")

	// Reopen: the values are read from the values bucket.
	db, err = bolt.Open(path, bolt.Options{Strict: true, NoSync: true})
	require.NoError(t, err)
	st = cronStore(db)
	spec := func(o storage.Object) string {
		s, _, _ := unstructuredString(o, "spec", "cronSpec")
		return s
	}
	for i := range n {
		require.Equal(t, big(i, 1), spec(getObj(t, st, fmt.Sprintf("big%03d", i))))
	}
	old, err := listAt(st, before)
	require.NoError(t, err)
	require.Len(t, old.Items, 2*n)
	for _, it := range old.Items {
		if name := it.GetName(); strings.HasPrefix(name, "big") {
			i, _ := strconv.Atoi(strings.TrimPrefix(name, "big"))
			require.Equal(t, big(i, 0), spec(it), name)
		}
	}
	// A watch from before the updates replays them from history.
	w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(before, 10)})
	require.NoError(t, err)
	for i := range n {
		select {
		case ev := <-w.ResultChan():
			require.Equal(t, watch.Modified, ev.Type)
			require.Equal(t, big(i, 1), spec(ev.Object.(storage.Object)))
		case <-time.After(10 * time.Second):
			t.Fatalf("no event %d within 10s", i)
		}
	}
	w.Stop()

	// Compaction deletes the superseded large records from both buckets.
	cur, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	require.NoError(t, db.Compact(ctx, cur))
	require.NoError(t, db.Check())
	require.NoError(t, db.Close())
	shape, err = bolt.HistoryShape(path)
	require.NoError(t, err)
	require.Equal(t, 2*n, shape.Records)
	require.Equal(t, n, shape.Stubs)
	require.Equal(t, n, shape.Values, "the values bucket keeps only the latest large records")
	require.Zero(t, shape.PlainValues)
	require.Equal(t, "crdlab.storage/v3", shape.Format, "a defragmented copy keeps the format")

	db, err = bolt.Open(path, bolt.Options{Strict: true})
	require.NoError(t, err)
	defer db.Close()
	st = cronStore(db)
	for i := range n {
		require.Equal(t, big(i, 1), spec(getObj(t, st, fmt.Sprintf("big%03d", i))))
	}
}

// TestDB_SmallRecordsKeepFormatV1: a file that never held a large record
// has no values bucket and keeps format v1, which a crdlab that predates
// the values bucket reads.
func TestDB_SmallRecordsKeepFormatV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := bolt.Open(path, bolt.Options{Strict: true})
	require.NoError(t, err)
	create(t, cronStore(db), "small", strings.Repeat("x", 4000))
	require.NoError(t, db.Close())
	shape, err := bolt.HistoryShape(path)
	require.NoError(t, err)
	require.Equal(t, bolt.FileShape{Format: "crdlab.storage/v1", Leaves: 1, Records: 1}, shape)
}

// TestOpen_ErrCorruptMissingValue: a stub whose record is not in the
// values bucket, or a record there without a stub, is corruption: Open
// with Strict refuses the file, and without it a read of the object is an
// internal error, not a panic or a wrong value.
func TestOpen_ErrCorruptMissingValue(t *testing.T) {
	setup := func(t *testing.T) string {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		create(t, cronStore(db), "big", strings.Repeat("x", 20000))
		create(t, cronStore(db), "small", "*/5 * * * *")
		require.NoError(t, db.Close())
		return path
	}
	// edit changes the values bucket behind the store's back.
	edit := func(t *testing.T, path string, f func(vals *bbolt.Bucket) error) {
		b, err := bbolt.Open(path, 0o600, nil)
		require.NoError(t, err)
		require.NoError(t, b.Update(func(tx *bbolt.Tx) error { return f(tx.Bucket([]byte("values"))) }))
		require.NoError(t, b.Close())
	}
	t.Run("StubWithoutRecord", func(t *testing.T) {
		path := setup(t)
		edit(t, path, func(vals *bbolt.Bucket) error {
			k, _ := vals.Cursor().First()
			return vals.DeleteBucket(k)
		})
		_, err := bolt.Open(path, bolt.Options{Strict: true})
		require.ErrorIs(t, err, bolt.ErrCorrupt)
		require.Contains(t, err.Error(), "the values bucket no record")

		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		defer db.Close()
		err = cronStore(db).Get(ctx, storagetest.Key("default", "big"), storage.GetOptions{}, &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrInternal)
		getObj(t, cronStore(db), "small") // the rest reads on
	})
	t.Run("RecordWithoutStub", func(t *testing.T) {
		path := setup(t)
		edit(t, path, func(vals *bbolt.Bucket) error {
			k, _ := vals.Cursor().First()
			b, err := vals.CreateBucket(append([]byte{0xff}, k[1:]...))
			if err != nil {
				return err
			}
			return b.Put([]byte("r"), vals.Bucket(k).Get([]byte("r")))
		})
		_, err := bolt.Open(path, bolt.Options{Strict: true})
		require.ErrorIs(t, err, bolt.ErrCorrupt)
		require.Contains(t, err.Error(), "which history has no stub for")
	})
}

// TestOpen_FormatV2PlainValues: a file written before records had buckets
// of their own (format v2: plain values in the values bucket) opens, reads
// and passes Check; the next large write moves it to v3, with both kinds
// in the values bucket; compaction and defragmentation handle both.
func TestOpen_FormatV2PlainValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := bolt.Open(path, bolt.Options{Strict: true})
	require.NoError(t, err)
	for i := range 3 {
		create(t, cronStore(db), fmt.Sprintf("big%d", i), strings.Repeat(strconv.Itoa(i), 20000))
	}
	require.NoError(t, db.Close())
	// What a v2 build wrote: each record a plain value.
	b, err := bbolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, b.Update(func(tx *bbolt.Tx) error {
		vals := tx.Bucket([]byte("values"))
		var keys [][]byte
		require.NoError(t, vals.ForEach(func(k, _ []byte) error { keys = append(keys, append([]byte(nil), k...)); return nil }))
		for _, k := range keys {
			v := append([]byte(nil), vals.Bucket(k).Get([]byte("r"))...)
			require.NoError(t, vals.DeleteBucket(k))
			require.NoError(t, vals.Put(k, v))
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), []byte("crdlab.storage/v2"))
	}))
	require.NoError(t, b.Close())
	shape, err := bolt.HistoryShape(path)
	require.NoError(t, err)
	require.Equal(t, 3, shape.PlainValues)

	db, err = bolt.Open(path, bolt.Options{Strict: true, NoSync: true})
	require.NoError(t, err)
	st := cronStore(db)
	spec := func(o storage.Object) string {
		s, _, _ := unstructuredString(o, "spec", "cronSpec")
		return s
	}
	for i := range 3 {
		require.Equal(t, strings.Repeat(strconv.Itoa(i), 20000), spec(getObj(t, st, fmt.Sprintf("big%d", i))))
	}
	setSpec(t, st, "big0", strings.Repeat("7", 20000))
	require.NoError(t, db.Check())
	require.NoError(t, db.Close())
	shape, err = bolt.HistoryShape(path)
	require.NoError(t, err)
	require.Equal(t, "crdlab.storage/v3", shape.Format)
	require.Equal(t, 4, shape.Values)
	require.Equal(t, 3, shape.PlainValues)

	db, err = bolt.Open(path, bolt.Options{Strict: true, NoSync: true})
	require.NoError(t, err)
	cur, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	require.NoError(t, db.Compact(ctx, cur)) // deletes big0's plain value
	require.NoError(t, db.Check())
	require.NoError(t, db.Defragment(ctx))
	require.NoError(t, db.Check())
	st = cronStore(db)
	require.Equal(t, strings.Repeat("7", 20000), spec(getObj(t, st, "big0")))
	require.Equal(t, strings.Repeat("2", 20000), spec(getObj(t, st, "big2")))
	require.NoError(t, db.Close())
	shape, err = bolt.HistoryShape(path)
	require.NoError(t, err)
	require.Equal(t, 3, shape.Values)
	require.Zero(t, shape.PlainValues, "the defragmented copy has each record in a bucket of its own")
}
