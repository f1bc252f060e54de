package bolt

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

// TestWatch_CatchUpMissesNoCommitDuringItsRead: a watch that catches up
// from history gets a write committed while it reads, between its bbolt
// snapshot and its look at the revision counter. It used to read "up to
// db.rev", step over that write (absent from its snapshot) and join the
// fan-out past it: the write was never sent (seen as a gap of a few
// revisions in about 1 in 170 catch-up watches under -race with writers
// running).
func TestWatch_CatchUpMissesNoCommitDuringItsRead(t *testing.T) {
	db, st := openThings(t, Options{NoSync: true})
	const prefix = thingsPrefix
	ctx := context.Background()
	create := func(name string) {
		t.Helper()
		obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name}}}
		require.NoError(t, st.Create(ctx, prefix+"/"+name, obj, &unstructured.Unstructured{}))
	}
	for _, name := range []string{"r1", "r2", "r3"} {
		create(name)
	}

	// The fan-out has dispatched r3, so a watch from revision 1 catches up
	// from history (a watch from a revision the fan-out has not reached
	// yet is live at once).
	dispatched := func() int64 {
		db.fanout.mu.Lock()
		defer db.fanout.mu.Unlock()
		return db.fanout.rev
	}
	for deadline := time.Now().Add(time.Minute); dispatched() < 3; time.Sleep(time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the fan-out did not dispatch revision 3 within a minute")
	}

	// The first history read of the watch commits r4 inside its gap, so
	// r4 is revision 4 before the watch sends anything.
	var once sync.Once
	db.afterHistoryTx = func() { once.Do(func() { create("r4") }) }
	w, err := st.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: "1"})
	require.NoError(t, err)
	defer w.Stop()
	next := func(want int64) {
		t.Helper()
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch closed before revision %d", want)
			obj := ev.Object.(storage.Object)
			rv, err := strconv.ParseInt(obj.GetResourceVersion(), 10, 64)
			require.NoError(t, err)
			require.Equal(t, want, rv, "event %s: no gap, in order", obj.GetName())
		case <-time.After(time.Minute):
			t.Fatalf("no event for revision %d within a minute", want)
		}
	}
	next(2)
	next(3)
	create("r5") // revision 5: the fan-out's, or history's
	next(4)
	next(5)
}

// TestWatch_FanoutRemembersNoDecodedObject: the fan-out decodes each
// write once for all the store's watchers (every watcher gets the same
// object) but does not remember it on the record, so a watched store keeps
// no decoded copy of each written object; a get still fills the record's
// memo, and the fan-out shares what a read remembered.
func TestWatch_FanoutRemembersNoDecodedObject(t *testing.T) {
	db, st := openThings(t, Options{NoSync: true})
	const prefix = thingsPrefix
	ctx := context.Background()
	rev, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	var watchers []watch.Interface
	for range 2 {
		w, err := st.Watch(ctx, prefix, storage.ListOptions{ResourceVersion: strconv.FormatInt(rev, 10), Recursive: true})
		require.NoError(t, err)
		defer w.Stop()
		watchers = append(watchers, w)
	}
	// Both are live (in the fan-out) before the writes: a watcher still
	// catching up reads history and decodes for itself.
	live := func() int {
		db.fanout.mu.Lock()
		defer db.fanout.mu.Unlock()
		n := 0
		for _, g := range db.fanout.groups {
			n += len(g.watchers)
		}
		return n
	}
	for deadline := time.Now().Add(time.Minute); live() < 2; time.Sleep(time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the watchers were not live within a minute")
	}
	next := func(w watch.Interface) *unstructured.Unstructured {
		t.Helper()
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch ended")
			return ev.Object.(*unstructured.Unstructured)
		case <-time.After(time.Minute):
			t.Fatal("no watch event within a minute")
			return nil
		}
	}
	const n = 20
	for i := range n {
		name := "o" + strconv.Itoa(i)
		obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name}, "spec": map[string]any{"i": int64(i)}}}
		require.NoError(t, st.Create(ctx, prefix+"/"+name, obj, &unstructured.Unstructured{}))
	}
	for i := range n {
		a, b := next(watchers[0]), next(watchers[1])
		require.Equal(t, "o"+strconv.Itoa(i), a.GetName())
		require.Same(t, a, b, "one decoded object for every watcher of the store")
		r := db.latest(prefix + "/" + a.GetName())
		require.NotNil(t, r)
		require.Nil(t, r.memo.get(st.(*store)), "the record of %s remembers the object the fan-out decoded", a.GetName())
	}

	// A get remembers the object; the fan-out's DELETED event of the key
	// (whose tombstone carries the same value) is decoded anew, and the
	// get's object stays on the live record until the delete replaces it.
	key := prefix + "/o0"
	require.NoError(t, st.Get(ctx, key, storage.GetOptions{}, &unstructured.Unstructured{}))
	require.NotNil(t, db.latest(key).memo.get(st.(*store)), "a get remembers the object")
	require.NoError(t, st.Delete(ctx, key, &unstructured.Unstructured{}, nil, nil))
	gone := next(watchers[0])
	require.Same(t, gone, next(watchers[1]))
	require.Equal(t, "o0", gone.GetName())
	require.Nil(t, db.latest(key).memo.get(st.(*store)), "the tombstone remembers the object the fan-out decoded")
}

