package bolt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/storage"
)

func TestKeyIndex_At(t *testing.T) {
	// Created at 3, changed at 5, deleted at 8, created again at 12.
	ki := &keyIndex{key: "/k", revs: []revision{{3, false}, {5, false}, {8, true}, {12, false}}}
	cases := []struct {
		rev    int64
		want   int64
		exists bool
	}{
		{2, 0, false}, {3, 3, true}, {4, 3, true}, {5, 5, true}, {7, 5, true},
		{8, 0, false}, {11, 0, false}, {12, 12, true}, {100, 12, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.rev), func(t *testing.T) {
			r, ok := ki.at(c.rev)
			require.Equal(t, c.exists, ok)
			require.Equal(t, c.want, r.rev)
		})
	}
}

func TestKeyIndex_Compact(t *testing.T) {
	revs := []revision{{3, false}, {5, false}, {8, true}, {12, false}}
	cases := []struct {
		at      int64
		dropped []int64
		kept    []int64
	}{
		{2, nil, []int64{3, 5, 8, 12}},
		{4, nil, []int64{3, 5, 8, 12}},      // 3 holds the state at 4
		{5, []int64{3}, []int64{5, 8, 12}},  // 5 holds the state at 5
		{7, []int64{3}, []int64{5, 8, 12}},  // and at 7
		{8, []int64{3, 5, 8}, []int64{12}},  // deleted at 8: nothing to keep
		{11, []int64{3, 5, 8}, []int64{12}}, //
		{12, []int64{3, 5, 8}, []int64{12}}, //
		{20, []int64{3, 5, 8}, []int64{12}}, // the latest state stays
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.at), func(t *testing.T) {
			ki := &keyIndex{key: "/k", revs: slices.Clone(revs)}
			require.Equal(t, c.dropped, ki.compact(c.at))
			var kept []int64
			for _, r := range ki.revs {
				kept = append(kept, r.rev)
			}
			require.Equal(t, c.kept, kept)
		})
	}
	t.Run("DeletedKeyDisappears", func(t *testing.T) {
		ki := &keyIndex{key: "/k", revs: []revision{{3, false}, {8, true}}}
		require.Equal(t, []int64{3, 8}, ki.compact(9))
		require.Empty(t, ki.revs)
	})
}

// TestTreeIndex_Order checks the chunked index against a sorted slice
// through random inserts and removals (enough to split and empty chunks).
func TestTreeIndex_Order(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ti := newTreeIndex()
	ref := map[string]bool{}
	rev := int64(0)
	for i := range 20000 {
		k := fmt.Sprintf("/k/%05d", rng.IntN(5000))
		if i%3 == 2 {
			ti.remove(k)
			delete(ref, k)
			continue
		}
		rev++
		ti.put(&record{rev: rev, key: k})
		ref[k] = true
	}
	var want []string
	for k := range ref {
		want = append(want, k)
	}
	slices.Sort(want)
	var got []string
	ti.ascend("", func(ki *keyIndex) bool { got = append(got, ki.key); return true })
	require.Equal(t, want, got)
	require.Equal(t, len(want), ti.len())
	for _, c := range ti.chunks {
		require.NotEmpty(t, c)
		require.LessOrEqual(t, len(c), maxChunk)
	}

	// ascend from the middle, from a missing key, and stopping early.
	from := want[len(want)/2]
	got = got[:0]
	ti.ascend(from, func(ki *keyIndex) bool { got = append(got, ki.key); return len(got) < 10 })
	require.Equal(t, want[len(want)/2:len(want)/2+10], got)
	got = got[:0]
	ti.ascend(from+"!", func(ki *keyIndex) bool { got = append(got, ki.key); return false })
	require.Equal(t, want[len(want)/2+1:len(want)/2+2], got)
}

func TestTreeIndex_Compact(t *testing.T) {
	ti := newTreeIndex()
	ti.put(&record{rev: 1, key: "/a"})
	ti.put(&record{rev: 2, key: "/b"})
	ti.put(&record{rev: 3, key: "/a"})
	ti.put(&record{rev: 4, key: "/b", deleted: true})
	require.Equal(t, []int64{1, 2, 4}, ti.compact(4))
	require.Equal(t, 1, ti.len())
	require.Nil(t, ti.get("/b"))
	require.Equal(t, []revision{{3, false}}, ti.get("/a").revs)
}

// TestTreeIndex_Count checks the chunks' figures, and the counts of ranges
// made from them at the latest revision and at older ones, against a walk
// over the keys, through random puts, deletes, removals and compactions
// under three prefixes.
func TestTreeIndex_Count(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ti := newTreeIndex()
	rev := int64(0)
	prefixes := []string{"/a/", "/b/", "/c/"}
	key := func() string { return fmt.Sprintf("%s%05d", prefixes[rng.IntN(3)], rng.IntN(3000)) }
	compacted := int64(0)
	walk := func(r storage.KeyRange, from string, rev int64) int64 {
		var n int64
		ti.ascend(from, func(ki *keyIndex) bool {
			if !r.Contains(ki.key) {
				return false
			}
			if _, ok := ki.at(rev); ok {
				n++
			}
			return true
		})
		return n
	}
	// at is a revision to count at: the latest, or one since the last
	// compaction.
	at := func() int64 {
		if rng.IntN(2) == 0 || rev == compacted {
			return rev
		}
		return compacted + rng.Int64N(rev-compacted)
	}
	check := func(step int) {
		t.Helper()
		require.Len(t, ti.stats, len(ti.chunks), "step %d", step)
		for ci, c := range ti.chunks {
			want := statsOf(c)
			require.Equal(t, want.live, ti.stats[ci].live, "step %d: chunk %d's live keys", step, ci)
			require.GreaterOrEqual(t, ti.stats[ci].written, want.written, "step %d: chunk %d's latest write", step, ci)
		}
		for _, p := range prefixes {
			r := storage.KeyRange{Key: p, Prefix: true}
			for _, from := range []string{p, p + "01500", p + "01500\x00", key(), p + "99999"} {
				if !strings.HasPrefix(from, p) {
					continue
				}
				rev := at()
				require.Equal(t, walk(r, from, rev), ti.count(r, from, rev), "step %d: %s from %q at %d", step, p, from, rev)
			}
		}
		k := key()
		r := storage.KeyRange{Key: k}
		rev := at()
		require.Equal(t, walk(r, k, rev), ti.count(r, k, rev), "step %d: the key %s alone at %d", step, k, rev)
	}
	for step := range 30000 {
		switch n := rng.IntN(20); {
		case n == 0:
			ti.remove(key()) // as a test may; compaction removes only keys it emptied
		case n == 1 && step%500 == 0:
			compacted = max(compacted, rev-int64(rng.IntN(100)))
			ti.compact(compacted)
		default:
			rev++
			ti.put(&record{rev: rev, key: key(), deleted: n < 6})
		}
		if step%1000 == 999 {
			check(step)
		}
	}
	check(-1)
	// Open fills the revisions in place and counts once at the end.
	for _, c := range ti.chunks {
		for _, ki := range c {
			ki.revs = append(ki.revs, revision{rev: rev + 1, tombstone: rng.IntN(2) == 0})
		}
	}
	rev++
	ti.recount()
	check(-2)
}
