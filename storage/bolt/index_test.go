package bolt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
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
