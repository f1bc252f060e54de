package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
)

// RunConformance runs the whole suite. newBackend must return a fresh,
// empty backend and register its Close with t.Cleanup (the suite may also
// close it: Close must be safe to call twice).
func RunConformance(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	t.Run("Create", func(t *testing.T) { testCreate(t, newBackend) })
	t.Run("Get", func(t *testing.T) { testGet(t, newBackend) })
	t.Run("GetList", func(t *testing.T) { testGetList(t, newBackend) })
	t.Run("GuaranteedUpdate", func(t *testing.T) { testGuaranteedUpdate(t, newBackend) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, newBackend) })
	t.Run("Count", func(t *testing.T) { testCount(t, newBackend) })
	t.Run("Watch", func(t *testing.T) { testWatch(t, newBackend) })
	t.Run("Compact", func(t *testing.T) { testCompact(t, newBackend) })
	t.Run("TTL", func(t *testing.T) { testTTL(t, newBackend) })
	t.Run("Close", func(t *testing.T) { testClose(t, newBackend) })
}

func testCreate(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, newBackend)
		before := e.current(t)
		in := CronTab("default", "a", nil, "* * * * */5")
		out := &unstructured.Unstructured{}
		require.NoError(t, e.store.Create(e.ctx, Key("default", "a"), in, out))
		require.Equal(t, before+1, RV(t, out), "the object's resourceVersion is the write's revision")
		require.Equal(t, RV(t, out), e.current(t))
		require.Equal(t, "* * * * */5", spec(out))
		require.Equal(t, in.GetUID(), out.GetUID())

		got := &unstructured.Unstructured{}
		require.NoError(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, got))
		require.Equal(t, out.Object, got.Object)
	})
	t.Run("RevisionsIncrease", func(t *testing.T) {
		e := newEnv(t, newBackend)
		last := e.current(t)
		for i := range 10 {
			out := e.create(t, "default", fmt.Sprint("o", i), nil, "x")
			require.Greater(t, RV(t, out), last)
			last = RV(t, out)
		}
		require.Equal(t, last, e.current(t))
	})
	t.Run("ErrAlreadyExists", func(t *testing.T) {
		e := newEnv(t, newBackend)
		first := e.create(t, "default", "a", nil, "x")
		err := e.store.Create(e.ctx, Key("default", "a"), CronTab("default", "a", nil, "y"), &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrAlreadyExists)
		var serr *storage.Error
		require.ErrorAs(t, err, &serr)
		require.Equal(t, storage.ErrAlreadyExists, serr.Kind)
		require.Equal(t, Key("default", "a"), serr.Key)
		// Nothing was written.
		require.Equal(t, RV(t, first), e.current(t))
	})
	t.Run("ErrInvalidObject", func(t *testing.T) {
		e := newEnv(t, newBackend)
		in := CronTab("default", "a", nil, "x")
		in.SetResourceVersion("5")
		err := e.store.Create(e.ctx, Key("default", "a"), in, &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrInvalidObject)
	})
	t.Run("ErrBadRequestKeyOutsidePrefix", func(t *testing.T) {
		e := newEnv(t, newBackend)
		err := e.store.Create(e.ctx, "/registry/other/things/a", CronTab("default", "a", nil, "x"), &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrBadRequest)
	})
	t.Run("ErrTimeout", func(t *testing.T) {
		e := newEnv(t, newBackend)
		ctx, cancel := context.WithCancel(e.ctx)
		cancel()
		err := e.store.Create(ctx, Key("default", "a"), CronTab("default", "a", nil, "x"), &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrTimeout)
		require.ErrorIs(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, &unstructured.Unstructured{}), storage.ErrNotFound)
	})
	t.Run("ConcurrentCreatesOfOneKey", func(t *testing.T) {
		e := newEnv(t, newBackend)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, exists := 0, 0
		for range 16 {
			wg.Go(func() {
				err := e.store.Create(e.ctx, Key("default", "a"), CronTab("default", "a", nil, "x"), &unstructured.Unstructured{})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, storage.ErrAlreadyExists):
					exists++
				}
			})
		}
		wg.Wait()
		require.Equal(t, 1, ok)
		require.Equal(t, 15, exists)
	})
}

