package bolt_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.etcd.io/bbolt"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

var ctx = context.Background()

func cronStore(db *bolt.DB) storage.Interface { return db.ForResource(storagetest.ResourceConfig()) }

func create(t testing.TB, st storage.Interface, name, spec string) *unstructured.Unstructured {
	t.Helper()
	out := &unstructured.Unstructured{}
	require.NoError(t, st.Create(ctx, storagetest.Key("default", name), storagetest.CronTab("default", name, nil, spec), out))
	return out
}

func setSpec(t testing.TB, st storage.Interface, name, spec string) *unstructured.Unstructured {
	t.Helper()
	out := &unstructured.Unstructured{}
	require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.Key("default", name), out, false, nil,
		func(cur storage.Object) (storage.Object, error) {
			u := cur.(*unstructured.Unstructured)
			return u, unstructured.SetNestedField(u.Object, spec, "spec", "cronSpec")
		}))
	return out
}

func listAt(st storage.Interface, rev int64) (*storage.ListResult, error) {
	return st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true,
		ResourceVersion: strconv.FormatInt(rev, 10), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
}

func TestOpen(t *testing.T) {
	t.Run("ErrForeignFileGarbage", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "garbage")
		junk := make([]byte, 16384)
		_, _ = rand.Read(junk)
		require.NoError(t, os.WriteFile(path, junk, 0o600))
		_, err := bolt.Open(path, bolt.Options{})
		require.ErrorIs(t, err, bolt.ErrForeignFile)
		after, _ := os.ReadFile(path)
		require.Equal(t, junk, after, "never re-initialised")
	})
	t.Run("ErrForeignFileOtherBboltDatabase", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "other.db")
		b, err := bbolt.Open(path, 0o600, nil)
		require.NoError(t, err)
		require.NoError(t, b.Update(func(tx *bbolt.Tx) error {
			bk, err := tx.CreateBucket([]byte("users"))
			if err != nil {
				return err
			}
			return bk.Put([]byte("alice"), []byte("admin"))
		}))
		require.NoError(t, b.Close())
		_, err = bolt.Open(path, bolt.Options{})
		require.ErrorIs(t, err, bolt.ErrForeignFile)
		require.Contains(t, err.Error(), "users")
	})
	t.Run("ErrForeignFileUnknownFormat", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		require.NoError(t, db.Close())
		withBolt(t, path, func(tx *bbolt.Tx) error {
			return tx.Bucket([]byte("meta")).Put([]byte("format"), []byte("crdlab.storage/v99"))
		})
		_, err = bolt.Open(path, bolt.Options{})
		require.ErrorIs(t, err, bolt.ErrForeignFile)
		require.Contains(t, err.Error(), "v99")
	})
	t.Run("ErrCorruptRecord", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		create(t, cronStore(db), "a", "x")
		require.NoError(t, db.Close())
		withBolt(t, path, func(tx *bbolt.Tx) error {
			h := tx.Bucket([]byte("history"))
			k, v := h.Cursor().First()
			bad := bytes.Replace(v, []byte(`"x"`), []byte(`"y"`), 1)
			require.NotEqual(t, v, bad)
			return h.Put(k, bad)
		})
		_, err = bolt.Open(path, bolt.Options{})
		require.ErrorIs(t, err, bolt.ErrCorrupt)
		require.Contains(t, err.Error(), "checksum")
	})
	t.Run("ErrLocked", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		defer db.Close()
		_, err = bolt.Open(path, bolt.Options{LockTimeout: 50 * time.Millisecond})
		require.ErrorIs(t, err, bolt.ErrLocked)
	})
	t.Run("RestartKeepsEverything", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		st := cronStore(db)
		create(t, st, "a", "1")
		create(t, st, "b", "1")
		old := setSpec(t, st, "a", "2")
		setSpec(t, st, "a", "3")
		require.NoError(t, st.Delete(ctx, storagetest.Key("default", "b"), &unstructured.Unstructured{}, nil, nil))
		require.NoError(t, db.Compact(ctx, storagetest.RV(t, old)))
		create(t, st, "c", "1")
		cur, _ := db.CurrentRevision(ctx)
		before, err := listAt(st, storagetest.RV(t, old))
		require.NoError(t, err)
		require.NoError(t, db.Close())

		db, err = bolt.Open(path, bolt.Options{Strict: true})
		require.NoError(t, err)
		defer db.Close()
		st = cronStore(db)
		got, _ := db.CurrentRevision(ctx)
		require.Equal(t, cur, got)
		after, err := listAt(st, storagetest.RV(t, old))
		require.NoError(t, err, "history survives")
		require.Equal(t, before.Items, after.Items)
		_, err = listAt(st, storagetest.RV(t, old)-1)
		require.ErrorIs(t, err, storage.ErrExpired, "so does compaction")
		res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
		require.NoError(t, err)
		require.Len(t, res.Items, 2)
		next := create(t, st, "d", "1")
		require.Equal(t, cur+1, storagetest.RV(t, next), "revisions go on")
	})
	t.Run("RevisionSurvivesEmptyHistory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		st := cronStore(db)
		create(t, st, "a", "1")
		require.NoError(t, st.Delete(ctx, storagetest.Key("default", "a"), &unstructured.Unstructured{}, nil, nil))
		cur, _ := db.CurrentRevision(ctx)
		require.NoError(t, db.Compact(ctx, cur)) // forgets every record
		require.NoError(t, db.Close())
		db, err = bolt.Open(path, bolt.Options{Strict: true})
		require.NoError(t, err)
		defer db.Close()
		got, _ := db.CurrentRevision(ctx)
		require.Equal(t, cur, got)
		require.Equal(t, cur+1, storagetest.RV(t, create(t, cronStore(db), "a", "2")))
	})
	t.Run("FinishesAnInterruptedCompaction", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := bolt.Open(path, bolt.Options{})
		require.NoError(t, err)
		st := cronStore(db)
		create(t, st, "a", "1")
		setSpec(t, st, "a", "2")
		mid := setSpec(t, st, "a", "3")
		setSpec(t, st, "a", "4")
		require.NoError(t, db.Close())
		// A crash after the compacted revision was committed, before any
		// record was deleted.
		withBolt(t, path, func(tx *bbolt.Tx) error {
			return tx.Bucket([]byte("meta")).Put([]byte("compacted"), binary.BigEndian.AppendUint64(nil, uint64(storagetest.RV(t, mid))))
		})
		db, err = bolt.Open(path, bolt.Options{Strict: true})
		require.NoError(t, err, "Open deletes what the compaction forgot, and Check agrees")
		defer db.Close()
		res, err := listAt(cronStore(db), storagetest.RV(t, mid))
		require.NoError(t, err)
		require.Equal(t, "3", res.Items[0].(*unstructured.Unstructured).Object["spec"].(map[string]any)["cronSpec"])
		_, err = listAt(cronStore(db), storagetest.RV(t, mid)-1)
		require.ErrorIs(t, err, storage.ErrExpired)
	})
}

