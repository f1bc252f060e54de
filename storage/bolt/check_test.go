package bolt

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
)

func TestDB_Check(t *testing.T) {
	cfg := storage.ResourceConfig{Prefix: "/registry/g/things", Codec: storage.JSONCodec{},
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} }}
	obj := func(name string) storage.Object {
		u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name}}}
		return u
	}
	setup := func(t *testing.T) string {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		db, err := Open(path, Options{})
		require.NoError(t, err)
		st := db.ForResource(cfg)
		require.NoError(t, st.Create(context.Background(), "/registry/g/things/a", obj("a"), &unstructured.Unstructured{}))
		require.NoError(t, st.Create(context.Background(), "/registry/g/things/b", obj("b"), &unstructured.Unstructured{}))
		require.NoError(t, db.Check())
		require.NoError(t, db.Close())
		return path
	}
	// inject writes r as the next revision, behind the store's back.
	inject := func(t *testing.T, path string, r *record) {
		b, err := bbolt.Open(path, 0o600, nil)
		require.NoError(t, err)
		require.NoError(t, b.Update(func(tx *bbolt.Tx) error {
			meta := tx.Bucket(bucketMeta)
			r.rev = getU64(meta.Get(metaRevision)) + 1
			if err := tx.Bucket(bucketHistory).Put(revKey(r.rev), r.encode()); err != nil {
				return err
			}
			return meta.Put(metaRevision, u64(r.rev))
		}))
		require.NoError(t, b.Close())
	}
	t.Run("OK", func(t *testing.T) {
		db, err := Open(setup(t), Options{Strict: true})
		require.NoError(t, err)
		require.NoError(t, db.Close())
	})
	t.Run("ErrCorruptBrokenChain", func(t *testing.T) {
		path := setup(t)
		// An update of a that names a previous write that is not a's.
		inject(t, path, &record{key: "/registry/g/things/a", createRev: 1, prevRev: 2, value: []byte(`{}`)})
		_, err := Open(path, Options{Strict: true})
		require.ErrorIs(t, err, ErrCorrupt)
		require.Contains(t, err.Error(), "follows 1")

		db, err := Open(path, Options{}) // without Strict, Check finds it on demand
		require.NoError(t, err)
		defer db.Close()
		require.ErrorIs(t, db.Check(), ErrCorrupt)
	})
	t.Run("ErrCorruptDeleteOfNothing", func(t *testing.T) {
		path := setup(t)
		inject(t, path, &record{key: "/registry/g/things/zz", deleted: true, value: []byte(`{}`)})
		_, err := Open(path, Options{Strict: true})
		require.ErrorIs(t, err, ErrCorrupt)
		require.Contains(t, err.Error(), "deletes nothing")
	})
	t.Run("ErrCorruptIndexDiffersFromDisk", func(t *testing.T) {
		db, err := Open(setup(t), Options{})
		require.NoError(t, err)
		defer db.Close()
		db.mu.Lock()
		l := db.index.get("/registry/g/things/a").latest
		l.value, l.onDisk = []byte(`{"changed":true}`), false
		db.mu.Unlock()
		err = db.Check()
		require.ErrorIs(t, err, ErrCorrupt)
		require.Contains(t, err.Error(), "differs")
	})
}
