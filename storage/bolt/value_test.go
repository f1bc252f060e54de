package bolt

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/storagetest"
)

func specOf(t *testing.T, obj any) string {
	t.Helper()
	s, _, _ := unstructured.NestedString(obj.(*unstructured.Unstructured).Object, "spec", "cronSpec")
	return s
}

// TestOpen_ValuesStayOnDisk reopens a file and checks that the index
// keeps no value, and that every reader still gets the values: a get, a
// list at an older revision, a watch with a predicate from before the
// reopen (its DELETED event for an object that stops matching carries the
// state before the update, which the committer read from the file), an
// update that changes nothing, a delete (whose tombstone keeps the last
// state), and reads across a compaction and a defragmentation.
func TestOpen_ValuesStayOnDisk(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	st := db.ForResource(storagetest.ResourceConfig())
	out := &unstructured.Unstructured{}
	app := map[string]string{"app": "x"}
	for _, n := range []string{"a", "b", "c"} {
		require.NoError(t, st.Create(ctx, storagetest.Key("default", n), storagetest.CronTab("default", n, app, n+"1"), out))
	}
	before := storagetest.RV(t, out)
	big := strings.Repeat("x", memoMaxValue+1) // neither memoised nor kept in memory
	require.NoError(t, st.Create(ctx, storagetest.Key("default", "big"), storagetest.CronTab("default", "big", map[string]string{"size": "big"}, big), out))
	require.Nil(t, db.latest(storagetest.Key("default", "big")).value, "a large value stays on disk after its commit")
	require.NoError(t, db.Close())

	db, err = Open(path, Options{Strict: true})
	require.NoError(t, err)
	defer db.Close()
	st = db.ForResource(storagetest.ResourceConfig())
	db.mu.RLock()
	db.index.ascend("", func(ki *keyIndex) bool {
		require.True(t, ki.latest.onDisk, ki.key)
		require.Nil(t, ki.latest.value, ki.key)
		return true
	})
	db.mu.RUnlock()

	w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(before, 10),
		Predicate: storage.SelectionPredicate{Label: storagetest.LabelSelector(app)}})
	require.NoError(t, err)
	defer w.Stop()

	got := &unstructured.Unstructured{}
	require.NoError(t, st.Get(ctx, storagetest.Key("default", "a"), storage.GetOptions{}, got))
	require.Equal(t, "a1", specOf(t, got))
	require.NoError(t, st.Get(ctx, storagetest.Key("default", "big"), storage.GetOptions{}, got))
	require.Equal(t, big, specOf(t, got))

	// b stops matching: DELETED, with its state before the update.
	require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.Key("default", "b"), out, false, nil, func(cur storage.Object) (storage.Object, error) {
		u := cur.(*unstructured.Unstructured)
		u.SetLabels(nil)
		return u, unstructured.SetNestedField(u.Object, "b2", "spec", "cronSpec")
	}))
	ev := nextEvent(t, w)
	require.Equal(t, watch.Deleted, ev.Type)
	require.Equal(t, "b", ev.Object.(*unstructured.Unstructured).GetName())
	require.Equal(t, "b1", specOf(t, ev.Object))

	// An update that changes nothing writes nothing.
	rev, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.Key("default", "a"), out, false, nil, func(cur storage.Object) (storage.Object, error) {
		return cur, nil
	}))
	now, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	require.Equal(t, rev, now, "an update that changes nothing writes nothing")

	// A list at the revision before b's update reads b's old state from
	// history, and the latest states from the file.
	list, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(rev-1, 10),
		ResourceVersionMatch: "Exact"})
	require.NoError(t, err)
	specs := map[string]string{}
	for _, o := range list.Items {
		specs[o.(*unstructured.Unstructured).GetName()] = specOf(t, o)
	}
	require.Equal(t, map[string]string{"a": "a1", "b": "b1", "c": "c1", "big": big}, specs)

	require.NoError(t, db.Compact(ctx, rev))
	require.NoError(t, db.Defragment(ctx))
	require.NoError(t, st.Get(ctx, storagetest.Key("default", "c"), storage.GetOptions{}, got))
	require.Equal(t, "c1", specOf(t, got))

	// A large value (never memoised) stops matching a live watcher's
	// predicate: the fan-out decodes the state before the update from the
	// superseded record, whose value stays on disk (the committer read it).
	w2, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(now, 10),
		Predicate: storage.SelectionPredicate{Label: storagetest.LabelSelector{"size": "big"}}})
	require.NoError(t, err)
	defer w2.Stop()
	require.Eventually(t, func() bool { // live: fed by the fan-out, not by its catch-up
		db.fanout.mu.Lock()
		defer db.fanout.mu.Unlock()
		for _, g := range db.fanout.groups {
			if len(g.watchers) > 0 {
				return true
			}
		}
		return false
	}, time.Minute, time.Millisecond)
	require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.Key("default", "big"), out, false, nil, func(cur storage.Object) (storage.Object, error) {
		u := cur.(*unstructured.Unstructured)
		u.SetLabels(nil)
		return u, nil
	}))
	ev = nextEvent(t, w2)
	require.Equal(t, watch.Deleted, ev.Type)
	require.Equal(t, "big", ev.Object.(*unstructured.Unstructured).GetName())
	require.Equal(t, big, specOf(t, ev.Object))

	// c's delete: the tombstone and the event carry c's last state.
	require.NoError(t, st.Delete(ctx, storagetest.Key("default", "c"), out, nil, nil))
	require.Equal(t, "c1", specOf(t, out))
	ev = nextEvent(t, w)
	require.Equal(t, watch.Deleted, ev.Type)
	require.Equal(t, "c", ev.Object.(*unstructured.Unstructured).GetName())
	require.Equal(t, "c1", specOf(t, ev.Object))
	require.NoError(t, db.Check())
}