// withBolt opens a closed data file with bbolt itself and runs fn in a
// write transaction, to damage it on purpose.
func withBolt(t *testing.T, path string, fn func(tx *bbolt.Tx) error) {
	t.Helper()
	b, err := bbolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, b.Update(fn))
	require.NoError(t, b.Close())
}

// TestDB_AutoCompaction: the compactor forgets old revisions by itself;
// its deletes are committed even while readers poll every millisecond
// (each read signals the committer, which once re-armed the idle timer
// that commits the deletes, putting them off for as long as reads came).
func TestDB_AutoCompaction(t *testing.T) {
	db := openDB(t, bolt.Options{RetainRevisions: 5, CompactInterval: 5 * time.Millisecond})
	st := cronStore(db)
	create(t, st, "a", "0")
	for i := range 20 {
		setSpec(t, st, "a", fmt.Sprint(i))
	}
	cur, _ := db.CurrentRevision(ctx)
	require.Eventually(t, func() bool {
		_, err := listAt(st, cur-6)
		return errors.Is(err, storage.ErrExpired)
	}, 10*time.Second, time.Millisecond)
	_, err := listAt(st, cur-5)
	require.NoError(t, err, "the last 5 revisions are kept")
}

// TestDB_WatchCatchUpOvertakenByCompaction: a watcher replaying history
// slower than compaction forgets it gets a 410 ERROR, never a silent gap.
func TestDB_WatchCatchUpOvertakenByCompaction(t *testing.T) {
	db := openDB(t, bolt.Options{WatchBufferSize: 10})
	st := cronStore(db)
	fillN(t, st, 2500)
	w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: "1"})
	require.NoError(t, err)
	defer w.Stop()
	first, ok := recv(t, w) // the replay has started, and waits for us
	require.True(t, ok)
	require.Equal(t, watch.Added, first.Type)
	cur, _ := db.CurrentRevision(ctx)
	require.NoError(t, db.Compact(ctx, cur))
	last := storagetest.RV(t, first.Object.(storage.Object))
	for {
		ev, ok := recv(t, w)
		require.True(t, ok, "closed without an ERROR")
		if ev.Type == watch.Error {
			require.EqualValues(t, 410, ev.Object.(*metav1.Status).Code)
			_, ok := recv(t, w)
			require.False(t, ok)
			require.Less(t, last, cur, "it ended before the end of history")
			return
		}
		rv := storagetest.RV(t, ev.Object.(storage.Object))
		require.Equal(t, last+1, rv, "no gap before the error")
		last = rv
	}
}

