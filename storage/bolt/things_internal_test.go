package bolt

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
)

// openThings opens a DB with opts in a new temporary directory, closed
// when the test ends, and a store of unstructured objects under
// thingsPrefix.
func openThings(t testing.TB, opts Options) (*DB, storage.Interface) {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "crdlab.db"), opts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db, db.ForResource(storage.ResourceConfig{Prefix: thingsPrefix, Codec: storage.JSONCodec{},
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} }})
}