func testGet(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", map[string]string{"app": "x"}, "x")
		for _, rv := range []string{"", "0", created.GetResourceVersion()} {
			got := &unstructured.Unstructured{}
			require.NoError(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{ResourceVersion: rv}, got))
			require.Equal(t, created.Object, got.Object, "rv %q", rv)
		}
	})
	t.Run("SeesLatestWrite", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		updated := e.setSpec(t, "default", "a", "y")
		got := &unstructured.Unstructured{}
		require.NoError(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, got))
		require.Equal(t, "y", spec(got))
		require.Equal(t, updated.GetResourceVersion(), got.GetResourceVersion())
	})
	t.Run("ReturnsACopy", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		got := &unstructured.Unstructured{}
		require.NoError(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, got))
		require.NoError(t, unstructured.SetNestedField(got.Object, "changed", "spec", "cronSpec"))
		again := &unstructured.Unstructured{}
		require.NoError(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, again))
		require.Equal(t, "x", spec(again))
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		e := newEnv(t, newBackend)
		err := e.store.Get(e.ctx, Key("default", "nope"), storage.GetOptions{}, &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrNotFound)
	})
	t.Run("ErrNotFoundAfterDelete", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		e.delete(t, "default", "a")
		err := e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrNotFound)
	})
	t.Run("IgnoreNotFoundZeroesOut", func(t *testing.T) {
		e := newEnv(t, newBackend)
		out := CronTab("default", "stale", nil, "stale")
		require.NoError(t, e.store.Get(e.ctx, Key("default", "nope"), storage.GetOptions{IgnoreNotFound: true}, out))
		require.Nil(t, out.Object)
	})
	t.Run("ErrTooLargeResourceVersion", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		err := e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{ResourceVersion: rvString(e.current(t) + 10)}, &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrTooLargeResourceVersion)
	})
	t.Run("ErrBadRequestResourceVersion", func(t *testing.T) {
		e := newEnv(t, newBackend)
		err := e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{ResourceVersion: "abc"}, &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrBadRequest)
	})
}

