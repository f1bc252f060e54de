package storagetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

// ExpiringPrefix is the key prefix of the suite's resource with a TTL.
const ExpiringPrefix = "/registry/stable.example.com/expiringcrontabs"

// ExpiringTTL is the TTL of that resource: short, so that the tests see
// objects expire, long enough to outlast etcd's minimum lease TTL.
const ExpiringTTL = 2 * time.Second

// ExpiringKey returns the key of an expiring CronTab.
func ExpiringKey(ns, name string) string { return ExpiringPrefix + "/" + ns + "/" + name }

// ExpiringResourceConfig is the config of the resource with a TTL.
func ExpiringResourceConfig() storage.ResourceConfig {
	cfg := ResourceConfig()
	cfg.Prefix, cfg.TTL = ExpiringPrefix, ExpiringTTL
	return cfg
}

// testTTL checks the contract of storage/ttl.go. Objects are watched from
// before they are written, so that no assertion depends on how long
// anything takes: each test waits for the DELETED event that expiry
// sends (up to wait).
func testTTL(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	setup := func(t *testing.T) (*env, storage.Interface, watch.Interface) {
		e := newEnv(t, newBackend)
		st := e.backend.ForResource(ExpiringResourceConfig())
		w, err := st.Watch(e.ctx, ExpiringPrefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(e.current(t))})
		require.NoError(t, err)
		t.Cleanup(w.Stop)
		return e, st, w
	}
	deleted := func(t *testing.T, w watch.Interface, name, wantSpec string) storage.Object {
		t.Helper()
		return expectEvent(t, w, watch.Deleted, name, wantSpec)
	}

	t.Run("ExpiryIsADeleteAtANewRevision", func(t *testing.T) {
		e, st, w := setup(t)
		created := &unstructured.Unstructured{}
		require.NoError(t, st.Create(e.ctx, ExpiringKey("default", "a"), CronTab("default", "a", nil, "x"), created))
		expectEvent(t, w, watch.Added, "a", "x")
		gone := deleted(t, w, "a", "x")
		require.Greater(t, RV(t, gone), RV(t, created), "the expiry has a revision of its own")

		err := st.Get(e.ctx, ExpiringKey("default", "a"), storage.GetOptions{}, &unstructured.Unstructured{})
		require.ErrorIs(t, err, storage.ErrNotFound)
		list, err := st.GetList(e.ctx, ExpiringPrefix, storage.ListOptions{Recursive: true})
		require.NoError(t, err)
		require.Empty(t, list.Items)
		require.GreaterOrEqual(t, e.current(t), RV(t, gone))
		// History has it until the expiry's revision, like any delete.
		exact := func(rev int64) []storage.Object {
			res, err := st.GetList(e.ctx, ExpiringPrefix, storage.ListOptions{Recursive: true,
				ResourceVersion: rvString(rev), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
			require.NoError(t, err)
			return res.Items
		}
		require.Len(t, exact(RV(t, gone)-1), 1)
		require.Empty(t, exact(RV(t, gone)))
	})
	t.Run("UpdatedObjectsExpire", func(t *testing.T) {
		e, st, w := setup(t)
		require.NoError(t, st.Create(e.ctx, ExpiringKey("default", "a"), CronTab("default", "a", nil, "x"), &unstructured.Unstructured{}))
		require.NoError(t, st.GuaranteedUpdate(e.ctx, ExpiringKey("default", "a"), &unstructured.Unstructured{}, false, nil,
			func(cur storage.Object) (storage.Object, error) {
				u := cur.(*unstructured.Unstructured)
				return u, unstructured.SetNestedField(u.Object, "y", "spec", "cronSpec")
			}))
		expectEvent(t, w, watch.Added, "a", "x")
		expectEvent(t, w, watch.Modified, "a", "y")
		deleted(t, w, "a", "y")
	})
	t.Run("CreatedByUpdateExpires", func(t *testing.T) {
		e, st, w := setup(t)
		require.NoError(t, st.GuaranteedUpdate(e.ctx, ExpiringKey("default", "a"), &unstructured.Unstructured{}, true, nil,
			func(storage.Object) (storage.Object, error) { return CronTab("default", "a", nil, "x"), nil }))
		expectEvent(t, w, watch.Added, "a", "x")
		deleted(t, w, "a", "x")
	})
	t.Run("OtherResourcesDoNotExpire", func(t *testing.T) {
		e, st, w := setup(t)
		kept := e.create(t, "default", "kept", nil, "x")
		require.NoError(t, st.Create(e.ctx, ExpiringKey("default", "a"), CronTab("default", "a", nil, "x"), &unstructured.Unstructured{}))
		expectEvent(t, w, watch.Added, "a", "x")
		deleted(t, w, "a", "x")
		// The TTL has passed for both: only the resource with one expired.
		got := &unstructured.Unstructured{}
		require.NoError(t, e.store.Get(e.ctx, Key("default", "kept"), storage.GetOptions{}, got))
		require.Equal(t, kept.GetResourceVersion(), got.GetResourceVersion())
	})
	t.Run("DeleteBeforeExpiry", func(t *testing.T) {
		e, st, w := setup(t)
		require.NoError(t, st.Create(e.ctx, ExpiringKey("default", "a"), CronTab("default", "a", nil, "x"), &unstructured.Unstructured{}))
		out := &unstructured.Unstructured{}
		require.NoError(t, st.Delete(e.ctx, ExpiringKey("default", "a"), out, nil, nil))
		expectEvent(t, w, watch.Added, "a", "x")
		got := deleted(t, w, "a", "x")
		require.Equal(t, out.GetResourceVersion(), got.GetResourceVersion(), "the explicit delete")
		// A second object's expiry comes after the first one's deadline:
		// the deleted object does not come back, nor is it deleted twice.
		require.NoError(t, st.Create(e.ctx, ExpiringKey("default", "b"), CronTab("default", "b", nil, "x"), &unstructured.Unstructured{}))
		expectEvent(t, w, watch.Added, "b", "x")
		deleted(t, w, "b", "x")
	})
}
