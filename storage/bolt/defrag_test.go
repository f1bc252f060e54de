package bolt_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

func fileBytes(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	return fi.Size()
}

// TestDB_CompactDefragments: a compaction that frees most of the file
// defragments it, and the smaller file holds the same state, in memory
// and after a reopen (Strict checks the file against the index both times).
func TestDB_CompactDefragments(t *testing.T) {
	for _, tc := range []struct {
		name   string
		free   float64
		shrink bool
	}{{"default", 0, true}, {"never", -1, false}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "crdlab.db")
			db, err := bolt.Open(path, bolt.Options{Strict: true, DefragmentFree: tc.free, NoSync: true})
			require.NoError(t, err)
			st := cronStore(db)
			big := func(i int) string { return strings.Repeat(strconv.Itoa(i%10), 4000) }
			for i := range 400 {
				create(t, st, fmt.Sprintf("o%03d", i), big(i))
			}
			for round := 1; round <= 2; round++ {
				for i := range 400 {
					setSpec(t, st, fmt.Sprintf("o%03d", i), big(i+round))
				}
			}
			before := fileBytes(t, path)
			cur, err := db.CurrentRevision(ctx)
			require.NoError(t, err)
			require.NoError(t, db.Compact(ctx, cur))
			after := fileBytes(t, path)
			if tc.shrink {
				require.Less(t, after, before/2, "the file shrinks")
			} else {
				require.Equal(t, before, after, "the file is left alone")
			}
			// Writes and reads go on in the new file.
			setSpec(t, st, "o000", "after")
			check := func(st storage.Interface) {
				res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
				require.NoError(t, err)
				require.Len(t, res.Items, 400)
				for i, it := range res.Items {
					spec, _, _ := unstructuredString(it, "spec", "cronSpec")
					if i == 0 {
						require.Equal(t, "after", spec)
					} else {
						require.Equal(t, big(i+2), spec, it.GetName())
					}
				}
				_, err = listAt(st, cur)
				require.NoError(t, err, "the compacted revision is still readable")
			}
			check(st)
			require.NoError(t, db.Close())
			db, err = bolt.Open(path, bolt.Options{Strict: true})
			require.NoError(t, err)
			defer db.Close()
			check(cronStore(db))
		})
	}
}

// TestDB_DefragmentUnderWrites: writers keep writing while the file is
// defragmented again and again; a watcher from before sees every revision
// once and in order, and every acknowledged write is in the file after a
// reopen.
func TestDB_DefragmentUnderWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := bolt.Open(path, bolt.Options{Strict: true})
	require.NoError(t, err)
	st := cronStore(db)
	fillN(t, st, 2500) // more than one copy chunk
	start, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(start, 10)})
	require.NoError(t, err)
	defer w.Stop()

	var stop atomic.Bool
	acked := make([]int, 8) // acked[w]: the last value writer w had acknowledged
	var wg sync.WaitGroup
	for wr := range acked {
		wg.Go(func() {
			for v := 1; !stop.Load(); v++ {
				setSpec(t, st, fmt.Sprintf("o%05d", wr), strconv.Itoa(v))
				acked[wr] = v
			}
		})
	}
	for range 5 {
		require.NoError(t, db.Defragment(ctx))
	}
	stop.Store(true)
	wg.Wait()
	end, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	require.Greater(t, end, start, "writes went on")
	for want := start + 1; want <= end; want++ {
		ev, ok := recv(t, w)
		require.True(t, ok)
		require.Equal(t, watch.Modified, ev.Type)
		require.Equal(t, want, storagetest.RV(t, ev.Object.(storage.Object)), "every revision once, in order")
	}

	require.NoError(t, db.Close())
	db, err = bolt.Open(path, bolt.Options{Strict: true})
	require.NoError(t, err)
	defer db.Close()
	st = cronStore(db)
	for wr, v := range acked {
		got := getObj(t, st, fmt.Sprintf("o%05d", wr))
		spec, _, _ := unstructuredString(got, "spec", "cronSpec")
		require.Equal(t, strconv.Itoa(v), spec)
	}
	rev, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	require.Equal(t, end, rev)
}

