package bolt

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// mappedRSS is how many bytes of the mappings of the file at path are in
// the process's resident set, from /proc/self/smaps.
func mappedRSS(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	var total int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && fields[5] == path // a mapping's first line
			continue
		}
		if in && fields[0] == "Rss:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			require.NoError(t, err)
			total += kb << 10
		}
	}
	require.NoError(t, sc.Err())
	return total
}

// TestDB_ReleasesMappedPages writes, updates and reads large values (each
// read and each append touches the file through bbolt's mapping), then
// checks that the committer drops the mapped pages from the resident set
// after the next write, and that every value still reads back as written.
// Without the release the reads alone leave the values' pages resident.
func TestDB_ReleasesMappedPages(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	st := db.ForResource(storagetest.ResourceConfig())
	out := &unstructured.Unstructured{}
	const n = 32
	spec := func(i, gen int) string { return fmt.Sprintf("%d/%d/", i, gen) + strings.Repeat("x", 300<<10) }
	for i := range n {
		name := "big" + strconv.Itoa(i)
		require.NoError(t, st.Create(ctx, storagetest.Key("default", name), storagetest.CronTab("default", name, nil, spec(i, 1)), out))
		require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.Key("default", name), out, false, nil, func(cur storage.Object) (storage.Object, error) {
			u := cur.(*unstructured.Unstructured)
			return u, unstructured.SetNestedField(u.Object, spec(i, 2), "spec", "cronSpec")
		}))
	}
	got := &unstructured.Unstructured{}
	for i := range n {
		require.NoError(t, st.Get(ctx, storagetest.Key("default", "big"+strconv.Itoa(i)), storage.GetOptions{}, got))
	}
	// The next write: the release comes after it.
	require.NoError(t, st.Create(ctx, storagetest.Key("default", "small"), storagetest.CronTab("default", "small", nil, "s"), out))

	const most = 1 << 20 // the meta and branch pages a read transaction touches, and slack
	deadline := time.Now().Add(30 * time.Second)
	for mappedRSS(t, path) > most {
		if time.Now().After(deadline) {
			t.Fatalf("the data file's mapping holds %d bytes of resident set, want at most %d (file %d bytes)", mappedRSS(t, path), most, fileSize(path))
		}
		time.Sleep(20 * time.Millisecond) // polling the kernel's count; nothing to wait on
	}
	for i := range n {
		require.NoError(t, st.Get(ctx, storagetest.Key("default", "big"+strconv.Itoa(i)), storage.GetOptions{}, got))
		require.Equal(t, spec(i, 2), specOf(t, got), "a value read again after the release")
	}
}
