package bolt_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// damagedFile writes a data file with enough history for a few levels of
// pages (the history bucket has branch and leaf pages, the meta bucket is
// inline), and returns its bytes and the id and type of every page in use.
func damagedFileFixture(t *testing.T) (data []byte, pageSize int, pages map[int]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crdlab.db")
	db, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(t, err)
	st := cronStore(db)
	for i := range 60 {
		create(t, st, fmt.Sprintf("object-%02d-%s", i, bytes.Repeat([]byte("x"), 300)), "* * * * *")
	}
	require.NoError(t, db.Close())

	b, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, PreLoadFreelist: true})
	require.NoError(t, err)
	pages = map[int]string{}
	require.NoError(t, b.View(func(tx *bbolt.Tx) error {
		for id := 0; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			if p.Type != "free" {
				pages[id] = p.Type
				id += p.OverflowCount
			}
		}
	}))
	pageSize = b.Info().PageSize
	require.NoError(t, b.Close())
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, k := range pages {
		kinds[k]++
	}
	require.GreaterOrEqual(t, kinds["branch"], 1, "the fixture needs a branch page: %v", kinds)
	require.GreaterOrEqual(t, kinds["leaf"], 3, "the fixture needs several leaf pages: %v", kinds)
	return data, pageSize, pages
}

// TestOpen_DamagedFile: a damaged file is refused with ErrCorrupt, never
// a panic or a fault (in Open or in bbolt's own goroutines), and the file
// is left byte for byte as it was. Every page in use is damaged in turn:
// zeroed, and with a bit of its header flipped.
func TestOpen_DamagedFile(t *testing.T) { testDamagedFile(t) }