// TestOpen_RemovesDefragmentLeftover: a copy a crash left before its
// rename is removed, and the data file is opened as it was.
func TestOpen_RemovesDefragmentLeftover(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := bolt.Open(path, bolt.Options{})
	require.NoError(t, err)
	create(t, cronStore(db), "a", "1")
	require.NoError(t, db.Close())
	require.NoError(t, os.WriteFile(path+".defrag", []byte("half a copy"), 0o600))
	db, err = bolt.Open(path, bolt.Options{Strict: true})
	require.NoError(t, err)
	defer db.Close()
	_, err = os.Stat(path + ".defrag")
	require.ErrorIs(t, err, os.ErrNotExist)
	getObj(t, cronStore(db), "a")
}

func getObj(t *testing.T, st storage.Interface, name string) storage.Object {
	t.Helper()
	out := &unstructured.Unstructured{}
	require.NoError(t, st.Get(ctx, storagetest.Key("default", name), storage.GetOptions{}, out))
	return out
}

func unstructuredString(o storage.Object, path ...string) (string, bool, error) {
	return unstructured.NestedString(o.(*unstructured.Unstructured).Object, path...)
}

// defragmenting is a DB whose every compaction is followed by a
// defragmentation, however little it freed.
type defragmenting struct{ *bolt.DB }

func (d defragmenting) Compact(ctx context.Context, rev int64) error {
	if err := d.DB.Compact(ctx, rev); err != nil {
		return err
	}
	return d.DB.Defragment(ctx)
}

// TestDB_ConformanceDefragmenting runs the conformance suite with a
// defragmentation after every compaction: reads, watches and writes
// across the switch to the new file keep every promise.
func TestDB_ConformanceDefragmenting(t *testing.T) { runConformanceDefragmenting(t) }

// runConformanceDefragmenting runs the conformance suite on DBs that
// defragment after every compaction and are checked after each test.
func runConformanceDefragmenting(t *testing.T) {
	storagetest.RunConformance(t, func(t *testing.T) storage.Backend {
		db := openDB(t, bolt.Options{Strict: true})
		t.Cleanup(func() {
			if err := db.Check(); err != nil && !errors.Is(err, storage.ErrInternal) {
				t.Errorf("Check after the test: %v", err)
			}
		})
		return defragmenting{db}
	})
}

// TestDB_CompactUnderWrites: writers keep writing while a compaction's
// deletes ride in their commits; afterwards the file holds exactly what
// compaction keeps (Strict checks it at the reopen; not while the writers
// run: bbolt's Tx.Check reads the freelist without the lock commits take)
// and every acknowledged write.
func TestDB_CompactUnderWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := bolt.Open(path, bolt.Options{DefragmentFree: -1})
	require.NoError(t, err)
	st := cronStore(db)
	fillN(t, st, 3000) // more than one commit's deletes
	for i := range 3000 {
		if i%3 == 0 {
			setSpec(t, st, fmt.Sprintf("o%05d", i), "y")
		}
	}
	rev, err := db.CurrentRevision(ctx)
	require.NoError(t, err)

	var stop atomic.Bool
	acked := make([]int, 8)
	var wg sync.WaitGroup
	for wr := range acked {
		wg.Go(func() {
			for v := 1; !stop.Load(); v++ {
				setSpec(t, st, fmt.Sprintf("o%05d", 1+3*wr), strconv.Itoa(v))
				acked[wr] = v
			}
		})
	}
	require.NoError(t, db.Compact(ctx, rev))
	stop.Store(true)
	wg.Wait()
	_, err = listAt(st, rev-1)
	require.ErrorIs(t, err, storage.ErrExpired)

	require.NoError(t, db.Close())
	db, err = bolt.Open(path, bolt.Options{Strict: true})
	require.NoError(t, err)
	defer db.Close()
	st = cronStore(db)
	for wr, v := range acked {
		spec, _, _ := unstructuredString(getObj(t, st, fmt.Sprintf("o%05d", 1+3*wr)), "spec", "cronSpec")
		require.Equal(t, strconv.Itoa(v), spec)
	}
	res, err := listAt(st, rev)
	require.NoError(t, err, "the compacted revision is still readable")
	require.Len(t, res.Items, 3000)
}
