package etcd3_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/etcd3"
	"github.com/crdlab/crdlab/storage/etcd3/etcdtest"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestPrefix: --etcd-prefix replaces /registry in every key; backends on
// the same prefix share objects (several servers), backends on different
// prefixes do not.
func TestPrefix(t *testing.T) {
	srv := etcdtest.Start(t)
	ctx := context.Background()
	open := func(prefix string) storage.Interface {
		b, err := etcd3.New(ctx, etcd3.Config{Endpoints: srv.Endpoints, Prefix: prefix})
		require.NoError(t, err)
		t.Cleanup(func() { _ = b.Close() })
		return b.ForResource(storagetest.ResourceConfig())
	}
	def, same, other := open(""), open("/registry/"), open("crdlab-b")
	require.NoError(t, def.Create(ctx, storagetest.Key("ns", "a"), storagetest.CronTab("ns", "a", nil, "x"), &unstructured.Unstructured{}))

	b, err := etcd3.New(ctx, etcd3.Config{Endpoints: srv.Endpoints})
	require.NoError(t, err)
	defer b.Close()
	resp, err := b.Client().Get(ctx, "/registry/stable.example.com/crontabs/ns/a")
	require.NoError(t, err)
	require.Len(t, resp.Kvs, 1, "the default prefix keeps upstream's key layout")

	got := &unstructured.Unstructured{}
	require.NoError(t, same.Get(ctx, storagetest.Key("ns", "a"), storage.GetOptions{}, got))
	require.Equal(t, "a", got.GetName())
	require.ErrorIs(t, other.Get(ctx, storagetest.Key("ns", "a"), storage.GetOptions{}, got), storage.ErrNotFound)

	require.NoError(t, other.Create(ctx, storagetest.Key("ns", "b"), storagetest.CronTab("ns", "b", nil, "x"), &unstructured.Unstructured{}))
	resp, err = b.Client().Get(ctx, "/crdlab-b/stable.example.com/crontabs/ns/b")
	require.NoError(t, err)
	require.Len(t, resp.Kvs, 1)
	n, err := def.Count(ctx, storagetest.Prefix)
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	list, err := other.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	require.Equal(t, "b", list.Items[0].GetName())
}