// TestEventQueue_LetsGoWhenDrained: a queue that grew while its reader
// lagged keeps no more than keptEvents of capacity once drained, and
// keeps no object alive in the slots it handed out; a queue at its limit
// refuses a push, but closeWith still queues the last event.
func TestEventQueue_LetsGoWhenDrained(t *testing.T) {
	q := newEventQueue(100)
	obj := &unstructured.Unstructured{Object: map[string]any{}}
	for range 100 {
		require.True(t, q.push(watch.Event{Type: watch.Modified, Object: obj}))
	}
	require.False(t, q.push(watch.Event{Type: watch.Modified, Object: obj}), "past the limit")
	require.Greater(t, cap(q.events), keptEvents)
	for range 99 {
		_, ok, done := q.TryNext()
		require.True(t, ok)
		require.False(t, done)
	}
	for i := range q.head {
		require.Nil(t, q.events[i].Object, "slot %d handed out but still holds its object", i)
	}
	_, ok, _ := q.TryNext()
	require.True(t, ok)
	require.Zero(t, cap(q.events), "drained: the grown slice is let go")

	require.True(t, q.push(watch.Event{Type: watch.Modified, Object: obj}))
	require.True(t, q.closeWith(watch.Event{Type: watch.Error}))
	require.False(t, q.push(watch.Event{Type: watch.Modified, Object: obj}), "closed")
	ev, ok, _ := q.TryNext()
	require.True(t, ok)
	require.Equal(t, watch.Modified, ev.Type)
	ev, ok, _ = q.TryNext()
	require.True(t, ok)
	require.Equal(t, watch.Error, ev.Type)
	_, ok, done := q.TryNext()
	require.False(t, ok)
	require.True(t, done)
}

// TestWatch_FanoutFindsTheGroupsOfAKey: the fan-out finds the stores an
// event concerns by their prefixes (fanout.covering): each watcher gets
// exactly the events under its store's prefix, taken as a directory
// (things/ is not thing/), a store under another's prefix and two stores
// of one prefix each get theirs, and once every watcher has stopped no
// group is left.
func TestWatch_FanoutFindsTheGroupsOfAKey(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "crdlab.db"), Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	ctx := context.Background()
	stores := map[string]storage.Interface{}
	var names []string
	forPrefix := func(name, prefix string) {
		names = append(names, name)
		stores[name] = db.ForResource(storage.ResourceConfig{Prefix: prefix, Codec: storage.JSONCodec{},
			NewFunc: func() storage.Object { return &unstructured.Unstructured{} }})
	}
	forPrefix("things", "/registry/g/things")
	forPrefix("things again", "/registry/g/things/") // the same prefix, another store
	forPrefix("thing", "/registry/g/thing")
	forPrefix("nested", "/registry/g/things/ns1") // a namespace's objects, as a store of its own
	forPrefix("other group", "/registry/h/things")
	for i := range 50 { // groups the events must not reach
		forPrefix("crd"+strconv.Itoa(i), "/registry/g"+strconv.Itoa(i)+".example.com/things")
	}
	rev, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	watchers := map[string]watch.Interface{}
	for _, name := range names {
		st := stores[name]
		w, err := st.Watch(ctx, st.(*store).Prefix, storage.ListOptions{ResourceVersion: strconv.FormatInt(rev, 10), Recursive: true})
		require.NoError(t, err)
		watchers[name] = w
	}
	groups := func() (int, int) {
		db.fanout.mu.Lock()
		defer db.fanout.mu.Unlock()
		n := 0
		for _, g := range db.fanout.groups {
			n += len(g.watchers)
		}
		return len(db.fanout.groups), n
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if _, live := groups(); live == len(names) {
			break
		}
		require.True(t, time.Now().Before(deadline), "the watchers were not live within a minute")
	}
	ng, _ := groups()
	require.Equal(t, len(names), ng, "one group per store")

	create := func(st storage.Interface, key string) {
		t.Helper()
		name := key[strings.LastIndexByte(key, '/')+1:]
		obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name}}}
		require.NoError(t, st.Create(ctx, key, obj, &unstructured.Unstructured{}))
	}
	create(stores["things"], "/registry/g/things/a")
	create(stores["thing"], "/registry/g/thing/b")
	create(stores["things"], "/registry/g/things/ns1/c")
	create(stores["other group"], "/registry/h/things/d")
	create(stores["crd7"], "/registry/g7.example.com/things/e")
	create(stores["crd7"], "/registry/g7.example.com/things/f") // the last write: every watcher's events come before it is seen

	want := map[string][]string{
		"things":       {"a", "c"},
		"things again": {"a", "c"},
		"thing":        {"b"},
		"nested":       {"c"},
		"other group":  {"d"},
		"crd7":         {"e", "f"},
	}
	// Every event of the writes above is dispatched once the fan-out
	// has reached the last revision; then each watcher's queue holds
	// exactly its events.
	last, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		db.fanout.mu.Lock()
		done := db.fanout.rev >= last
		db.fanout.mu.Unlock()
		if done {
			break
		}
		require.True(t, time.Now().Before(deadline), "the fan-out did not reach revision %d within a minute", last)
	}
	for _, name := range names {
		w := watchers[name]
		var got []string
		for _, want := range want[name] {
			select {
			case ev := <-w.ResultChan():
				got = append(got, ev.Object.(*unstructured.Unstructured).GetName())
			case <-time.After(time.Minute):
				t.Fatalf("%s: no event within a minute, want %s", name, want)
			}
		}
		require.Equal(t, want[name], got, name)
		select {
		case ev := <-w.ResultChan():
			t.Fatalf("%s: an event of another store: %v", name, ev.Object.(*unstructured.Unstructured).GetName())
		default:
		}
	}

	for _, name := range names {
		watchers[name].Stop()
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		db.fanout.mu.Lock()
		left, indexed := len(db.fanout.groups), len(db.fanout.byPrefix)
		db.fanout.mu.Unlock()
		if left == 0 && indexed == 0 {
			break
		}
		require.True(t, time.Now().Before(deadline), "%d groups (%d prefixes) left a minute after every watcher stopped", left, indexed)
	}
}
