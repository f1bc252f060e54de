package etcd3_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/etcd3"
	"github.com/crdlab/crdlab/storage/etcd3/etcdtest"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestLeases: every write of a resource with a TTL attaches its key to an
// etcd lease that lives at least the TTL from the write (so an update
// starts the clock again); writes close together share one lease, as
// upstream's leaseManager makes them; other resources get no lease.
func TestLeases(t *testing.T) {
	srv := etcdtest.Start(t)
	ctx := context.Background()
	b, err := etcd3.New(ctx, etcd3.Config{Endpoints: srv.Endpoints})
	require.NoError(t, err)
	defer b.Close()
	cfg := storagetest.ExpiringResourceConfig()
	cfg.TTL = time.Minute
	st := b.ForResource(cfg)
	lease := func(name string) (clientv3.LeaseID, int64) {
		t.Helper()
		resp, err := b.Client().Get(ctx, storagetest.ExpiringKey("default", name))
		require.NoError(t, err)
		require.Len(t, resp.Kvs, 1)
		id := clientv3.LeaseID(resp.Kvs[0].Lease)
		require.NotZero(t, id, "the key is attached to a lease")
		ttl, err := b.Client().TimeToLive(ctx, id)
		require.NoError(t, err)
		return id, ttl.TTL
	}

	require.NoError(t, st.Create(ctx, storagetest.ExpiringKey("default", "a"), storagetest.CronTab("default", "a", nil, "x"), &unstructured.Unstructured{}))
	require.NoError(t, st.Create(ctx, storagetest.ExpiringKey("default", "b"), storagetest.CronTab("default", "b", nil, "x"), &unstructured.Unstructured{}))
	idA, ttlA := lease("a")
	idB, _ := lease("b")
	require.Equal(t, idA, idB, "writes within the reuse window share a lease")
	require.GreaterOrEqual(t, ttlA, int64(55), "the lease outlives the TTL (with its reuse window)")

	require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.ExpiringKey("default", "a"), &unstructured.Unstructured{}, false, nil,
		func(cur storage.Object) (storage.Object, error) {
			u := cur.(*unstructured.Unstructured)
			return u, unstructured.SetNestedField(u.Object, "y", "spec", "cronSpec")
		}))
	_, ttl := lease("a")
	require.GreaterOrEqual(t, ttl, int64(55), "an update keeps the key on a lease of the whole TTL")

	plain := b.ForResource(storagetest.ResourceConfig())
	require.NoError(t, plain.Create(ctx, storagetest.Key("default", "p"), storagetest.CronTab("default", "p", nil, "x"), &unstructured.Unstructured{}))
	resp, err := b.Client().Get(ctx, storagetest.Key("default", "p"))
	require.NoError(t, err)
	require.Zero(t, resp.Kvs[0].Lease, "no TTL, no lease")
}