// TestValue_Compacted: a record a compaction deleted after a reader found
// it answers Expired (errGone); the committer read the value of the record
// it superseded, for the fan-out; a Get of the key reads the new state.
func TestValue_Compacted(t *testing.T) {
	ctx := context.Background()
	db, err := Open(filepath.Join(t.TempDir(), "crdlab.db"), Options{NoSync: true, MaxValueInMemory: -1, DefragmentFree: -1})
	require.NoError(t, err)
	defer db.Close()
	st := db.ForResource(storagetest.ResourceConfig())
	out := &unstructured.Unstructured{}
	key := storagetest.Key("default", "a")
	require.NoError(t, st.Create(ctx, key, storagetest.CronTab("default", "a", nil, "1"), out))
	l := db.latest(key)
	// As a reader holds it: the committer reads the value of a record it
	// supersedes (loadSuperseded), so take a copy it does not know of.
	old := &record{rev: l.rev, key: l.key, createRev: l.createRev, onDisk: true}
	v, err := db.value(old)
	require.NoError(t, err)
	require.Contains(t, string(v), `"cronSpec":"1"`)
	require.NoError(t, st.GuaranteedUpdate(ctx, key, out, false, nil, func(storage.Object) (storage.Object, error) {
		return storagetest.CronTab("default", "a", nil, "2"), nil
	}))
	p := l.loaded.Load()
	require.NotNil(t, p, "the committer read the superseded record's value")
	require.Equal(t, v, *p)
	require.NoError(t, db.Compact(ctx, storagetest.RV(t, out)))
	_, err = db.value(old)
	require.ErrorIs(t, err, errGone)
	require.ErrorIs(t, err, storage.ErrExpired)
	require.NoError(t, st.Get(ctx, key, storage.GetOptions{}, out))
	require.Equal(t, "2", specOf(t, out))
}

// nextEvent waits up to a minute for w's next event.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "the watch ended")
		return ev
	case <-time.After(time.Minute):
		t.Fatal("no event within a minute")
		return watch.Event{}
	}
}
