package bolt

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestRebuild_ThroughTheCheckMapping: Open rebuilds the index from the
// pre-check's mapping of the history bucket (checked.eachElem), and the
// index it builds is the one a bbolt cursor builds, key by key and
// revision by revision (creates, updates, deletes, a key created again
// after its delete). A file written between the check and bbolt's Open
// (another transaction) is read through the cursor; so is a check
// without a mapping.
func TestRebuild_ThroughTheCheckMapping(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	st := db.ForResource(storagetest.ResourceConfig())
	for i := range 800 { // more records than a batch of eachParsed
		name := fmt.Sprintf("object-%03d", i)
		require.NoError(t, st.Create(ctx, storagetest.Key("default", name), storagetest.CronTab("default", name, nil, "* * * * *"), &unstructured.Unstructured{}))
		if i%3 == 0 {
			require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.Key("default", name), &unstructured.Unstructured{}, false, nil,
				func(cur storage.Object) (storage.Object, error) {
					u := cur.(*unstructured.Unstructured)
					return u, unstructured.SetNestedField(u.Object, "*/5 * * * *", "spec", "cronSpec")
				}))
		}
		if i%7 == 0 {
			require.NoError(t, st.Delete(ctx, storagetest.Key("default", name), &unstructured.Unstructured{}, nil, nil))
		}
		if i%14 == 0 {
			require.NoError(t, st.Create(ctx, storagetest.Key("default", name), storagetest.CronTab("default", name, nil, "again"), &unstructured.Unstructured{}))
		}
	}
	require.NoError(t, db.Close())

	c, err := checkFileMapped(path, 0)
	require.NoError(t, err)
	require.NotZero(t, c.history, "the history bucket has a root page")
	c.close()

	type state struct {
		Revs                             []revision
		Rev, CreateRev, PrevRev, Expires int64
		Deleted                          bool
	}
	rebuilt := func(through bool) (map[string]state, int64) {
		defer func(saved bool) { rebuildThroughCheck = saved }(rebuildThroughCheck)
		rebuildThroughCheck = through
		db, err := Open(path, Options{NoSync: true})
		require.NoError(t, err)
		defer db.Close()
		out := map[string]state{}
		for k, ki := range db.index.byKey {
			l := ki.latest
			out[k] = state{ki.revs, l.rev, l.createRev, l.prevRev, l.expires, l.deleted}
		}
		return out, db.rev
	}
	viaCheck, rev := rebuilt(true)
	viaCursor, rev2 := rebuilt(false)
	require.Len(t, viaCheck, 800)
	require.Equal(t, rev2, rev)
	require.Equal(t, viaCursor, viaCheck)
	require.Len(t, viaCheck[storagetest.Key("default", "object-042")].Revs, 4, "created, updated, deleted, created again")

	// The file as another transaction left it: historyAt says no.
	c, err = checkFileMapped(path, 0)
	require.NoError(t, err)
	defer c.close()
	require.Equal(t, c.history, c.historyAt(c.txid, c.history))
	require.Zero(t, c.historyAt(c.txid+1, c.history))
	require.Zero(t, c.historyAt(c.txid, c.history+1))
	require.Zero(t, (&checked{history: c.history, txid: c.txid}).historyAt(c.txid, c.history), "no mapping")
	require.Zero(t, (*checked)(nil).historyAt(c.txid, c.history))
	c.close()

	// A revision counter behind the records: the index builder fails
	// halfway, and the reader stops.
	b, err := bbolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, b.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketMeta).Put(metaRevision, u64(500)) }))
	require.NoError(t, b.Close())
	_, err = Open(path, Options{NoSync: true})
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "record at revision 501 is after the revision counter 500")
	b, err = bbolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, b.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketMeta).Put(metaRevision, u64(rev)) }))
	require.NoError(t, b.Close())

	// A record whose bytes changed is refused through the mapping too.
	b, err = bbolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, b.Update(func(tx *bbolt.Tx) error {
		h := tx.Bucket(bucketHistory)
		k, v := h.Cursor().Last()
		bad := bytes.Replace(v, []byte(`"* * * * *"`), []byte(`"* * * * +"`), 1)
		require.NotEqual(t, v, bad)
		return h.Put(k, bad)
	}))
	require.NoError(t, b.Close())
	c, err = checkFileMapped(path, 0)
	require.NoError(t, err)
	require.NotZero(t, c.history)
	c.close()
	_, err = Open(path, Options{NoSync: true})
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "checksum")
}