func testGuaranteedUpdate(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		updated := e.setSpec(t, "default", "a", "y")
		require.Greater(t, RV(t, updated), RV(t, created))
		require.Equal(t, "y", spec(updated))
		require.Equal(t, created.GetUID(), updated.GetUID())
		require.Equal(t, RV(t, updated), e.current(t))
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		e := newEnv(t, newBackend)
		called := false
		err := e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, false, nil,
			func(cur storage.Object) (storage.Object, error) { called = true; return cur, nil })
		require.ErrorIs(t, err, storage.ErrNotFound)
		require.False(t, called)
	})
	t.Run("IgnoreNotFoundCreates", func(t *testing.T) {
		e := newEnv(t, newBackend)
		out := &unstructured.Unstructured{}
		err := e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), out, true, nil,
			func(cur storage.Object) (storage.Object, error) {
				require.Empty(t, cur.GetName(), "a missing key gives an empty object")
				return CronTab("default", "a", nil, "new"), nil
			})
		require.NoError(t, err)
		require.Equal(t, "new", spec(out))
		require.Equal(t, RV(t, out), e.current(t))
	})
	t.Run("ErrConflictUIDPrecondition", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		uid := metav1.UID("another-uid")
		err := e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, false,
			&storage.Preconditions{UID: &uid}, func(cur storage.Object) (storage.Object, error) { return cur, nil })
		require.ErrorIs(t, err, storage.ErrConflict)
		require.Equal(t, RV(t, created), e.current(t))
	})
	t.Run("ErrConflictResourceVersionPrecondition", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		e.setSpec(t, "default", "a", "y")
		stale := created.GetResourceVersion()
		err := e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, false,
			&storage.Preconditions{ResourceVersion: &stale}, func(cur storage.Object) (storage.Object, error) { return cur, nil })
		require.ErrorIs(t, err, storage.ErrConflict)
	})
	t.Run("PreconditionsHold", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		uid, rv := created.GetUID(), created.GetResourceVersion()
		out := &unstructured.Unstructured{}
		require.NoError(t, e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), out, false,
			&storage.Preconditions{UID: &uid, ResourceVersion: &rv}, func(cur storage.Object) (storage.Object, error) {
				u := cur.(*unstructured.Unstructured)
				return u, unstructured.SetNestedField(u.Object, "y", "spec", "cronSpec")
			}))
		require.Equal(t, "y", spec(out))
	})
	t.Run("TryUpdateErrorWritesNothing", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		boom := errors.New("boom")
		err := e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, false, nil,
			func(cur storage.Object) (storage.Object, error) { return nil, boom })
		require.ErrorIs(t, err, boom)
		require.Equal(t, RV(t, created), e.current(t))
	})
	t.Run("NoOpUpdateWritesNothing", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		out := &unstructured.Unstructured{}
		require.NoError(t, e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), out, false, nil,
			func(cur storage.Object) (storage.Object, error) { return cur, nil }))
		require.Equal(t, created.GetResourceVersion(), out.GetResourceVersion())
		require.Equal(t, created.Object, out.Object)
		require.Equal(t, RV(t, created), e.current(t))
	})
	t.Run("TryUpdateSeesCurrentObject", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		calls := 0
		out := &unstructured.Unstructured{}
		require.NoError(t, e.store.GuaranteedUpdate(e.ctx, Key("default", "a"), out, false, nil,
			func(cur storage.Object) (storage.Object, error) {
				calls++
				u := cur.(*unstructured.Unstructured)
				if calls == 1 {
					// Someone else writes between our read and our write.
					e.update(t, "default", "a", func(o *unstructured.Unstructured) {
						require.NoError(t, unstructured.SetNestedField(o.Object, "theirs", "spec", "other"))
					})
				}
				return u, unstructured.SetNestedField(u.Object, "ours", "spec", "cronSpec")
			}))
		require.Equal(t, 2, calls, "the update is retried on the new state")
		other, _, _ := unstructured.NestedString(out.Object, "spec", "other")
		require.Equal(t, "theirs", other, "the other write is not lost")
		require.Equal(t, "ours", spec(out))
	})
	t.Run("ConcurrentUpdatesLoseNothing", func(t *testing.T) {
		// 16 goroutines increment one counter: the final value is the
		// number of successful updates.
		e := newEnv(t, newBackend)
		e.create(t, "default", "counter", nil, "x")
		const writers, each = 16, 20
		var wg sync.WaitGroup
		var mu sync.Mutex
		var errs []error
		succeeded := 0
		for range writers {
			wg.Go(func() {
				for range each {
					err := e.store.GuaranteedUpdate(e.ctx, Key("default", "counter"), &unstructured.Unstructured{}, false, nil,
						func(cur storage.Object) (storage.Object, error) {
							u := cur.(*unstructured.Unstructured)
							n, _, _ := unstructured.NestedInt64(u.Object, "spec", "count")
							return u, unstructured.SetNestedField(u.Object, n+1, "spec", "count")
						})
					mu.Lock()
					if err != nil {
						errs = append(errs, err)
					} else {
						succeeded++
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		require.Empty(t, errs)
		got := &unstructured.Unstructured{}
		require.NoError(t, e.store.Get(e.ctx, Key("default", "counter"), storage.GetOptions{}, got))
		n, _, _ := unstructured.NestedInt64(got.Object, "spec", "count")
		require.EqualValues(t, succeeded, n)
		require.Equal(t, writers*each, succeeded)
	})
}

func testDelete(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		out := e.delete(t, "default", "a")
		require.Equal(t, "x", spec(out), "out is the deleted state")
		require.Greater(t, RV(t, out), RV(t, created), "at the delete's revision")
		require.Equal(t, RV(t, out), e.current(t))
		require.ErrorIs(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, &unstructured.Unstructured{}), storage.ErrNotFound)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		e := newEnv(t, newBackend)
		err := e.store.Delete(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, nil, nil)
		require.ErrorIs(t, err, storage.ErrNotFound)
	})
	t.Run("ErrConflictPreconditions", func(t *testing.T) {
		e := newEnv(t, newBackend)
		created := e.create(t, "default", "a", nil, "x")
		uid := metav1.UID("another")
		err := e.store.Delete(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, &storage.Preconditions{UID: &uid}, nil)
		require.ErrorIs(t, err, storage.ErrConflict)
		e.setSpec(t, "default", "a", "y")
		stale := created.GetResourceVersion()
		err = e.store.Delete(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, &storage.Preconditions{ResourceVersion: &stale}, nil)
		require.ErrorIs(t, err, storage.ErrConflict)
		require.NoError(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, &unstructured.Unstructured{}))
	})
	t.Run("ValidateDeletionVetoes", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		veto := errors.New("has finalizers")
		err := e.store.Delete(e.ctx, Key("default", "a"), &unstructured.Unstructured{}, nil,
			func(ctx context.Context, cur storage.Object) error {
				require.Equal(t, "x", spec(cur))
				return veto
			})
		require.ErrorIs(t, err, veto)
		require.NoError(t, e.store.Get(e.ctx, Key("default", "a"), storage.GetOptions{}, &unstructured.Unstructured{}))
	})
	t.Run("RetriesOnConcurrentUpdate", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		calls := 0
		out := &unstructured.Unstructured{}
		require.NoError(t, e.store.Delete(e.ctx, Key("default", "a"), out, nil,
			func(ctx context.Context, cur storage.Object) error {
				calls++
				if calls == 1 {
					e.setSpec(t, "default", "a", "changed")
				}
				return nil
			}))
		require.Equal(t, 2, calls, "validateDeletion sees the new state")
		require.Equal(t, "changed", spec(out))
	})
	t.Run("RecreateAfterDelete", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "default", "a", nil, "x")
		deleted := e.delete(t, "default", "a")
		again := e.create(t, "default", "a", nil, "y")
		require.Greater(t, RV(t, again), RV(t, deleted))
		require.Equal(t, "y", spec(again))
	})
}

func testCount(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	e := newEnv(t, newBackend)
	for i := range 5 {
		e.create(t, "a", fmt.Sprint("o", i), nil, "x")
	}
	e.create(t, "ab", "o", nil, "x")
	e.create(t, "b", "o", nil, "x")
	e.delete(t, "a", "o0")
	n, err := e.store.Count(e.ctx, Prefix+"/a")
	require.NoError(t, err)
	require.EqualValues(t, 4, n, "a/* but not ab/*, without the deleted one")
	n, err = e.store.Count(e.ctx, Prefix)
	require.NoError(t, err)
	require.EqualValues(t, 6, n)
}

func testClose(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	e := newEnv(t, newBackend)
	e.create(t, "default", "a", nil, "x")
	w, err := e.store.Watch(e.ctx, Prefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(e.current(t))})
	require.NoError(t, err)
	require.NoError(t, e.backend.Close())
	expectClosed(t, w)
	w.Stop()
	err = e.store.Create(e.ctx, Key("default", "b"), CronTab("default", "b", nil, "x"), &unstructured.Unstructured{})
	require.Error(t, err)
	require.NoError(t, e.backend.Close(), "Close is idempotent")
}