// TestOpen_DamagedFileTwoCores is TestOpen_DamagedFile with the pre-check
// walking the history bucket's tree on two goroutines (walkSplit), as it
// does on files of splitPages pages or more.
func TestOpen_DamagedFileTwoCores(t *testing.T) {
	defer bolt.SetSplitPages(1)()
	testDamagedFile(t)

	// Damage across the two halves: the branch page's middle element made
	// a copy of its first (same key, same child: both halves would reach
	// the first child's pages, and the first half's last child is out of
	// its bounds); and the middle key moved back to the one before it, out
	// of order with the first half's last key, which only the two halves
	// together see.
	good, pageSize, pages := damagedFileFixture(t)
	var branches []int
	for id, typ := range pages {
		if typ == "branch" {
			branches = append(branches, id)
		}
	}
	require.Len(t, branches, 1, "the fixture's history bucket has one branch page, its root")
	elem := func(p []byte, i int) (key, child []byte) {
		e := 16 + 16*i // page header, branch elements of 16 bytes
		pos, ksize := int(binary.NativeEndian.Uint32(p[e:])), int(binary.NativeEndian.Uint32(p[e+4:]))
		return p[e+pos : e+pos+ksize], p[e+8 : e+16]
	}
	for _, tc := range []struct {
		name, want string
		damage     func(p []byte, h int)
	}{
		{"ChildInBothHalves", "out of order", func(p []byte, h int) {
			k0, c0 := elem(p, 0)
			kh, ch := elem(p, h)
			copy(kh, k0)
			copy(ch, c0)
		}},
		{"OrderAcrossTheHalves", "out of order at element", func(p []byte, h int) {
			kb, _ := elem(p, h-1)
			kh, _ := elem(p, h)
			copy(kh, kb)
		}},
	} {
		t.Run("ErrCorrupt"+tc.name, func(t *testing.T) {
			data := bytes.Clone(good)
			p := data[branches[0]*pageSize : (branches[0]+1)*pageSize]
			count := int(binary.NativeEndian.Uint16(p[10:]))
			require.GreaterOrEqual(t, count, 2)
			tc.damage(p, count/2)
			path := filepath.Join(t.TempDir(), "crdlab.db")
			require.NoError(t, os.WriteFile(path, data, 0o600))
			_, err := bolt.Open(path, bolt.Options{NoSync: true})
			require.ErrorIs(t, err, bolt.ErrCorrupt)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func testDamagedFile(t *testing.T) {
	good, pageSize, pages := damagedFileFixture(t)
	open := func(t *testing.T, data []byte) error {
		t.Helper()
		path := filepath.Join(t.TempDir(), "crdlab.db")
		require.NoError(t, os.WriteFile(path, data, 0o600))
		db, err := bolt.Open(path, bolt.Options{NoSync: true})
		if err == nil {
			// Opened: bbolt's freelist rebuild runs at the first write.
			_, werr := cronStore(db).Count(ctx, "/registry/stable.example.com/crontabs")
			create(t, cronStore(db), "after", "x")
			require.NoError(t, db.Close())
			return werr
		}
		after, rerr := os.ReadFile(path)
		require.NoError(t, rerr)
		require.True(t, bytes.Equal(data, after), "the damaged file was written to")
		return err
	}
	t.Run("Good", func(t *testing.T) {
		require.NoError(t, open(t, good))
	})
	t.Run("ErrCorruptEmpty", func(t *testing.T) {
		err := open(t, nil)
		require.ErrorIs(t, err, bolt.ErrCorrupt)
		require.ErrorContains(t, err, "empty")
	})
	used := 0 // the bytes of the pages in use; bbolt grows the file ahead of them
	for id := range pages {
		used = max(used, (id+1)*pageSize)
	}
	// 2 pages: the meta pages alone; half a page: the second meta page gone.
	for _, size := range []int{2 * pageSize, pageSize / 2, used - pageSize, used / 2} {
		t.Run(fmt.Sprint("ErrCorruptTruncatedTo", size), func(t *testing.T) {
			err := open(t, good[:size])
			require.ErrorIs(t, err, bolt.ErrCorrupt)
			require.ErrorContains(t, err, "truncated")
		})
	}
	for id, typ := range pages {
		damage := map[string]func(p []byte){
			"Zeroed":         func(p []byte) { clear(p) },
			"IdFlipped":      func(p []byte) { p[0] ^= 0x01 },
			"FlagsFlipped":   func(p []byte) { p[8] ^= 0x02 },
			"CountFlipped":   func(p []byte) { p[11] ^= 0x10 },
			"ElementFlipped": func(p []byte) { p[16+5] ^= 0x01 }, // the first element's pos or key size
		}
		if typ == "meta" {
			// bbolt reads only the meta itself (checksummed) from a meta page.
			damage = map[string]func(p []byte){
				"Zeroed":      func(p []byte) { clear(p) },
				"TxidFlipped": func(p []byte) { p[16+48] ^= 0x01 },
			}
		}
		for name, fn := range damage {
			t.Run(fmt.Sprintf("ErrCorrupt%sPage%d(%s)", name, id, typ), func(t *testing.T) {
				data := bytes.Clone(good)
				fn(data[id*pageSize : (id+1)*pageSize])
				err := open(t, data)
				require.ErrorIs(t, err, bolt.ErrCorrupt)
			})
		}
	}
}

// FuzzOpen_DamagedFile: whatever the bytes of a data file, Open either
// refuses it or opens it, and a store opened on it works (writes, lists,
// closes) without a panic or a fault in any goroutine.
func FuzzOpen_DamagedFile(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed.db")
	db, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(f, err)
	for i := range 20 {
		create(f, cronStore(db), fmt.Sprint("seed-", i, "-", bytes.Repeat([]byte("s"), 400)), "x")
	}
	require.NoError(f, db.Close())
	seed, err := os.ReadFile(path)
	require.NoError(f, err)
	b, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	require.NoError(f, err)
	var used int
	require.NoError(f, b.View(func(tx *bbolt.Tx) error { used = int(tx.Size()); return nil }))
	ps := b.Info().PageSize
	require.NoError(f, b.Close())
	seed = seed[:used] // the pages in use: bbolt grows the file ahead of them
	f.Add(seed)
	for _, at := range []int{0, ps + 64, 2 * ps, 3*ps + 8, used - ps} {
		d := bytes.Clone(seed)
		d[at] ^= 0x04
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		require.NoError(t, os.WriteFile(path, data, 0o600))
		db, err := bolt.Open(path, bolt.Options{NoSync: true})
		if err != nil {
			return
		}
		defer db.Close()
		st := cronStore(db)
		_ = st.Create(ctx, "/registry/stable.example.com/crontabs/default/fuzz", storagetest.CronTab("default", "fuzz", nil, "x"), &unstructured.Unstructured{})
		_, _ = st.GetList(ctx, "/registry/stable.example.com/crontabs", storage.ListOptions{Recursive: true})
	})
}

// TestClose_WritesFreelist: a clean close leaves bbolt's list of free
// pages in the file, so that the next Open reads it instead of walking
// every page; the file opens, keeps its objects and takes writes, and a
// freelist page that lists a page in use (bbolt would hand it out and
// overwrite it) is refused with ErrCorrupt, the file untouched.
func TestClose_WritesFreelist(t *testing.T) {
	good, pageSize, pages := damagedFileFixture(t)
	var freelist, leaf int
	for id, typ := range pages {
		switch typ {
		case "freelist":
			freelist = id
		case "leaf":
			leaf = id
		}
	}
	require.NotZero(t, freelist, "no freelist page after a clean close: %v", pages)
	p := good[freelist*pageSize:]
	count := int(binary.NativeEndian.Uint16(p[10:]))
	require.Greater(t, count, 0, "the fixture's freelist lists no page")
	require.Less(t, count, 0xFFFF)

	t.Run("Opens", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "crdlab.db")
		require.NoError(t, os.WriteFile(path, good, 0o600))
		db, err := bolt.Open(path, bolt.Options{NoSync: true})
		require.NoError(t, err)
		n, err := cronStore(db).Count(ctx, "/registry/stable.example.com/crontabs")
		require.NoError(t, err)
		require.EqualValues(t, 60, n)
		create(t, cronStore(db), "after", "x")
		require.NoError(t, db.Close())
		db, err = bolt.Open(path, bolt.Options{NoSync: true})
		require.NoError(t, err)
		n, err = cronStore(db).Count(ctx, "/registry/stable.example.com/crontabs")
		require.NoError(t, err)
		require.EqualValues(t, 61, n)
		require.NoError(t, db.Close())
	})
	t.Run("ErrCorruptListsAPageInUse", func(t *testing.T) {
		data := bytes.Clone(good)
		binary.NativeEndian.PutUint64(data[freelist*pageSize+16:], uint64(leaf))
		path := filepath.Join(t.TempDir(), "crdlab.db")
		require.NoError(t, os.WriteFile(path, data, 0o600))
		_, err := bolt.Open(path, bolt.Options{NoSync: true})
		require.ErrorIs(t, err, bolt.ErrCorrupt)
		require.ErrorContains(t, err, fmt.Sprintf("lists page %d, which is in use", leaf))
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		require.True(t, bytes.Equal(data, after), "the damaged file was written to")
	})
}
