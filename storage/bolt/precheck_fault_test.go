//go:build unix

package bolt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestCheckFile_FaultIsCorrupt: checkFile reads the file through a
// read-only mapping; a page the file no longer holds when it is read (the
// file cut short after the mapping, a SIGBUS) is ErrCorrupt, not a crash.
func TestCheckFile_FaultIsCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	st := db.ForResource(storagetest.ResourceConfig())
	for i := range 200 {
		name := fmt.Sprintf("o%03d", i)
		require.NoError(t, st.Create(context.Background(), storagetest.Key("default", name),
			storagetest.CronTab("default", name, nil, "* * * * *"), &unstructured.Unstructured{}))
	}
	require.NoError(t, db.Close())
	require.NoError(t, checkFile(path, 0), "the file is whole")

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	info, err := f.Stat()
	require.NoError(t, err)
	data, unmap, err := mapFile(f, info.Size())
	require.NoError(t, err)
	defer unmap()
	require.NoError(t, os.Truncate(path, 2*pageSize)) // the meta pages only
	c := &fileChecker{r: f, size: info.Size(), blocks: map[int64][]byte{}, data: data}
	err = c.checkFaults()
	var ce *checkError
	require.True(t, errors.As(err, &ce), "%v", err)
	require.ErrorIs(t, ce.kind, ErrCorrupt)
	require.Contains(t, ce.msg, "cannot be read")
}
