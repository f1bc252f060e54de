package bolt_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// openDB opens a DB in a fresh directory, closed when the test ends.
func openDB(t testing.TB, opts bolt.Options) *bolt.DB {
	t.Helper()
	if opts.BookmarkInterval == 0 {
		opts.BookmarkInterval = 50 * time.Millisecond
	}
	db, err := bolt.Open(filepath.Join(t.TempDir(), "crdlab.db"), opts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

func TestDB_Conformance(t *testing.T) {
	storagetest.RunConformance(t, func(t *testing.T) storage.Backend {
		db := openDB(t, bolt.Options{Strict: true})
		t.Cleanup(func() {
			if err := db.Check(); err != nil && !errors.Is(err, storage.ErrInternal) {
				t.Errorf("Check after the test: %v", err)
			}
		})
		return db
	})
}

// TestDB_ConformanceValuesOnDisk runs the conformance suite with every
// value left in the data file, as after Open (MaxValueInMemory < 0: the
// index keeps no value, readers read it from the file), and a
// defragmentation after every compaction: reads at a revision, lists,
// watches, updates and deletes of records whose value is on disk, across
// compactions and switches of the file.
func TestDB_ConformanceValuesOnDisk(t *testing.T) {
	storagetest.RunConformance(t, func(t *testing.T) storage.Backend {
		db := openDB(t, bolt.Options{Strict: true, MaxValueInMemory: -1})
		t.Cleanup(func() {
			if err := db.Check(); err != nil && !errors.Is(err, storage.ErrInternal) {
				t.Errorf("Check after the test: %v", err)
			}
		})
		return defragmenting{db}
	})
}