// recv returns the next event of w (ok false once it is closed), failing
// the test if nothing comes for 10 seconds.
func recv(t testing.TB, w watch.Interface) (watch.Event, bool) {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		return ev, ok
	case <-time.After(10 * time.Second):
		t.Fatal("no event for 10s")
		return watch.Event{}, false
	}
}

// TestDB_ScansAcrossChunks lists and watches more keys than one scan chunk
// holds, at the latest revision and from history.
func TestDB_ScansAcrossChunks(t *testing.T) {
	db := openDB(t, bolt.Options{})
	st := cronStore(db)
	const n = 2500
	fillN(t, st, n)
	before, _ := db.CurrentRevision(ctx)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < n; i += 16 { // half of them change
				setSpec(t, st, fmt.Sprintf("o%05d", i), "changed")
			}
		})
	}
	wg.Wait()
	for _, rev := range []int64{0, before} {
		var got []string
		opts := storage.ListOptions{Recursive: true, Predicate: storage.SelectionPredicate{Limit: 700}}
		if rev != 0 {
			opts.ResourceVersion, opts.ResourceVersionMatch = strconv.FormatInt(rev, 10), metav1.ResourceVersionMatchExact
		}
		for {
			res, err := st.GetList(ctx, storagetest.Prefix, opts)
			require.NoError(t, err)
			for _, o := range res.Items {
				got = append(got, o.GetName())
				s, _, _ := unstructured.NestedString(o.(*unstructured.Unstructured).Object, "spec", "cronSpec")
				if rev == before {
					require.Equal(t, "x", s)
				}
			}
			if res.Continue == "" {
				break
			}
			opts.Predicate.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = res.Continue, "", ""
		}
		require.Len(t, got, n)
		for i := range got {
			require.Equal(t, fmt.Sprintf("o%05d", i), got[i])
		}
	}
	w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	defer w.Stop()
	for i := range n {
		ev, ok := recv(t, w)
		require.True(t, ok)
		require.Equal(t, watch.Added, ev.Type)
		require.Equal(t, fmt.Sprintf("o%05d", i), ev.Object.(storage.Object).GetName())
	}
}

// fillN creates o00000… with 16 writers.
func fillN(t testing.TB, st storage.Interface, n int) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := w; i < n; i += 16 {
				create(t, st, fmt.Sprintf("o%05d", i), "x")
			}
		})
	}
	wg.Wait()
}

// TestOpen_WrittenSince: the revision from which the file's writer wrote
// every record survives a reopen by the same writer, moves past every
// record when another writer (or one that names none) opens the file, and
// is unknown with no writer.
func TestOpen_WrittenSince(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	open := func(writer string) *bolt.DB {
		t.Helper()
		db, err := bolt.Open(path, bolt.Options{NoSync: true, Writer: writer})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	names := 0
	write := func(db *bolt.DB, n int) int64 {
		t.Helper()
		for range n {
			names++
			create(t, cronStore(db), fmt.Sprintf("c%d", names), "* * * * *")
		}
		rev, err := db.CurrentRevision(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return rev
	}
	steps := []struct {
		writer string
		want   func(rev int64) int64 // from the revision before the open
	}{
		{"a", func(int64) int64 { return 1 }},            // a new file
		{"a", func(int64) int64 { return 1 }},            // the same writer
		{"b", func(rev int64) int64 { return rev + 1 }},  // another
		{"", func(int64) int64 { return math.MaxInt64 }}, // none
		{"b", func(rev int64) int64 { return rev + 1 }},  // b again: not across the unknown writer's records
		{"b", func(rev int64) int64 { return rev - 1 }},  // and kept: from before the two records b wrote last time
	}
	var rev int64
	for i, st := range steps {
		db := open(st.writer)
		if got, want := db.WrittenSince(), st.want(rev); got != want {
			t.Errorf("step %d (writer %q): WrittenSince %d, want %d", i, st.writer, got, want)
		}
		rev = write(db, 2)
		db.Close()
	}
}
