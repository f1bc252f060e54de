package bolt

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// fakeClock is the clock of expiry in these tests: time moves only when a
// test says so, and expire runs when the test calls it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// ttlEnv is a DB on a fake clock (its expiry loop runs once at Open, then
// only when a test calls expire) with a store of objects that live an hour.
type ttlEnv struct {
	path  string
	clock *fakeClock
	db    *DB
	st    storage.Interface
}

func newTTLEnv(t *testing.T) *ttlEnv {
	e := &ttlEnv{path: filepath.Join(t.TempDir(), "crdlab.db"), clock: &fakeClock{now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}}
	e.open(t)
	return e
}

func (e *ttlEnv) open(t *testing.T) {
	t.Helper()
	db, err := Open(e.path, Options{NoSync: true, Strict: true, Now: e.clock.Now, ExpiryInterval: time.Hour})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	cfg := storagetest.ExpiringResourceConfig()
	cfg.TTL = time.Hour
	e.db, e.st = db, db.ForResource(cfg)
}

func (e *ttlEnv) create(t *testing.T, name, spec string) *unstructured.Unstructured {
	t.Helper()
	out := &unstructured.Unstructured{}
	require.NoError(t, e.st.Create(context.Background(), storagetest.ExpiringKey("default", name), storagetest.CronTab("default", name, nil, spec), out))
	return out
}

func (e *ttlEnv) exists(t *testing.T, name string) bool {
	t.Helper()
	err := e.st.Get(context.Background(), storagetest.ExpiringKey("default", name), storage.GetOptions{}, &unstructured.Unstructured{})
	if errors.Is(err, storage.ErrNotFound) {
		return false
	}
	require.NoError(t, err)
	return true
}

func TestDB_TTL(t *testing.T) {
	ctx := context.Background()
	t.Run("ExpiresAtItsDeadline", func(t *testing.T) {
		e := newTTLEnv(t)
		created := e.create(t, "a", "x")
		e.clock.Step(time.Hour - time.Second)
		require.NoError(t, e.db.expire())
		require.True(t, e.exists(t, "a"), "before the deadline")
		e.clock.Step(time.Second)
		require.NoError(t, e.db.expire())
		require.False(t, e.exists(t, "a"), "at the deadline")
		rev, _ := e.db.CurrentRevision(ctx)
		require.Equal(t, storagetest.RV(t, created)+1, rev, "one delete, at the next revision")
		require.NoError(t, e.db.Check())
	})
	t.Run("UpdateRestartsTheClock", func(t *testing.T) {
		e := newTTLEnv(t)
		e.create(t, "a", "x")
		e.clock.Step(50 * time.Minute)
		require.NoError(t, e.st.GuaranteedUpdate(ctx, storagetest.ExpiringKey("default", "a"), &unstructured.Unstructured{}, false, nil,
			func(cur storage.Object) (storage.Object, error) {
				u := cur.(*unstructured.Unstructured)
				return u, unstructured.SetNestedField(u.Object, "y", "spec", "cronSpec")
			}))
		e.clock.Step(20 * time.Minute) // 70 minutes after the create
		require.NoError(t, e.db.expire())
		require.True(t, e.exists(t, "a"), "the update's deadline counts, not the create's")
		e.clock.Step(40 * time.Minute) // an hour after the update
		require.NoError(t, e.db.expire())
		require.False(t, e.exists(t, "a"))
	})
	t.Run("NoOpUpdateLeavesTheClock", func(t *testing.T) {
		e := newTTLEnv(t)
		e.create(t, "a", "x")
		e.clock.Step(50 * time.Minute)
		require.NoError(t, e.st.GuaranteedUpdate(ctx, storagetest.ExpiringKey("default", "a"), &unstructured.Unstructured{}, false, nil,
			func(cur storage.Object) (storage.Object, error) { return cur, nil }))
		e.clock.Step(10 * time.Minute)
		require.NoError(t, e.db.expire())
		require.False(t, e.exists(t, "a"), "nothing was written: the create's deadline stands")
	})
	t.Run("DeletedAndRecreatedIsNotExpiredEarly", func(t *testing.T) {
		e := newTTLEnv(t)
		e.create(t, "a", "x")
		require.NoError(t, e.st.Delete(ctx, storagetest.ExpiringKey("default", "a"), &unstructured.Unstructured{}, nil, nil))
		e.clock.Step(30 * time.Minute)
		again := e.create(t, "a", "y")
		e.clock.Step(30 * time.Minute) // the first create's deadline
		require.NoError(t, e.db.expire())
		require.True(t, e.exists(t, "a"))
		rev, _ := e.db.CurrentRevision(ctx)
		require.Equal(t, storagetest.RV(t, again), rev, "no write for the old deadline")
	})
	t.Run("DeadlinesSurviveARestart", func(t *testing.T) {
		e := newTTLEnv(t)
		created := e.create(t, "a", "x")
		e.create(t, "b", "x")
		require.NoError(t, e.db.Close())
		e.clock.Step(30 * time.Minute)
		e.open(t)
		require.True(t, e.exists(t, "a"), "half its life left")
		e.clock.Step(30 * time.Minute)
		require.NoError(t, e.db.expire())
		require.False(t, e.exists(t, "a"), "the deadline from before the restart")

		// Watchers from before see the expiry as DELETED.
		w, err := e.st.Watch(ctx, storagetest.ExpiringPrefix, storage.ListOptions{Recursive: true, ResourceVersion: created.GetResourceVersion()})
		require.NoError(t, err)
		defer w.Stop()
		var got []string
		for len(got) < 3 {
			select {
			case ev := <-w.ResultChan():
				got = append(got, string(ev.Type)+" "+ev.Object.(storage.Object).GetName())
			case <-time.After(10 * time.Second):
				require.FailNow(t, "no event", "got %v", got)
			}
		}
		require.ElementsMatch(t, []string{string(watch.Added) + " b", string(watch.Deleted) + " a", string(watch.Deleted) + " b"}, got)
	})
	t.Run("PassedWhileStoppedExpiresAtOpen", func(t *testing.T) {
		e := newTTLEnv(t)
		e.create(t, "a", "x")
		require.NoError(t, e.db.Close())
		e.clock.Step(2 * time.Hour)
		e.open(t) // the expiry loop runs once at the start
		require.Eventually(t, func() bool { return !e.exists(t, "a") }, 10*time.Second, time.Millisecond)
	})
}

func TestRecord_Expires(t *testing.T) {
	for _, expires := range []int64{0, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()} {
		t.Run(strconv.FormatInt(expires, 10), func(t *testing.T) {
			r := &record{rev: 7, key: "/registry/x/default/a", createRev: 5, prevRev: 6, value: []byte(`{"a":1}`), expires: expires}
			b := r.encode()
			want := byte(recordVersion)
			if expires != 0 {
				want = recordVersionExpires
			}
			require.Equal(t, want, b[0], "a record without an expiry keeps version 1")
			got, err := decodeRecord(revKey(7), b)
			require.NoError(t, err)
			require.Equal(t, r.expires, got.expires)
			require.Equal(t, r.key, got.key)
			require.Equal(t, r.value, got.value)
			require.Equal(t, r.key, recordKey(b))
		})
	}
}
